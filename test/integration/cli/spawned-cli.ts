/**
 * The CLI as real processes (bin/arbor.cjs running a bundle built for the test), for tests where several
 * processes share one data folder or a process gets a real signal.
 */
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const REPO = resolve(__dirname, '../../..');
const BIN = join(REPO, 'bin', 'arbor.cjs');

export interface Exited {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Running {
  readonly child: ChildProcess;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<Exited>;
}

/**
 * The CLI bundle of this vitest run, in a folder inside the repository (it resolves better-sqlite3 from
 * node_modules like the real one), so the processes start in ~0.1 s instead of compiling the sources. The first
 * test file that asks builds it into the run's folder (test/setup/cli-bundle-folder.ts) while another worker
 * asking at the same time waits for it; every later file uses it. `remove` is for the caller's afterAll and
 * leaves the shared bundle to the end of the run.
 */
export function buildCliBundle(): { readonly bundle: string; remove(): void } {
  const folder = inject('cliBundleFolder');
  const bundle = join(folder, 'arbor.js');
  const built = join(folder, 'built');
  const failed = join(folder, 'failed');
  if (!existsSync(built)) {
    if (claim(join(folder, 'building'))) {
      try {
        execFileSync(process.execPath, [join(REPO, 'scripts', 'build-cli.cjs'), '--outdir', folder], { cwd: REPO });
      } catch (error) {
        writeFileSync(failed, String(error));
        throw error;
      }
      writeFileSync(built, '');
    } else {
      waitFor(built, failed);
    }
  }
  return { bundle, remove: () => {} };
}

/** True for the one caller that created `lock` (mkdir is atomic), false for the others. */
function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Blocks (the callers build synchronously in beforeAll) until another worker's build says it is done. */
function waitFor(built: string, failed: string): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 120_000;
  while (!existsSync(built)) {
    if (existsSync(failed)) throw new Error(`the shared CLI bundle failed to build: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error('the shared CLI bundle was not built within 120 s');
    Atomics.wait(sleeper, 0, 0, 50);
  }
}

/** `as` runs it as another user (`uid`, `gid`): a root test's way to meet a permission check. */
export function startArbor(bundle: string, args: readonly string[], env: Record<string, string> = {}, as: Pick<SpawnOptions, 'uid' | 'gid'> = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, ARBOR_CLI_BUNDLE: bundle, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...as,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exited>((done) => child.once('close', (code, signal) => done({ code, signal, stdout, stderr })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export function runArbor(bundle: string, args: readonly string[], env: Record<string, string> = {}, as: Pick<SpawnOptions, 'uid' | 'gid'> = {}): Promise<Exited> {
  return startArbor(bundle, args, env, as).exited;
}
