/**
 * The edges of `arbor merge-file` beside real `git merge-file`, running the built lean entry as a child
 * process the way git, editors and scripts start it (node bin/arbor.cjs merge-file …): usage errors,
 * help, missing files, bundled flags, abbreviated options, labels, marker sizes, and merge.conflictStyle
 * from git's config inside a repository. Each case runs on its own copy of the same three files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../cli/spawned-cli';
import { gitAvailable } from './git-merge-file';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin', 'arbor.cjs');
const hasGit = gitAvailable();
if (!hasGit) console.warn('merge-file-edges-vs-git: git is not installed, skipping the comparison with git merge-file');

let dir: string;
let bundleDir: string;
let caseNumber = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-merge-file-edges-'));
  mkdirSync(join(dir, 'home'));
  // The run's CLI bundle, with the lean merge-file entry bin/arbor.cjs runs for `arbor merge-file`.
  bundleDir = dirname(buildCliBundle().bundle);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** <file1> after the run (merge-file writes there without -p). */
  readonly ours: string;
}

const BASE = 'a\nb\nc\nd\ne\n';
const OURS = 'a\nB\nc\nd\ne\n';
const THEIRS = 'a\nX\nc\nd\nE\n';

/** Nothing from the machine's git config; the home is the test's own; never inside another repository. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('GIT_')) delete clean[name];
  return {
    ...clean,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: dir,
    ARBOR_CLI_BUNDLE: join(bundleDir, 'arbor.js'),
    ...extra,
  };
}

function run(command: string, args: readonly string[], cwd: string, environment: NodeJS.ProcessEnv): Promise<Omit<Run, 'ours'>> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: environment });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

function writeFiles(where: string): void {
  mkdirSync(where, { recursive: true });
  writeFileSync(join(where, 'ours'), OURS);
  writeFileSync(join(where, 'base'), BASE);
  writeFileSync(join(where, 'theirs'), THEIRS);
  mkdirSync(join(where, 'folder'), { recursive: true });
}

/** The same line through git and through arbor, each in a fresh copy of the files under `parent`. */
async function both(args: readonly string[], options: { parent?: string; env?: Record<string, string> } = {}): Promise<{ git: Run; arbor: Run }> {
  const n = caseNumber++;
  const parent = options.parent ?? dir;
  const gitDir = join(parent, `git-${n}`);
  const arborDir = join(parent, `arbor-${n}`);
  writeFiles(gitDir);
  writeFiles(arborDir);
  const [git, arbor] = await Promise.all([
    run('git', ['merge-file', ...args], gitDir, env(options.env)),
    run(process.execPath, [BIN, 'merge-file', ...args], arborDir, env(options.env)),
  ]);
  return {
    git: { ...git, ours: readFileSync(join(gitDir, 'ours'), 'utf8') },
    arbor: { ...arbor, ours: readFileSync(join(arborDir, 'ours'), 'utf8') },
  };
}

/**
 * `both` for each line, two lines at a time, results in the lines' order: a case is a node start-up beside a quick
 * git, so one case at a time left the second core idle.
 */
async function bothForEach(lines: readonly (readonly string[])[]): Promise<{ git: Run; arbor: Run }[]> {
  const results: { git: Run; arbor: Run }[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < lines.length) {
      const index = next++;
      results[index] = await both(lines[index] as readonly string[]);
    }
  };
  await Promise.all([lane(), lane()]);
  return results;
}

const firstLine = (text: string): string => text.split('\n')[0] ?? '';

/** Same status, output and file as git; on refusal, git's first line of stderr and nothing more. */
function expectSameAsGit({ git, arbor }: { git: Run; arbor: Run }, line: readonly string[]): void {
  const what = `merge-file ${line.join(' ')}`;
  expect(arbor.status, what).toBe(git.status);
  // For an ambiguous option git also prints its usage on stdout; arbor keeps stdout for results only.
  const gitUsageOnStdout = git.status === 129 && git.stdout.startsWith('usage: git merge-file');
  expect(arbor.stdout, what).toBe(gitUsageOnStdout ? '' : git.stdout);
  expect(arbor.ours, what).toBe(git.ours);
  const expected = git.stderr === '' ? '' : `${firstLine(git.stderr).replace('git merge-file', 'arbor merge-file')}\n`;
  expect(arbor.stderr, what).toBe(expected);
  expect(arbor.stderr, what).not.toMatch(/\n\s+at /);
}

