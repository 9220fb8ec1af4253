import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseCommandArgs } from '../args';
import { handOverCapture } from '../../hooks/hook-client';
import { runHookSnapshot } from '../../hooks/hook-snapshot';
import { hookSocketPath } from '../../hooks/hook-socket';
import { type CliCommand, UsageError } from '../command';
import { plural } from '../format';

export const snapshotCommand: CliCommand = {
  name: 'snapshot',
  summary: 'Capture a folder exactly, as a node of its workspace\u2019s session',
  usage: `Usage: arbor snapshot DIR [--json]
       arbor snapshot --hook

Stores every file of DIR (honouring .gitignore, like \`git add -A\`) in Arbor's snapshot store and
records the capture as a node of the session that ran in DIR (or an Arbor-owned one for the folder).
Unchanged files are not stored again.

With --hook, reads a Claude Code PostToolUse hook's JSON on stdin and captures its cwd, linked to the
tool call (\`arbor hook install\` sets this up). When the app, \`arbor serve\` or \`arbor watch\` is running
on the same data folder, the capture is handed to it (faster: its caches are warm). It prints nothing and
always exits 0; problems go to hook.log in Arbor's data folder.

Options:
  --json      Print {"node":{…},"snapshot":{id,dir,tree,commit,files,objectsWritten,…},"files":N}
  --hook      Run as Claude Code's PostToolUse hook
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, hook: { type: 'boolean' } }, { min: 0, max: 1 });
    if (values.hook === true) {
      if (positionals.length > 0 || values.json === true) throw new UsageError('--hook takes no folder and no --json');
      // runCli always resolves the data folder; the temp folder only keeps a bare context from failing.
      const dataDir = context.dataDir ?? tmpdir();
      await runHookSnapshot({
        stdin: context.io.stdin,
        dataDir,
        signal: context.signal,
        api: async () => (await context.service()).api,
        handOver: (request, signal) => handOverCapture(hookSocketPath(dataDir), request, signal),
      });
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('missing argument');
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
