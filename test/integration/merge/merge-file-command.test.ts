/** `arbor merge-file` side by side with `git merge-file` on real files in temp dirs. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../electron/cli/command';
import { mergeFileCommand } from '../../../electron/cli/commands/merge-file';
import { gitAvailable } from './git-merge-file';

const hasGit = gitAvailable();
if (!hasGit) console.warn('merge-file-command: git is not installed, skipping the comparison with git merge-file');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-merge-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function context(cwd: string): { context: CliContext; stdout: Buffer[]; stderr: string[] } {
  const stdout: Buffer[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    context: {
      io: { stdout: (t) => stdout.push(Buffer.from(t)), stderr: (t) => stderr.push(t), stdin: process.stdin, cwd, env: {}, interactive: false },
      service: () => Promise.reject(new Error('merge-file must not open the store')),
      signal: new AbortController().signal,
    },
  };
}

/** Writes the three files twice: one copy for git, one for arbor (both overwrite ours). */
function writeTriple(base: Buffer | string, ours: Buffer | string, theirs: Buffer | string): void {
  for (const prefix of ['git-', 'arbor-']) {
    writeFileSync(join(dir, `${prefix}ours`), ours);
    writeFileSync(join(dir, `${prefix}base`), base);
    writeFileSync(join(dir, `${prefix}theirs`), theirs);
  }
}

function git(args: readonly string[]): { status: number | null; stdout: Buffer } {
  const result = spawnSync('git', ['merge-file', ...args], {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: dir },
  });
  return { status: result.status, stdout: result.stdout };
}

async function arbor(args: readonly string[]): Promise<{ status: number; stdout: string; stdoutBytes: Buffer; stderr: string }> {
  const run = context(dir);
  const status = await mergeFileCommand.run(args, run.context);
  const stdoutBytes = Buffer.concat(run.stdout);
  return { status, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: run.stderr.join('') };
}

describe.skipIf(!hasGit)('arbor merge-file vs git merge-file', () => {
  it('overwrites ours with the same bytes as git, including non-UTF-8 bytes, CRLF and no final newline', async () => {
    const base = Buffer.from('caf\xe9\r\nline 2\r\nline 3\r\nend', 'latin1');
    const ours = Buffer.from('caf\xe9\r\nline TWO \xff\r\nline 3\r\nend', 'latin1');
    const theirs = Buffer.from('caf\xe9\r\nline 2 \xfe\r\nline 3\r\nEND', 'latin1');
    writeTriple(base, ours, theirs);
    const expected = git(['git-ours', 'git-base', 'git-theirs']);
    const actual = await arbor(['arbor-ours', 'arbor-base', 'arbor-theirs']);
    expect(actual.status).toBe(expected.status);
    expect(actual.status).toBe(1);
    const gitBytes = readFileSync(join(dir, 'git-ours'));
    const arborBytes = readFileSync(join(dir, 'arbor-ours'));
    expect(arborBytes.toString('latin1').replaceAll('arbor-', '')).toBe(gitBytes.toString('latin1').replaceAll('git-', ''));
  });

  it('prints the same bytes as git with -p, also when the files are not UTF-8', async () => {
    const base = Buffer.from('caf\xe9\r\nline 2\r\nline 3\r\nend', 'latin1');
    const ours = Buffer.from('caf\xe9\r\nline TWO \xff\r\nline 3\r\nend', 'latin1');
    const theirs = Buffer.from('caf\xe9\r\nline 2 \xfe\r\nline 3\r\nEND', 'latin1');
    writeTriple(base, ours, theirs);
    const args = ['-p', '-L', 'ours', '-L', 'base', '-L', 'theirs'];
    const expected = git([...args, 'git-ours', 'git-base', 'git-theirs']);
    const actual = await arbor([...args, 'arbor-ours', 'arbor-base', 'arbor-theirs']);
    expect(actual.status).toBe(expected.status);
    expect(actual.stdoutBytes.includes(0xff)).toBe(true);
    expect(actual.stdoutBytes.equals(expected.stdout)).toBe(true);
  });

  it('prints to stdout with -p, honours -L and --diff3, and leaves ours alone', async () => {
    writeTriple('a\nb\nc\n', 'a\nB\nc\n', 'a\nX\nc');
    const args = ['-p', '--diff3', '-L', 'mine', '-L', 'original', '-L', 'yours'];
    const expected = git([...args, 'git-ours', 'git-base', 'git-theirs']);
    const actual = await arbor([...args, 'arbor-ours', 'arbor-base', 'arbor-theirs']);
    expect(actual.stdout).toBe(expected.stdout.toString('utf8'));
    expect(actual.stdout).toContain('||||||| original\n');
    expect(actual.status).toBe(expected.status);
    expect(readFileSync(join(dir, 'arbor-ours'), 'utf8')).toBe('a\nB\nc\n');
  });

  it('exits 0 on a clean merge and caps the conflict count at 127 like git', async () => {
    writeTriple('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n');
    expect((await arbor(['-p', 'arbor-ours', 'arbor-base', 'arbor-theirs'])).status).toBe(0);

    const base = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`);
    const side = (tag: string): string => base.map((line, i) => (i % 5 === 0 ? `${tag} ${i}\n` : line)).join('');
    writeTriple(base.join(''), side('ours'), side('theirs'));
    const expected = git(['-p', 'git-ours', 'git-base', 'git-theirs']);
    const actual = await arbor(['-p', 'arbor-ours', 'arbor-base', 'arbor-theirs']);
    expect(expected.status).toBe(127);
    expect(actual.status).toBe(127);
  });

  it('refuses binary files and missing files with status 255, quietly with -q', async () => {
    writeTriple('a\n', Buffer.from([0x61, 0x00, 0x0a]), 'b\n');
    expect(git(['git-ours', 'git-base', 'git-theirs']).status).toBe(255);
    const binary = await arbor(['arbor-ours', 'arbor-base', 'arbor-theirs']);
    expect(binary.status).toBe(255);
    expect(binary.stderr).toContain('Cannot merge binary files: arbor-ours');
    expect(readFileSync(join(dir, 'arbor-ours'))).toEqual(Buffer.from([0x61, 0x00, 0x0a]));

    expect(git(['-p', 'missing', 'git-base', 'git-theirs']).status).toBe(255);
    const missing = await arbor(['-q', '-p', 'missing', 'arbor-base', 'arbor-theirs']);
    expect({ ...missing, stdoutBytes: missing.stdoutBytes.length }).toEqual({ status: 255, stdout: '', stdoutBytes: 0, stderr: '' });
  });

  it('answers bad usage as git does: one line on stderr and status 129, never a conflict count', async () => {
    for (const args of [['only', 'two'], ['--frobnicate', 'a', 'b', 'c'], ['-L', 'a', '-L', 'b', '-L', 'c', '-L', 'd', 'x', 'y', 'z']]) {
      const result = await arbor(args);
      expect(result.status).toBe(129);
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(git(args).status).toBe(129);
    }
  });
});
