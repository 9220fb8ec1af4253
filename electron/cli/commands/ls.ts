import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { formatDate, oneLine, table, uniquePrefixLength } from '../format';
import { listAllSessions } from '../sessions';
import { linkPhrases } from '../session-links';

export const lsCommand: CliCommand = {
  name: 'ls',
  summary: 'List imported sessions, newest first',
  usage: `Usage: arbor ls [--json]

Lists the sessions in Arbor's store: short id, last activity (UTC), node count and title, and under a
session its links ("forked from <title> (<id>) at <step>", "continued in …", "continues …", "follows …").
A session whose transcript files are gone from disk says "source deleted" under its row: Arbor's store still
holds every line it imported ("sourceDeleted": true in --json).
Any unique prefix of an id works wherever a SESSION is asked for.

Options:
  --json      Print {"sessions":[…],"total":N} with every session's full summary (its links also in
              words, "lineage": […])
  -h, --help  Show this help`,
  async run(args, context) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: 0 });
    const service = await context.service();
    const sessions = await listAllSessions(service.api, context.signal);
    if (values.json === true) {
      const described = sessions.map((s) => (s.links === undefined ? s : { ...s, lineage: linkPhrases(s.links) }));
      context.io.stdout(`${JSON.stringify({ sessions: described, total: sessions.length })}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      context.io.stdout('No sessions yet. Import some with `arbor import`, or try `arbor demo`.\n');
      return 0;
    }
    const idLength = uniquePrefixLength(sessions.map((s) => s.id));
    const rows = sessions.map((s) => [s.id.slice(0, idLength), formatDate(s.updatedAt ?? s.startedAt), String(s.nodeCount), oneLine(s.title, 80)]);
    const [header, ...lines] = table(['ID', 'DATE', 'NODES', 'TITLE'], rows, [2]).trimEnd().split('\n');
    // A session's links go under its row, indented to its title.
    const indent = ' '.repeat((header ?? '').indexOf('TITLE'));
    const notes = (i: number): string[] => [
      ...(sessions[i]!.sourceDeleted === true ? ['source deleted (the store keeps every line)'] : []),
      ...linkPhrases(sessions[i]!.links).map((phrase) => `↳ ${phrase}`),
    ];
    const out = [header, ...lines.flatMap((line, i) => [line, ...notes(i).map((note) => `${indent}${note}`)])];
    context.io.stdout(`${out.join('\n')}\n`);
    return 0;
  },
};
