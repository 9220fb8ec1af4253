import type { FileDiffEntry } from '../../../shared/model';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { plural } from '../format';
import { statusLetter } from './files';

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'List the files that differ between two nodes\u2019 workspace states',
  usage: `Usage: arbor diff NODE_A NODE_B [--json]

Compares the workspace state at NODE_A with the state at NODE_B (full node ids or snapshot nodes).
Against a reconstructed state only the files its session touched are compared.

Options:
  --json      Print {"nodeIdA","nodeIdB","files":[{path,status,before,after,binary?,unknown?}]}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 2, max: 2 });
    const service = await context.service();
    const diff = await service.api['nodes.diff']({ nodeIdA: positionals[0] as string, nodeIdB: positionals[1] as string }, { signal: context.signal });
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(diff)}\n`);
      return 0;
    }
    const lines = diff.files.map(describeEntry);
    context.io.stdout(`${[...lines, `${plural(diff.files.length, 'file')} differ`].join('\n')}\n`);
    return 0;
  },
};

function describeEntry(entry: FileDiffEntry): string {
  const note = entry.unknown === true ? ' (content unknown on one side)' : entry.binary === true ? ' (binary)' : lineCounts(entry);
  return `${statusLetter(entry.status)} ${entry.path}${note}`;
}

/** A rough size of the change: lines only in before / only in after (multiset, not a real diff). */
function lineCounts(entry: FileDiffEntry): string {
  const before = entry.before === null ? [] : entry.before.split('\n');
  const after = entry.after === null ? [] : entry.after.split('\n');
  const remaining = new Map<string, number>();
  for (const line of before) remaining.set(line, (remaining.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of after) {
    const count = remaining.get(line) ?? 0;
    if (count > 0) remaining.set(line, count - 1);
    else added++;
  }
  let removed = 0;
  for (const count of remaining.values()) removed += count;
  return ` (+${added} -${removed})`;
}
