import { resolve } from 'node:path';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { plural } from '../format';

export const snapshotCommand: CliCommand = {
  name: 'snapshot',
  summary: 'Capture a folder exactly, as a node of its workspace\u2019s session',
  usage: `Usage: arbor snapshot DIR [--json]

Stores every file of DIR (honouring .gitignore, like \`git add -A\`) in Arbor's snapshot store and
records the capture as a node of the session that ran in DIR (or an Arbor-owned one for the folder).
Unchanged files are not stored again.

Options:
  --json      Print {"node":{…},"snapshot":{id,dir,tree,commit,files,objectsWritten,…},"files":N}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const dir = resolve(context.io.cwd, positionals[0] as string);
    const service = await context.service();
    const captured = await service.api['snapshots.capture']({ dir }, { signal: context.signal });
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(captured)}\n`);
      return 0;
    }
    const { snapshot, node } = captured;
    const skipped = snapshot.skipped.length > 0 ? `, ${plural(snapshot.skipped.length, 'file')} skipped` : '';
    context.io.stdout(
      `Snapshot of ${snapshot.dir}: ${plural(snapshot.files, 'file')}${skipped}, ${plural(snapshot.objectsWritten, 'new object')}\n` +
        `Node:    ${node.id}\nSession: ${node.sessionId}\nTree:    ${snapshot.tree}\n`,
    );
    return 0;
  },
};