describe.skipIf(!hasGit)('arbor merge-file edges vs git merge-file (the built lean entry)', () => {
  it('runs from the lean bundle', async () => {
    const trace = await run(process.execPath, [BIN, 'merge-file', '-h'], dir, env({ ARBOR_CLI_TRACE: '1' }));
    expect(trace.stderr).toContain('arbor: running merge-file.js');
  });

  it('refuses bad usage with one line on stderr and status 129, as git does, never a stack trace', async () => {
    const lines = [
      ['--frobnicate', 'ours', 'base', 'theirs'],
      ['-x', 'ours', 'base', 'theirs'],
      ['-px', 'ours', 'base', 'theirs'],
      ['ours', 'base'],
      ['ours', 'base', 'theirs', 'extra'],
      [],
      ['--'],
      ['-p', '--', 'ours', 'base'],
      ['--stdout=1', 'ours', 'base', 'theirs'],
      ['--diff3=x', 'ours', 'base', 'theirs'],
      ['--marker-size=x', 'ours', 'base', 'theirs'],
      ['--marker-size=', 'ours', 'base', 'theirs'],
      ['--marker', 'ours', 'base', 'theirs'],
      ['-L', 'a', '-L', 'b', '-L', 'c', '-L', 'd', 'ours', 'base', 'theirs'],
      ['ours', 'base', 'theirs', '-L'],
      ['--no-', 'ours', 'base', 'theirs'],
      ['--no', 'ours', 'base', 'theirs'],
      ['--no-L', 'ours', 'base', 'theirs'],
      ['--h', 'ours', 'base', 'theirs'],
      ['-q', 'ours', 'base'],
    ];
    const results = await bothForEach(lines);
    for (const [index, args] of lines.entries()) {
      const result = results[index]!;
      expect(result.git.status, args.join(' ')).toBe(129);
      expectSameAsGit(result, args);
      expect(result.arbor.stderr.split('\n'), args.join(' ')).toHaveLength(2);
    }
  }, 120_000);

  it('prints its usage on stdout for -h with status 129 like git, and for --help with status 0', async () => {
    for (const { git, arbor } of await bothForEach([['-h'], ['-ph'], ['ours', 'base', 'theirs', '-h']])) {
      expect(git.status).toBe(129);
      expect(arbor.status).toBe(129);
      expect(firstLine(arbor.stdout)).toBe(firstLine(git.stdout).replace('git merge-file', 'arbor merge-file'));
      expect(arbor.stderr).toBe('');
    }
    // git opens its manual page for --help; arbor's usage is its manual.
    const help = await run(process.execPath, [BIN, 'merge-file', '--help'], dir, env());
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: arbor merge-file .*\n[\s\S]*merge\.conflictStyle/);
  }, 60_000);

  it("gives git's message and status 255 for a file it cannot read, which no caller takes for a conflict count", async () => {
    const lines = [
      ['-p', 'missing', 'base', 'theirs'],
      ['-p', 'ours', 'base', 'missing'],
      ['ours', 'missing', 'theirs'],
      ['-p', 'folder', 'base', 'theirs'],
      ['-q', '-p', 'missing', 'base', 'theirs'],
    ];
    const results = await bothForEach(lines);
    for (const [index, args] of lines.entries()) {
      const result = results[index]!;
      expect(result.git.status).toBe(255);
      expectSameAsGit(result, args);
    }
  }, 60_000);

  it('merges like git with bundled flags, abbreviations, negations, labels and marker sizes', async () => {
    const lines = [
      ['-pq', 'ours', 'base', 'theirs'],
      ['-pqLmine', 'ours', 'base', 'theirs'],
      ['-pLx', '-Ly', '-Lz', 'ours', 'base', 'theirs'],
      ['-p', '-L', 'm', '-L', 'o', '-L', 't', '--diff3', 'ours', 'base', 'theirs'],
      ['-L', '-p', 'ours', 'base', 'theirs'],
      ['--stdo', 'ours', 'base', 'theirs'],
      ['--s', '--diff', 'ours', 'base', 'theirs'],
      ['-p', '--zdiff', 'ours', 'base', 'theirs'],
      ['-p', '--d', 'ours', 'base', 'theirs'],
      ['-p', '--zdiff3', '--diff3', 'ours', 'base', 'theirs'],
      ['-p', '--diff3', '--no-diff3', 'ours', 'base', 'theirs'],
      ['-p', '--zdiff3', '--no-zdiff3', 'ours', 'base', 'theirs'],
      ['-p', '--ours', 'ours', 'base', 'theirs'],
      ['-p', '--theirs', 'ours', 'base', 'theirs'],
      ['-p', '--union', 'ours', 'base', 'theirs'],
      ['-p', '--o', 'ours', 'base', 'theirs'],
      ['-p', '--t', 'ours', 'base', 'theirs'],
      ['-p', '--u', 'ours', 'base', 'theirs'],
      ['-p', '--ours', '--no-ours', 'ours', 'base', 'theirs'],
      ['-p', '--ours', '--theirs', 'ours', 'base', 'theirs'],
      ['-p', '--ours', '--no-o', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=3', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size', '12', 'ours', 'base', 'theirs'],
      ['-p', '--mark=4', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=+5', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=-1', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=0', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=4294967299', 'ours', 'base', 'theirs'],
      ['-p', '--marker-size=3', '--no-marker-size', 'ours', 'base', 'theirs'],
      ['-p', '--no-stdo', 'ours', 'base', 'theirs'],
      ['--no-stdout', 'ours', 'base', 'theirs'],
      ['-q', '--no-quiet', 'ours', 'base', 'theirs'],
      ['ours', 'base', 'theirs'],
      ['ours', '-p', 'base', '--', 'theirs'],
      ['-p', '--', 'ours', 'base', 'theirs'],
    ];
    const results = await bothForEach(lines);
    for (const [index, args] of lines.entries()) expectSameAsGit(results[index]!, args);
  }, 180_000);

  it('answers --diff-algorithm as the installed git does (git 2.39 does not know it)', async () => {
    const line = ['-p', '--diff-algorithm=myers', 'ours', 'base', 'theirs'];
    const result = await both(line);
    if (result.git.status === 129) expectSameAsGit(result, line);
    else expect(result.arbor.status).toBe(129);
  });
});

