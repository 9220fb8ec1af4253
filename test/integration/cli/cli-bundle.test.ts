/**
 * The esbuild bundle of the CLI (scripts/build-cli.cjs → out/cli/) that bin/arbor.cjs runs when it is fresh:
 * it must behave like the sources, including the import worker and finding the built renderer.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin', 'arbor.cjs');
let dir: string;
let bundleDir: string;
let bundle: string;

/** A process of its own, so the bundle's run and the sources' (tsx compiling, ~1 core for seconds) go side by side. */
function arbor(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), ARBOR_CLI_BUNDLE: bundle, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-cli-bundle-'));
  // A bundle of its own, so other tests that spawn bin/arbor.cjs never see a half-written out/cli; inside the
  // repository, because the bundle resolves better-sqlite3 from node_modules like the real one does.
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  bundleDir = mkdtempSync(join(ROOT, 'out', 'cli-test-'));
  bundle = join(bundleDir, 'arbor.js');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.cjs'), '--outdir', bundleDir], { cwd: ROOT });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe('the bundled CLI', () => {
  it('creates, imports and shows the demo exactly as the sources do', async () => {
    const data = join(dir, 'data');
    const demo = await arbor(['demo', join(dir, 'demo'), '--data-dir', data, '--json']);
    expect(demo.code).toBe(0);
    const { sessionId } = JSON.parse(demo.stdout) as { sessionId: string };
    const [bundled, fromSource] = await Promise.all([
      arbor(['show', sessionId, '--json', '--data-dir', data]),
      arbor(['show', sessionId, '--json', '--data-dir', data], { ARBOR_CLI_FROM_SOURCE: '1' }),
    ]);
    expect(bundled.code).toBe(0);
    expect(fromSource.code).toBe(0);
    expect(JSON.parse(bundled.stdout)).toEqual(JSON.parse(fromSource.stdout));
    expect((JSON.parse(bundled.stdout) as { nodes: unknown[] }).nodes.length).toBeGreaterThan(50);
  });

  it('reports usage errors with exit status 2 like the sources', async () => {
    const [bundled, fromSource] = await Promise.all([arbor(['no-such-command']), arbor(['no-such-command'], { ARBOR_CLI_FROM_SOURCE: '1' })]);
    expect(bundled.code).toBe(2);
    expect(fromSource.code).toBe(2);
  });

  it('runs merge-file from its lean bundle, with the same output and exit status as the full CLI', async () => {
    writeFileSync(join(dir, 'base'), 'a\nb\nc\nd\n');
    writeFileSync(join(dir, 'ours'), 'a\nB\nc\nd\n');
    writeFileSync(join(dir, 'theirs'), 'a\nb\nc\nD\n');
    writeFileSync(join(dir, 'clash'), 'a\nX\nc\nd\n');
    const args = ['merge-file', '-p', join(dir, 'ours'), join(dir, 'base'), join(dir, 'theirs')];
    const conflicted = ['merge-file', '-p', join(dir, 'ours'), join(dir, 'base'), join(dir, 'clash')];
    const [lean, leanConflict, fullConflict] = await Promise.all([
      arbor(args, { ARBOR_CLI_TRACE: '1' }),
      arbor(conflicted),
      arbor(conflicted, { ARBOR_CLI_FROM_SOURCE: '1' }),
    ]);
    expect(lean.stderr).toContain('arbor: running merge-file.js');
    expect(lean.code).toBe(0);
    expect(lean.stdout).toBe('a\nB\nc\nD\n');
    expect(leanConflict.code).toBe(1);
    expect(leanConflict).toEqual(fullConflict);
  });

  it('is not used once a source file is newer than the bundle', async () => {
    expect((await arbor(['--version'], { ARBOR_CLI_TRACE: '1' })).stderr).toContain('arbor: running arbor.js');
    // Older than any checkout, so every source file is newer and bin must fall back to tsx. An hour back was
    // not enough in a worktree whose sources were all older than an hour (the test failed there).
    const past = new Date(Date.UTC(2001, 0, 1));
    utimesSync(bundle, past, past);
    const stale = await arbor(['--version'], { ARBOR_CLI_TRACE: '1' });
    expect(stale.code).toBe(0);
    expect(stale.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(stale.stderr).toContain('arbor: running from sources');
  });
});
