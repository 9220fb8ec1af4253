/** Reading the files ignore rules come from (the rules themselves are ignore-rules.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** `.git/info/exclude`, following a `.git` file (worktree, submodule) to the common git dir. */
export function readInfoExclude(root: string): Buffer | undefined {
  const dotGit = join(root, '.git');
  let gitdir = dotGit;
  const pointer = readOptional(dotGit);
  if (pointer) {
    const match = /^gitdir: (.+)$/m.exec(pointer.toString('utf8'));
    if (!match) return undefined;
    gitdir = join(root, match[1]!.trim());
    const common = readOptional(join(gitdir, 'commondir'));
    if (common) gitdir = join(gitdir, common.toString('utf8').trim());
  }
  return readOptional(join(gitdir, 'info', 'exclude'));
}
