/**
 * The import's threads run below the thread that answers requests (issue 12): the write worker and the parse
 * worker each lower their own priority (electron/importers/worker/background-priority.ts) and leave the
 * service's thread as it was. On Linux a thread's nice value is its own (/proc/self/task/<tid>/stat); elsewhere
 * Node sets only whole processes' priorities and nothing changes.
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { BACKGROUND_NICE_STEPS, threadId } from '../../../electron/importers/worker/background-priority';
import { startParseWorker } from '../../../electron/importers/worker/parse-worker';
import { startImportWorkerHost, type ImportWorkerHost } from '../../../electron/service/import-worker-host';

const tsxHook = createRequire(__filename).resolve('tsx/cjs');

let root: string;
let store: SessionStore;
let host: ImportWorkerHost | null;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-thread-priority-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
  host = null;
});
afterEach(async () => {
  await host?.close();
  store.close();
  rmSync(root, { recursive: true, force: true });
});

/** The nice value of each thread of this process, by thread id (Linux only: an empty map elsewhere). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  if (process.platform !== 'linux') return nices;
  for (const tid of readdirSync('/proc/self/task')) {
    // After "(comm) ": state is field 3, nice field 19.
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16]));
  }
  return nices;
}

const backgroundNice = (before: number): number => Math.min(19, before + BACKGROUND_NICE_STEPS);

it('the write worker runs below the thread that answers requests, which keeps its priority', async () => {
  const projects = join(root, 'projects');
  await writeSyntheticCorpus(projects, { totalBytes: 256 * 1024, nodesPerSession: 100, seed: 3 });
  const main = getPriority();
  const before = new Set(threadNices().keys());
  host = startImportWorkerHost(join(root, 'arbor.sqlite'));
  await host.run([projects], { jobId: 'j1' });
  // The worker stays after its import (an append then costs its lines): its thread is the new one lowered.
  const lowered = [...threadNices()].filter(([tid, nice]) => !before.has(tid) && nice === backgroundNice(main));
  expect(getPriority()).toBe(main);
  expect(threadNices().get(threadId() ?? -1)).toBe(process.platform === 'linux' ? main : undefined);
  expect(lowered.length).toBe(process.platform === 'linux' ? 1 : 0);
  expect(store.listSessions({ limit: 10 }).sessions.length).toBeGreaterThan(0);
});

it('a thread started by a lowered thread runs as far below the main thread as its creator, not further', async () => {
  // What the parse worker does when the write worker starts it: it begins at its creator's nice and lowers itself.
  const module = join(__dirname, '../../../electron/importers/worker/background-priority.ts');
  const code = `require(${JSON.stringify(tsxHook)}); const { runInBackground } = require(${JSON.stringify(module)});
    require('node:worker_threads').parentPort.postMessage([runInBackground(), runInBackground()]);`;
  const worker = new Worker(code, { eval: true });
  const [[first, again]] = (await once(worker, 'message')) as [[number | null, number | null]];
  await worker.terminate();
  const main = getPriority();
  expect(first).toBe(process.platform === 'linux' ? backgroundNice(main) : null);
  expect(again).toBe(first);
  expect(getPriority()).toBe(main);
});

it('the parse worker lowers its own thread once loaded, not the one that started it', async () => {
  const main = getPriority();
  const before = threadNices();
  const worker = startParseWorker();
  try {
    expect(await worker.ready).toBe(true);
    const lowered = [...threadNices()].filter(([tid, nice]) => !before.has(tid) && nice === backgroundNice(main));
    expect(lowered.length).toBe(process.platform === 'linux' ? 1 : 0);
    expect(getPriority()).toBe(main);
  } finally {
    await worker.close();
  }
});