describe.skipIf(!hasGit)('arbor merge-file and merge.conflictStyle vs git merge-file', () => {
  function repository(name: string): string {
    const repo = join(dir, name);
    mkdirSync(repo);
    const init = spawnSync('git', ['init', '-q', repo], { env: env() });
    expect(init.status).toBe(0);
    return repo;
  }
  const setStyle = (file: string, value: string): void => writeFileSync(file, `[merge]\n\tconflictStyle = ${value}\n`);

  it("takes the repository's merge.conflictStyle when no style option is given", async () => {
    const repo = repository('repo-diff3');
    setStyle(join(repo, '.git', 'config'), 'diff3');
    const line = ['-p', 'ours', 'base', 'theirs'];
    const result = await both(line, { parent: join(repo, 'sub') });
    expect(result.arbor.stdout).toContain('||||||| base');
    expectSameAsGit(result, line);
    // A style option still wins, --no-diff3 included.
    for (const style of ['--no-diff3', '--zdiff3']) {
      const styled = ['-p', style, 'ours', 'base', 'theirs'];
      expectSameAsGit(await both(styled, { parent: join(repo, 'sub') }), styled);
    }
  }, 60_000);

  it('takes the global config inside a repository, and ignores it outside one, as git does', async () => {
    const repo = repository('repo-global');
    const global = join(dir, 'global-zdiff3');
    setStyle(global, 'zdiff3');
    const line = ['-p', 'ours', 'base', 'theirs'];
    const inside = await both(line, { parent: repo, env: { GIT_CONFIG_GLOBAL: global } });
    expect(inside.arbor.stdout).toContain('||||||| base');
    expectSameAsGit(inside, line);
    const outside = await both(line, { parent: join(dir, 'not-a-repo'), env: { GIT_CONFIG_GLOBAL: global } });
    expect(outside.arbor.stdout).not.toContain('||||||| base');
    expectSameAsGit(outside, line);
    // ~/.gitconfig is the global config when GIT_CONFIG_GLOBAL is not set.
    setStyle(join(dir, 'home', '.gitconfig'), 'diff3');
    try {
      const fromHome = await both(line, { parent: repo });
      expect(fromHome.arbor.stdout).toContain('||||||| base');
      expectSameAsGit(fromHome, line);
    } finally {
      rmSync(join(dir, 'home', '.gitconfig'), { force: true });
    }
  }, 60_000);

  it('follows GIT_DIR, the environment config and a worktree to the config git reads', async () => {
    const repo = repository('repo-env');
    setStyle(join(repo, '.git', 'config'), 'zdiff3');
    const line = ['-p', 'ours', 'base', 'theirs'];
    const viaGitDir = await both(line, { parent: join(dir, 'elsewhere'), env: { GIT_DIR: join(repo, '.git') } });
    expect(viaGitDir.arbor.stdout).toContain('||||||| base');
    expectSameAsGit(viaGitDir, line);
    const fromEnv = await both(line, {
      parent: repo,
      env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'merge.conflictStyle', GIT_CONFIG_VALUE_0: 'merge' },
    });
    expect(fromEnv.arbor.stdout).not.toContain('||||||| base');
    expectSameAsGit(fromEnv, line);
    spawnSync('git', ['-C', repo, 'commit', '-q', '--allow-empty', '-m', 'first'], { env: env({ GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' }) });
    const worktree = join(dir, 'repo-env-worktree');
    expect(spawnSync('git', ['-C', repo, 'worktree', 'add', '-q', worktree], { env: env() }).status).toBe(0);
    const inWorktree = await both(line, { parent: worktree });
    expect(inWorktree.arbor.stdout).toContain('||||||| base');
    expectSameAsGit(inWorktree, line);
  }, 60_000);

  it('stops with status 128 and git\'s message on a style git does not know, even before bad usage', async () => {
    const repo = repository('repo-bad');
    for (const value of ['foo', 'DIFF3']) {
      setStyle(join(repo, '.git', 'config'), value);
      for (const args of [['-p', 'ours', 'base', 'theirs'], ['--frobnicate']]) {
        const result = await both(args, { parent: repo });
        expect(result.git.status).toBe(128);
        expectSameAsGit(result, args);
      }
    }
  }, 60_000);
});
