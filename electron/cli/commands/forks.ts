import type { ForkSummary } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { formatDate, plural, table } from '../format';

export const forksCommand: CliCommand = {
  name: 'forks',
  summary: 'List the forks made with Arbor, or remove some',
  usage: `Usage: arbor forks [--json]
       arbor forks remove FORK... [--json]

Lists every fork with its folder, its size on disk (folder and resumable transcript; "gone" when the
folder no longer exists) and the command that resumes it. \`remove\` deletes each fork's folder (when Arbor
created it), its resumable transcript and its branch node, in one action per fork.

Options:
  --json      Print {"forks":[{fork,nodeId,sessionId,branch,dir,resume,transcript,createdAt,bytes}]}
              (remove: {"removed":[…],"problems":[{fork,message}]})
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: 1001 });
    const service = await context.service();
    if (positionals.length === 0) {
      const listed = await service.api['forks.list']({}, { signal: context.signal });
      context.io.stdout(values.json === true ? `${JSON.stringify(listed)}\n` : describeForks(listed.forks));
      return 0;
    }
    if (positionals[0] !== 'remove') throw new UsageError(`unknown forks command ${positionals[0]}`);
    const forkIds = positionals.slice(1);
    if (forkIds.length === 0) throw new UsageError('forks remove needs at least one fork id');
    const result = await service.api['forks.remove']({ forkIds: [...forkIds] }, { signal: context.signal });
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(result)}\n`);
    } else {
      if (result.removed.length > 0) context.io.stdout(`Removed ${plural(result.removed.length, 'fork')}: ${result.removed.join(' ')}\n`);
      for (const problem of result.problems) context.io.stderr(`arbor: fork ${problem.fork}: ${problem.message}\n`);
    }
    // A fork that could not be removed is a failure; notes about removed ones are not.
    return forkIds.every((id) => result.removed.includes(id)) ? 0 : 1;
  },
};

function describeForks(forks: readonly ForkSummary[]): string {
  if (forks.length === 0) return 'No forks.\n';
  const rows = forks.map((fork) => [fork.fork, formatDate(fork.createdAt), fork.bytes === null ? 'gone' : formatBytes(fork.bytes), fork.dir, fork.resume ?? '-']);
  return table(['FORK', 'CREATED', 'SIZE', 'FOLDER', 'RESUME'], rows, [2]);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
