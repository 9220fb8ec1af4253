/**
 * Reading a commit of the user's own repository (never Arbor's snapshot store) that a transcript names as an
 * exact state of the workspace: Codex's `ghost_snapshot` (a commit no branch references, written from a
 * temporary index of the working tree before a turn's tools run). Read-only; objects loose or packed.
 */
import * as fs from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import git from 'isomorphic-git';
import { throwIfAborted } from '../../shared/errors';
import { findGitDir } from './git-config';
import { isOid } from './git-object';

/** What a ghost commit says of the given files; the reasons it says nothing are results, not errors. */
export type GhostCommitFiles =
  /** Absolute path → its text at the commit; a path not in the commit's tree (or binary, or outside the repository) is absent. */
  | { readonly kind: 'read'; readonly root: string; readonly files: ReadonlyMap<string, string> }
  | { readonly kind: 'no-repository'; readonly folder: string }
  | { readonly kind: 'no-commit'; readonly root: string; readonly commit: string }
  /** The repository is there but reading the commit failed (a corrupt or unreadable object, a permission). */
  | { readonly kind: 'unreadable'; readonly root: string; readonly commit: string; readonly detail: string };

/** The folder holding `.git` (a folder, or a worktree's `.git` file) at or above `folder`. */
function workTreeRoot(folder: string): string | undefined {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (fs.existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

const isNotFound = (error: unknown): boolean => error instanceof Error && (error as { code?: string }).code === 'NotFoundError';

/**
 * The text of each of `paths` (absolute) in `commit` of the repository `folder` is in. Only what the commit
 * holds is said: a file it lacks may be one the snapshot left out (ignored, or too large), so it is not called
 * absent.
 */
export async function readGhostCommitFiles(folder: string, commit: string, paths: readonly string[], signal?: AbortSignal): Promise<GhostCommitFiles> {
  const root = isAbsolute(folder) ? workTreeRoot(folder) : undefined;
  // An empty environment: the folder's own repository, whatever GIT_DIR the app was started with.
  const gitdir = root === undefined ? undefined : findGitDir(root, {});
  if (root === undefined || gitdir === undefined) return { kind: 'no-repository', folder };
  if (!isOid(commit)) return { kind: 'no-commit', root, commit };
  try {
    await git.readCommit({ fs, gitdir, oid: commit });
  } catch (error) {
    if (isNotFound(error)) return { kind: 'no-commit', root, commit };
    return { kind: 'unreadable', root, commit, detail: error instanceof Error ? error.message : String(error) };
  }
  const files = new Map<string, string>();
  for (const path of paths) {
    throwIfAborted(signal);
    const inside = relative(root, path);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    try {
      const { blob } = await git.readBlob({ fs, gitdir, oid: commit, filepath: inside.split(sep).join('/') });
      const bytes = Buffer.from(blob);
      // Like git: a NUL in the first 8000 bytes is a binary file, which no replay compares as text.
      if (bytes.subarray(0, 8000).includes(0)) continue;
      files.set(path, bytes.toString('utf8'));
    } catch (error) {
      if (!isNotFound(error) && !(error instanceof Error && (error as { code?: string }).code === 'ObjectTypeError')) throw error;
    }
  }
  return { kind: 'read', root, files };
}
