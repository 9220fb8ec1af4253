/**
 * A lean entry for `arbor merge-file`: git and editors call it like `git merge-file`, often once per
 * conflicted file, so it loads only the merge engine (a ~30 kB bundle) instead of the whole CLI (~1 MB:
 * the store, git objects, the importers). bin/arbor.cjs picks it when the first argument is `merge-file`.
 */
import { mergeFileCommand } from './commands/merge-file';
import { processIO } from './process-io';

export async function main(argv: readonly string[]): Promise<number> {
  return mergeFileCommand.run(argv.slice(1), {
    io: processIO(),
    service: () => Promise.reject(new Error('merge-file does not use the store')),
    signal: new AbortController().signal,
  });
}
