import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { oneLine } from '../format';
import { loadSessionGraph } from '../sessions';
import { renderSessionTree } from '../session-tree';

export const treeCommand: CliCommand = {
  name: 'tree',
  summary: 'Print a session as a text tree of its steps',
  usage: `Usage: arbor tree SESSION [--ids]

Prints every node of the session as a tree: [kind] label, tool calls with their outcome
(✓ ok, ✗ error, ? no result recorded). Only a real branch point opens ├─ / └─ branches: a rewind
or edited prompt, a retried answer, a fork or merge made with Arbor. What Claude Code records beside
a step stays in the line, which keeps its indentation: hook and progress lines (marked ·), parallel
tool results, compaction roots. A subagent run hangs off its call as a ├─ twig.

Options:
  --ids       Start each line with the node's short id
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { ids: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const graph = await loadSessionGraph(service.api, positionals[0] as string, context.signal);
    const lines = renderSessionTree(graph, { ids: values.ids === true });
    // One write per chunk keeps huge trees fast without building one giant string.
    context.io.stdout(`${oneLine(graph.session.title, 100)}  (${graph.session.id})\n`);
    for (let i = 0; i < lines.length; i += 1000) context.io.stdout(`${lines.slice(i, i + 1000).join('\n')}\n`);
    return 0;
  },
};
