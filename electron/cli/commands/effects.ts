import { entryLabels, LEDGER_OUTCOME_TEXT, replayText, type LedgerEntry, type SideEffectLedger } from '../../../shared/side-effect-ledger';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { formatDate, oneLine, plural } from '../format';
import { resolveTarget } from './export';

export const effectsCommand: CliCommand = {
  name: 'effects',
  summary: "List a session's side effects outside the workspace, with outcomes and possible double effects",
  usage: `Usage: arbor effects SESSION|NODE [--json]

The side-effect ledger: every step that reached outside the workspace (pushes, publishes, network, MCP and
database calls, commands Arbor cannot tell are local), with its outcome: ok, failed, or "requested, outcome
not recorded" (no result: it may never have run, or it ran and the record was lost). A request repeated after a
missing outcome, a resume or on another branch (a git commit or push, a publish, an issue or pull request
opened, a POST) is marked as a possible double effect, with the earlier request: check the outside world.

SESSION (an id or a unique prefix of one) lists every branch; NODE lists the branch through that node, root to
the branch's end, the steps after the node marked "after".

Options:
  --json      Print {"sessionId","through","entries":[{nodeId,toolUseId,tool,timestamp,kinds,effects,summary,
              outcome,replayOf:{nodeId,toolUseId,summary,outcome,reason,effect}|null,afterThrough}],
              "unrecorded","replays"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const target = await resolveTarget(context, positionals[0] as string);
    const ledger = await service.api['effects.ledger']({ target }, { signal: context.signal });
    context.io.stdout(values.json === true ? `${JSON.stringify(ledger)}\n` : ledgerText(ledger));
    return 0;
  },
};

export function ledgerText(ledger: SideEffectLedger): string {
  const scope = ledger.through === null ? `session ${ledger.sessionId.slice(0, 8)} (every branch)` : `the branch through ${ledger.through.slice(0, 8)}`;
  if (ledger.entries.length === 0) return `No step of ${scope} reached outside the workspace.\n`;
  const counts = [
    plural(ledger.entries.length, 'step'),
    ledger.unrecorded > 0 ? `${ledger.unrecorded} without a recorded outcome` : null,
    ledger.replays > 0 ? plural(ledger.replays, 'possible double effect') : null,
  ].filter((part) => part !== null);
  const rows = ledger.entries.map((entry) => [formatDate(entry.timestamp), entry.nodeId.slice(0, 8), entryLabels(entry).join(', '), outcomeCell(entry), oneLine(entry.summary, 100)]);
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = [`Side effects of ${scope}: ${counts.join(', ')}`, ''];
  ledger.entries.forEach((entry, i) => {
    lines.push(rows[i]!.map((cell, column) => (column < 4 ? cell.padEnd(widths[column]!) : cell)).join('  '));
    if (entry.replayOf !== null) lines.push(`    ! ${replayText(entry.replayOf)} Earlier: ${entry.replayOf.nodeId.slice(0, 8)} (${LEDGER_OUTCOME_TEXT[entry.replayOf.outcome]})`);
  });
  return `${lines.join('\n')}\n`;
}

function outcomeCell(entry: LedgerEntry): string {
  return `${LEDGER_OUTCOME_TEXT[entry.outcome]}${entry.afterThrough ? ' (after)' : ''}`;
}
