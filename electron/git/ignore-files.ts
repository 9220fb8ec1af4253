/**
 * Reading the files ignore rules come from (the rules themselves are ignore-rules.ts): the repository's
 * `.git/info/exclude` and the user's global excludes file (`core.excludesFile`, by default
 * `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`), found as git finds them.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseIgnoreFile, type IgnoreLevel } from './ignore-rules';
import { expandPath, lastValue, readGitConfig, xdgConfigPath, type GitEnvironment } from './git-config';

export type { GitEnvironment } from './git-config';

export function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The repository's common git dir: `<root>/.git`, or where a `.git` file (worktree, submodule) points and
 * its `commondir`. Undefined when a `.git` file names no git dir.
 */
export function commonGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  const pointer = readOptional(dotGit);
  if (!pointer) return dotGit;
  const match = /^gitdir: (.+)$/m.exec(pointer.toString('utf8'));
  if (!match) return undefined;
  // A worktree's `.git` file names an absolute path, a submodule's a relative one.
  const gitdir = resolve(root, match[1]!.trim());
  const common = readOptional(join(gitdir, 'commondir'));
  return common ? resolve(gitdir, common.toString('utf8').trim()) : gitdir;
}

/** `.git/info/exclude`, following a `.git` file (worktree, submodule) to the common git dir. */
export function readInfoExclude(root: string): Buffer | undefined {
  const gitdir = commonGitDir(root);
  return gitdir === undefined ? undefined : readOptional(join(gitdir, 'info', 'exclude'));
}

/**
 * Where git reads the global excludes file for the repository at `root`: the last `core.excludesFile` of its
 * config (`~/` expanded; a relative path is relative to the worktree, where git runs), else
 * `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`. Undefined when there is none (an empty value, no home).
 */
export function globalExcludesPath(root: string, git: GitEnvironment): string | undefined {
  const configured = lastValue(readGitConfig(git, commonGitDir(root)), 'core.excludesfile');
  if (configured === undefined) return xdgConfigPath('ignore', git);
  const expanded = expandPath(configured, git.home);
  if (expanded === undefined || expanded === '') return undefined;
  return isAbsolute(expanded) ? expanded : join(root, expanded);
}

/** The global excludes file's bytes (it ranks below info/exclude and every .gitignore), if git would read one. */
export function readGlobalExcludes(root: string, git: GitEnvironment | undefined): Buffer | undefined {
  if (git === undefined) return undefined;
  const path = globalExcludesPath(root, git);
  return path === undefined ? undefined : readOptional(path);
}

/**
 * The ignore levels below every .gitignore, as git ranks them: `.git/info/exclude`, then the global excludes
 * file. Each is read once per capture.
 */
export function repositoryLevels(root: string, git: GitEnvironment | undefined): IgnoreLevel[] {
  const levels: IgnoreLevel[] = [];
  for (const content of [readInfoExclude(root), readGlobalExcludes(root, git)]) {
    if (content) levels.push({ base: '', patterns: parseIgnoreFile(content) });
  }
  return levels;
}
