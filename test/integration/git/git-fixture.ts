/** Temp folders and a sandboxed `git` for the snapshot store's tests (never the user's config or repos). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const gitAvailable = spawnSync('git', ['--version']).status === 0;
export const NO_GIT = 'git is not installed: the cross-checks against native git are skipped';

export function tempDir(prefix: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `arbor-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs git with no global/system config; throws with stderr on failure. */
export function git(cwd: string, args: readonly string[], input?: string): string {
  const result = spawnSync('git', ['-c', 'gc.auto=0', '-c', 'core.autocrlf=false', '-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: cwd, LC_ALL: 'C' },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** Like git() but returns the exit status instead of throwing (check-ignore exits 1 for "not ignored"). */
export function gitStatus(cwd: string, args: readonly string[]): { status: number; stdout: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: cwd } });
  return { status: result.status ?? -1, stdout: result.stdout };
}
