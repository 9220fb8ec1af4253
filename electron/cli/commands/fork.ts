import { resolve } from 'node:path';
import type { ForkCreated } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand, type CliContext } from '../command';
import { plural } from '../format';

export const forkCommand: CliCommand = {
  name: 'fork',
  summary: 'Start a new branch from a node: a new folder at its state and a resumable transcript',
  usage: `Usage: arbor fork NODE [--to DIR] [--temporary TTL] [--json]

Writes NODE's workspace state into a new folder (DIR, which must not exist or be empty; by default a new
folder under the data folder's forks/): an exact snapshot's whole tree, or a copy of the session's workspace
(ignored files left out) with the files the session touched set to their content at NODE. The folder is
recorded as a new branch below NODE. It also writes a copy of the conversation up to NODE under a new
session id, so the agent continues from there in DIR: for Claude Code \`claude --resume <id>\`, for Codex a new
rollout under $CODEX_HOME/sessions that \`codex resume <id>\` continues (the command is printed).
Nothing is written into the session's own workspace.

Options:
  --to DIR    Where to write the fork
  --temporary TTL  Mark the fork temporary: arbor gc removes it TTL after now (30m, 12h, 7d)
  --json      Print {"branch","dir","resume",…} (resume is null when no transcript could be written)
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { to: { type: 'string' }, temporary: { type: 'string' }, json: { type: 'boolean' } }, { min: 1, max: 1 });
    const temporaryMs = values.temporary === undefined ? undefined : timeToLive(values.temporary);
    const dir = values.to === undefined ? undefined : resolve(context.io.cwd, values.to);
    const service = await context.service();
    const stopProgress = context.io.interactive ? showProgress(context) : () => undefined;
    let created: ForkCreated;
    try {
      created = await service.api['fork.create']({ nodeId: positionals[0] as string, ...(dir === undefined ? {} : { dir }), ...(temporaryMs === undefined ? {} : { temporaryMs }) }, { signal: context.signal });
    } finally {
      stopProgress();
    }
    context.io.stdout(values.json === true ? `${JSON.stringify(created)}\n` : describeFork(created));
    return 0;
  },
};

function describeFork(created: ForkCreated): string {
  const lines = [`Forked into ${created.dir} (${plural(created.files, 'file')})`, `Branch:  ${created.branch}`, `Fork:    ${created.fork}`];
  if (created.resume !== null) lines.push(`Resume:  cd ${JSON.stringify(created.dir)} && ${created.resume}`);
  for (const warning of created.warnings ?? []) lines.push(`Note: ${warning}`);
  for (const skipped of created.skipped ?? []) lines.push(`  left as copied (${skipped.reason}): ${skipped.path}`);
  return `${lines.join('\n')}\n`;
}

/** One self-overwriting progress line on stderr while the folder is written. */
function showProgress(context: CliContext): () => void {
  let shown = false;
  let unsubscribe: (() => void) | undefined;
  void context.service().then((service) => {
    unsubscribe = service.events.on('operation.progress', ({ phase, done, total }) => {
      shown = true;
      context.io.stderr(`\r\x1b[KFork: ${phase} ${done}/${total}`);
    });
  });
  return () => {
    unsubscribe?.();
    if (shown) context.io.stderr('\r\x1b[K');
  };
}

/** `30m`, `12h`, `7d` → milliseconds. */
function timeToLive(text: string): number {
  const match = /^(\d+)([mhd])$/.exec(text);
  if (match === null || Number(match[1]) === 0) throw new UsageError(`--temporary takes a time to live such as 30m, 12h or 7d, not ${text}`);
  return Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
}
