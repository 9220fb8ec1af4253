import type { ArborApi } from '../../../shared/contract';
import { ArborError } from '../../../shared/errors';
import { describeCost, formatTokens, formatUsd, STATS_GROUPINGS, tokenTotal, type StatsGrouping, type UsageFigure } from '../../../shared/usage';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { oneLine, plural, table } from '../format';
import { listAllSessions } from '../sessions';

export const statsCommand: CliCommand = {
  name: 'stats',
  summary: 'Print tokens and cost per day, model, project or agent, or for one session',
  usage: `Usage: arbor stats [SESSION] [--by day|model|project|agent] [--json]

Tokens (input, output, cache read, cache write) and cost from the price table (\`arbor prices\`). Every cost
says how it is known: priced (with the prices' date), reported by the agent, tokens of an unknown model, or
tokens on a subscription plan. A reply Claude Code wrote over several lines is counted once, and a fork's
copied lines count in the session they were copied from.

SESSION is a session id or a unique prefix of one: only its figures are printed.

Options:
  --by KEY    Group by day (default), model, project or agent
  --json      Print {"by","filters","total":{…},"rows":[{key,…}],"topSessions":[…]}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, by: { type: 'string' } }, { min: 0, max: 1 });
    const by = (values.by ?? 'day') as StatsGrouping;
    if (!STATS_GROUPINGS.includes(by) || by === 'session') throw new UsageError('--by takes day, model, project or agent');
    const service = await context.service();
    const sessionId = positionals[0] === undefined ? undefined : await sessionIdOf(service.api, positionals[0], context.signal);
    const request = { by, ...(sessionId === undefined ? {} : { filters: { sessionId } }) };
    let stats = await service.api['stats.get'](request, { signal: context.signal });
    if (stats.counting) {
      // A store from before tokens were counted (right after an upgrade): finish counting rather than answer partially.
      if (context.io.interactive) context.io.stderr('Counting tokens in stored sessions…\n');
      await service.idle();
      stats = await service.api['stats.get'](request, { signal: context.signal });
    }
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(stats)}\n`);
      return 0;
    }
    const lines = [`Total: ${describeFigure(stats.total)}`, ''];
    if (stats.rows.length === 0) lines.push('No tokens recorded.');
    else lines.push(table([by, 'input', 'output', 'cache read', 'cache write', 'cost', 'how known'], stats.rows.map((row) => [oneLine(row.key, 60), ...cells(row)]), [1, 2, 3, 4, 5]).trimEnd());
    if (sessionId === undefined && stats.topSessions.length > 0) {
      lines.push('', 'Top sessions:');
      for (const top of stats.topSessions) lines.push(`  ${top.sessionId.slice(0, 8)}  ${oneLine(top.title, 50)}  ${describeCost(top.figure)}`);
    }
    context.io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};

function cells(figure: UsageFigure): string[] {
  const { tokens } = figure;
  return [formatTokens(tokens.input), formatTokens(tokens.output), formatTokens(tokens.cacheRead), formatTokens(tokens.cacheWrite), figure.usd === null ? '—' : formatUsd(figure.usd), howKnown(figure)];
}

function howKnown(figure: UsageFigure): string {
  return figure.bases.map((basis) => (basis === 'priced' && figure.priceDate !== null ? `priced ${figure.priceDate}` : basis.replace('-', ' '))).join(', ');
}

function describeFigure(figure: UsageFigure): string {
  return `${formatTokens(tokenTotal(figure.tokens))} tokens in ${plural(figure.replies, 'reply', 'replies')}; ${describeCost(figure)}`;
}

/** The session `idOrPrefix` names: a full id or a unique prefix. */
async function sessionIdOf(api: ArborApi, idOrPrefix: string, signal: AbortSignal): Promise<string> {
  const matches = (await listAllSessions(api, signal)).filter((session) => session.id === idOrPrefix || session.id.startsWith(idOrPrefix));
  const exact = matches.find((session) => session.id === idOrPrefix);
  if (exact !== undefined) return exact.id;
  if (matches.length === 0) throw new ArborError('NOT_FOUND', `no session matches "${idOrPrefix}"`);
  if (matches.length > 1) throw new ArborError('BAD_REQUEST', `"${idOrPrefix}" matches ${matches.length} sessions; type more of the id`);
  return matches[0]!.id;
}
