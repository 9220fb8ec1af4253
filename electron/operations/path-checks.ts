/**
 * Checks every path of a plan before the first write (DESIGN.md "Rules that protect the user's files"):
 * no `..`, absolute paths, `.git` or symlinked parents (checkWorkspacePath), no ignored files, each path
 * once, and no file the plan keeps standing where another planned file needs a folder.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArborError } from '../../shared/errors';
import { isRefusedGitPath, type PathNameOptions } from '../git/git-path-names';
import { isIgnored, parseIgnoreFile, type IgnoreLevel } from '../git/ignore-rules';
import { repositoryLevels, type GitEnvironment } from '../git/ignore-files';
import { checkWorkspacePath } from '../git/materialize';
import type { PlannedFileChange } from './operation-types';

/** A folder's .gitignore, when it is a regular file (git does not follow a symlinked one; neither does capture). */
function readGitignore(path: string): Buffer | undefined {
  try {
    return lstatSync(path).isFile() ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Answers "would capture skip this path?" with the rules capture uses: a path is ignored when it or any
 * folder above it is (git never looks inside an ignored folder, so a negation below cannot bring it back).
 */
export function createIgnoreCheck(root: string, git?: GitEnvironment): (path: string) => boolean {
  const repository = repositoryLevels(root, git);
  const levelsByFolder = new Map<string, readonly IgnoreLevel[]>();
  /** The levels that apply inside `folder`: its own .gitignore first, then its parents', then info/exclude and the global file. */
  const levelsIn = (folder: string): readonly IgnoreLevel[] => {
    const known = levelsByFolder.get(folder);
    if (known) return known;
    const slash = folder.lastIndexOf('/');
    const parent: readonly IgnoreLevel[] = folder === '' ? repository : levelsIn(slash < 0 ? '' : folder.slice(0, slash));
    const own = readGitignore(join(root, folder, '.gitignore'));
    const levels = own ? [{ base: folder, patterns: parseIgnoreFile(own) }, ...parent] : parent;
    levelsByFolder.set(folder, levels);
    return levels;
  };

  return (path) => {
    const parts = path.split('/');
    let folder = '';
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      const at = folder === '' ? name : `${folder}/${name}`;
      const levels = levelsIn(folder);
      const last = i === parts.length - 1;
      if (levels.length > 0 && isIgnored(levels, at, name, !last)) return true;
      folder = at;
    }
    return false;
  };
}

/** The shallowest folder above `path` that is a file or symlink now and that the plan deletes, if any. */
function replacedFolderAbove(root: string, path: string, byPath: ReadonlyMap<string, PlannedFileChange>): string | undefined {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    const change = byPath.get(folder);
    if (change?.target !== null || change.expected === null) continue;
    try {
      if (lstatSync(join(root, folder)).isDirectory()) continue;
    } catch {
      // missing: the expected-version check stops the operation before any write
    }
    return folder;
  }
  return undefined;
}

/** The name rules of checkWorkspacePath (every name git refuses, on any platform), for a path whose parents do not exist yet. */
export function checkPathNames(path: string, options: PathNameOptions = {}): void {
  if (isRefusedGitPath(path, options)) throw new ArborError('BAD_REQUEST', `Unsafe workspace path: ${JSON.stringify(path)}`, { path });
}

function refuse(message: string, path: string): never {
  throw new ArborError('BAD_REQUEST', message, { path });
}

/**
 * Throws BAD_REQUEST (with the path) for the first path the plan must not write. Writes nothing. `workspace` is
 * absolute; `git` says where the user's global excludes file is (without it, only the repository's rules apply).
 */
export function checkPlanPaths(workspace: string, changes: readonly PlannedFileChange[], git?: GitEnvironment): void {
  const ignored = createIgnoreCheck(workspace, git);
  const byPath = new Map<string, PlannedFileChange>();
  for (const change of changes) {
    if (byPath.has(change.path)) refuse(`The plan sets ${change.path} twice`, change.path);
    byPath.set(change.path, change);
  }
  // Folders already seen not to be symlinks: the planned files share most of theirs.
  const safeFolders = new Set<string>();
  for (const change of changes) {
    const replaced = replacedFolderAbove(workspace, change.path, byPath);
    const symlink = { symlink: change.target?.mode === '120000' };
    if (replaced === undefined) {
      checkWorkspacePath(workspace, change.path, safeFolders, symlink);
    } else {
      // A symlink or file the plan deletes first becomes a real folder: nothing is written through it.
      checkWorkspacePath(workspace, replaced, safeFolders);
      checkPathNames(change.path, symlink);
    }
    if (ignored(change.path)) refuse(`${change.path} is ignored (.gitignore, info/exclude or the global excludes file): operations never write ignored files`, change.path);
  }
  // A file the plan writes needs every folder above it; one of those may be a file only if the plan removes it.
  const folders = new Set<string>();
  for (const change of changes) {
    if (change.target === null) continue;
    const parts = change.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      const other = byPath.get(folder);
      if (other?.target) refuse(`The plan writes both ${folder} and ${change.path}`, change.path);
      if (other || folders.has(folder)) continue;
      let info;
      try {
        info = lstatSync(join(workspace, folder));
      } catch {
        break; // missing: the write creates it (and everything below)
      }
      if (!info.isDirectory()) refuse(`${folder} is a file where ${change.path} needs a folder`, change.path);
      folders.add(folder);
    }
  }
}
