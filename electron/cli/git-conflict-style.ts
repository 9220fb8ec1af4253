/**
 * merge.conflictStyle exactly as git reads it, for `arbor merge-file` inside a repository: asked of git
 * itself when git is on the PATH, so `git -c` (GIT_CONFIG_PARAMETERS, what `git -c … mergetool` hands its
 * children), `[include]`, `[includeIf "gitdir:…"]`, GIT_CONFIG_GLOBAL/SYSTEM/NOSYSTEM and whatever a later
 * git adds all count; without git, electron/git/git-config.ts reads the files (no includeIf, no `-c`).
 */
import { spawnSync } from 'node:child_process';
import type { MergeStyle } from '../../shared/merge/types';
import { configuredConflictStyle } from '../git/git-config';

export type ConflictStyleAnswer = { readonly style: MergeStyle } | { readonly fatal: string };

/** git's answer, or undefined when git cannot be run (not on the PATH of `env`). */
export function conflictStyleFromGit(cwd: string, env: Readonly<Record<string, string | undefined>>): ConflictStyleAnswer | undefined {
  // --get-regexp -z tells a key written without a value ("key\0": git's "not a boolean") from an empty one
  // ("key\n\0"), which --get-all does not; values come in git's order, last wins.
  const result = spawnSync('git', ['config', '-z', '--get-regexp', '^merge\\.conflictstyle$'], {
    cwd,
    env: { ...env },
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.error !== undefined || result.status === null) return undefined;
  // 1: the key is not set anywhere.
  if (result.status === 1) return { style: 'merge' };
  if (result.status !== 0) {
    // A config git cannot read stops git merge-file too (exit 128); say what git said.
    const said = result.stderr.split('\n').find((line) => line.trim() !== '') ?? 'cannot read the git config';
    return { fatal: said.replace(/^(fatal|error): /, '') };
  }
  let style: MergeStyle = 'merge';
  for (const entry of result.stdout.split('\0')) {
    if (entry === '') continue;
    const newline = entry.indexOf('\n');
    if (newline === -1) return { fatal: "'merge.conflictstyle' is not a boolean" };
    const value = entry.slice(newline + 1);
    if (value !== 'merge' && value !== 'diff3' && value !== 'zdiff3') return { fatal: `unknown style '${value}' given for 'merge.conflictstyle'` };
    style = value;
  }
  return { style };
}

/** What git merge-file starts from inside the repository at `gitDir`: git's answer, else the file reader's. */
export function repositoryConflictStyle(cwd: string, env: Readonly<Record<string, string | undefined>>, gitDir: string): ConflictStyleAnswer {
  return conflictStyleFromGit(cwd, env) ?? configuredConflictStyle({ home: env.HOME, env }, gitDir);
}
