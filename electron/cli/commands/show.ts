import type { NodeKind, SessionGraph } from '../../../shared/model';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { formatDate, oneLine, plural } from '../format';
import { loadSessionGraph } from '../sessions';
import { linkPhrases } from '../session-links';

export const showCommand: CliCommand = {
  name: 'show',
  summary: 'Show one session: its summary, or every node with --json',
  usage: `Usage: arbor show SESSION [--json]

SESSION is a session id or a unique prefix of one (see \`arbor ls\`).

Options:
  --json      Print {"session":{…},"nodes":[…]}: the session summary (its links also in words,
              "lineage": […]) and all its nodes in transcript order
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const graph = await loadSessionGraph(service.api, positionals[0] as string, context.signal);
    if (values.json === true) {
      const { session } = graph;
      const described = session.links === undefined ? session : { ...session, lineage: linkPhrases(session.links, stepLabels(graph)) };
      context.io.stdout(`${JSON.stringify({ session: described, nodes: graph.nodes })}\n`);
      return 0;
    }
    context.io.stdout(describeSession(graph));
    return 0;
  },
};

function describeSession({ session, nodes }: SessionGraph): string {
  const kinds = new Map<NodeKind, number>();
  let calls = 0;
  let failed = 0;
  let missing = 0;
  for (const node of nodes) {
    kinds.set(node.kind, (kinds.get(node.kind) ?? 0) + 1);
    for (const call of node.toolCalls) {
      calls++;
      if (call.outcome === 'error') failed++;
      if (call.outcome === 'missing') missing++;
    }
  }
  const kindList = [...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`).join(', ');
  const rows: [string, string][] = [
    ['Title', oneLine(session.title, 120)],
    ['Session', session.id],
    ['Source', session.source],
    ['Project', session.project ?? '-'],
    ['Started', formatDate(session.startedAt)],
    ['Updated', formatDate(session.updatedAt)],
    ['Nodes', `${session.nodeCount}${kindList === '' ? '' : ` (${kindList})`}`],
    ['Files', String(session.fileCount)],
    ['Branches', String(session.branchCount)],
    ['Tool calls', `${calls}${calls > 0 ? ` (${failed} failed, ${plural(missing, 'without result', 'without result')})` : ''}`],
    ...linkPhrases(session.links, stepLabels({ session, nodes })).map((phrase): [string, string] => ['Lineage', phrase]),
  ];
  return rows.map(([key, value]) => `${`${key}:`.padEnd(12)}${value}`).join('\n') + '\n';
}

/** A fork point's label: the fork's graph holds the parent's path to it, the parent's graph the point itself. */
function stepLabels({ nodes }: SessionGraph): (nodeId: string) => string | null {
  const labels = new Map(nodes.map((node) => [node.id, node.label]));
  return (nodeId) => labels.get(nodeId) ?? null;
}
