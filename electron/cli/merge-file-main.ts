/**
 * A lean entry for `arbor merge-file`: git and editors call it like `git merge-file`, often once per
 * conflicted file, so it loads only the merge engine (a ~30 kB bundle) instead of the whole CLI (~1 MB:
 * the store, git objects, the importers). bin/arbor.cjs picks it when the first argument is `merge-file`.
 */
import { mergeFileCommand } from './commands/merge-file';
import type { CliIO } from './command';

export async function main(argv: readonly string[]): Promise<number> {
  const io: CliIO = {
    stdout: (output) => void process.stdout.write(output),
    stderr: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
    interactive: process.stderr.isTTY === true,
  };
  return mergeFileCommand.run(argv.slice(1), {
    io,
    service: () => Promise.reject(new Error('merge-file does not use the store')),
    signal: new AbortController().signal,
  });
}
