/**
 * `arbor merge-file` inside a repository starts from merge.conflictStyle as git itself reads it (issue 12):
 * `git -c` (GIT_CONFIG_PARAMETERS, as git hands it to the commands it runs), `[include]`, `[includeIf
 * "gitdir:…"]`, GIT_CONFIG_GLOBAL and GIT_CONFIG_NOSYSTEM — each checked against real git merge-file in temp
 * repositories, byte for byte.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli';

const hasGit = spawnSync('git', ['--version']).status === 0;

let root: string;
let home: string;
let repo: string;
let otherRepo: string;

/** A clean environment: git on the PATH, a temp home, no system config unless a case asks. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...extra };
}

function writeSides(dir: string): string[] {
  const files = [join(dir, 'ours.txt'), join(dir, 'base.txt'), join(dir, 'theirs.txt')];
  writeFileSync(files[0]!, 'one\nours\nthree\n');
  writeFileSync(files[1]!, 'one\ntwo\nthree\n');
  writeFileSync(files[2]!, 'one\ntheirs\nthree\n');
  return files;
}

/** Real git merge-file's stdout and status in `cwd` with `env`. */
function gitMergeFile(cwd: string, env: Record<string, string>, files: string[]): { stdout: string; status: number | null } {
  const result = spawnSync('git', ['merge-file', '-p', ...files], { cwd, env, encoding: 'utf8' });
  return { stdout: result.stdout, status: result.status };
}

async function arborMergeFile(cwd: string, env: Record<string, string>, files: string[]): Promise<{ stdout: string; status: number }> {
  const run = await runCliCaptured(['merge-file', '-p', ...files], { cwd, homeDir: home, env });
  return { stdout: run.stdout, status: run.code };
}

async function expectSameAsGit(cwd: string, env: Record<string, string>, marker: RegExp | null): Promise<void> {
  const files = writeSides(cwd);
  const git = gitMergeFile(cwd, env, files);
  const arbor = await arborMergeFile(cwd, env, files);
  expect(arbor).toEqual(git);
  if (marker === null) expect(arbor.stdout).not.toMatch(/^\|\|\|\|\|\|\|/m);
  else expect(arbor.stdout).toMatch(marker);
}

const DIFF3 = /^\|\|\|\|\|\|\| .*base\.txt\ntwo\n=======/m;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-mergefile-config-'));
  home = join(root, 'home');
  mkdirSync(home);
  repo = join(root, 'repo');
  otherRepo = join(root, 'other');
  if (!hasGit) return;
  for (const dir of [repo, otherRepo]) execFileSync('git', ['init', '-q', dir], { env: baseEnv() });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!hasGit)('merge-file reads merge.conflictStyle as git does', () => {
  it('takes `git -c merge.conflictStyle=diff3` from GIT_CONFIG_PARAMETERS, as git hands it to the commands it runs', async () => {
    // What git really puts in a child's environment for `git -c`: an alias that prints it.
    const parameters = execFileSync('git', ['-c', 'merge.conflictStyle=diff3', '-c', 'alias.params=!printf %s "$GIT_CONFIG_PARAMETERS"', 'params'], {
      cwd: repo,
      env: baseEnv(),
      encoding: 'utf8',
    });
    expect(parameters).toContain('merge.conflictStyle');
    await expectSameAsGit(repo, baseEnv({ GIT_CONFIG_PARAMETERS: parameters }), DIFF3);
  });

  it('follows [include] path from the global config', async () => {
    const included = join(root, 'included.gitconfig');
    writeFileSync(included, '[merge]\n\tconflictStyle = diff3\n');
    const global = join(root, 'include.gitconfig');
    writeFileSync(global, `[include]\n\tpath = ${included}\n`);
    await expectSameAsGit(repo, baseEnv({ GIT_CONFIG_GLOBAL: global }), DIFF3);
  });

  it('follows [includeIf "gitdir:…"] only in the repository it names', async () => {
    const included = join(root, 'gitdir.gitconfig');
    writeFileSync(included, '[merge]\n\tconflictStyle = zdiff3\n');
    const global = join(root, 'includeif.gitconfig');
    writeFileSync(global, `[includeIf "gitdir:${repo}/"]\n\tpath = ${included}\n`);
    const env = baseEnv({ GIT_CONFIG_GLOBAL: global });
    await expectSameAsGit(repo, env, DIFF3);
    await expectSameAsGit(otherRepo, env, null);
  });

  it('reads GIT_CONFIG_GLOBAL instead of ~/.gitconfig, and no system config under GIT_CONFIG_NOSYSTEM', async () => {
    writeFileSync(join(home, '.gitconfig'), '[merge]\n\tconflictStyle = zdiff3\n');
    const global = join(root, 'global.gitconfig');
    writeFileSync(global, '[merge]\n\tconflictStyle = merge\n');
    await expectSameAsGit(repo, baseEnv({ GIT_CONFIG_GLOBAL: global }), null);
    const system = join(root, 'system.gitconfig');
    writeFileSync(system, '[merge]\n\tconflictStyle = diff3\n');
    const empty = join(root, 'empty.gitconfig');
    writeFileSync(empty, '');
    const withSystem = baseEnv({ GIT_CONFIG_GLOBAL: empty, GIT_CONFIG_SYSTEM: system });
    delete withSystem.GIT_CONFIG_NOSYSTEM;
    await expectSameAsGit(repo, withSystem, DIFF3);
    await expectSameAsGit(repo, baseEnv({ GIT_CONFIG_GLOBAL: empty, GIT_CONFIG_SYSTEM: system, GIT_CONFIG_NOSYSTEM: '1' }), null);
    rmSync(join(home, '.gitconfig'));
  });

  it('stops as git does on a style it does not know and on a key without a value (exit 128)', async () => {
    const files = writeSides(repo);
    for (const config of ['[merge]\n\tconflictStyle = bogus\n', '[merge]\n\tconflictStyle\n']) {
      const global = join(root, 'bad.gitconfig');
      writeFileSync(global, config);
      const env = baseEnv({ GIT_CONFIG_GLOBAL: global });
      const git = spawnSync('git', ['merge-file', '-p', ...files], { cwd: repo, env, encoding: 'utf8' });
      const arbor = await runCliCaptured(['merge-file', '-p', ...files], { cwd: repo, homeDir: home, env });
      expect(arbor.code).toBe(git.status);
      expect(arbor.stderr).toBe(git.stderr);
    }
  });

  it('outside a repository ignores merge.conflictStyle, as git merge-file does', async () => {
    const global = join(root, 'outside.gitconfig');
    writeFileSync(global, '[merge]\n\tconflictStyle = diff3\n');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    await expectSameAsGit(outside, baseEnv({ GIT_CONFIG_GLOBAL: global, GIT_CEILING_DIRECTORIES: root }), null);
  });
});
