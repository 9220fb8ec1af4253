/**
 * The write worker (import-worker-host.ts → import-write-worker.ts): imports run on the worker's own connection
 * and the service's connection reads what they committed; a cancelled import leaves a store the next import
 * resumes; a worker that throws or exits fails the import with a code; a reader polling during an import never
 * sees a session listed before its nodes are.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FIRST_PAGE } from '../../../electron/db/session-queries';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { importSessions } from '../../../electron/service/import-sessions';
import { startImportWorkerHost, type ImportWorkerHost } from '../../../electron/service/import-worker-host';
import { ArborError } from '../../../shared/errors';

let root: string;
let store: SessionStore;
let host: ImportWorkerHost | null;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-write-worker-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
  host = null;
});
afterEach(async () => {
  await host?.close();
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function nodeTotal(target: SessionStore): number {
  return target.listSessions({ limit: 1000 }).sessions.reduce((sum, session) => sum + session.nodeCount, 0);
}

/** The same files imported in-thread into a fresh store: what the worker must have stored. */
async function inThreadNodes(projects: string): Promise<number> {
  const fresh = openSessionStore(join(root, 'in-thread.sqlite'));
  try {
    await importSessions(fresh, transcriptReader, [projects], { jobId: 'in-thread', workerFromBytes: Number.POSITIVE_INFINITY });
    return nodeTotal(fresh);
  } finally {
    fresh.close();
  }
}

it('an import in the worker is read from the main connection, with its progress and sessions.changed', async () => {
  const projects = join(root, 'projects');
  await writeSyntheticCorpus(projects, { totalBytes: 2 * 1024 * 1024, nodesPerSession: 300, seed: 5 });
  host = startImportWorkerHost(join(root, 'arbor.sqlite'));
  const phases = new Set<string>();
  const changed = new Set<string>();
  const outcome = await host.run([projects], {
    jobId: 'j1',
    onProgress: (progress) => phases.add(progress.phase),
    onSessionsChanged: (ids) => ids.forEach((id) => changed.add(id)),
  });
  const listed = store.listSessions({ limit: 1000 }).sessions;
  expect(listed.length).toBeGreaterThan(1);
  expect(new Set(listed.map((session) => session.id))).toEqual(new Set(outcome.changedSessionIds));
  expect([...changed].sort()).toEqual([...outcome.changedSessionIds].sort());
  expect(phases.has('done')).toBe(true);
  expect(nodeTotal(store)).toBe(await inThreadNodes(projects));
  expect(store.getSessionNodes(listed[0]?.id ?? '').length).toBe(listed[0]?.nodeCount);
});

it('an import cancelled in the worker leaves a store the next import resumes to the same nodes', async () => {
  const projects = join(root, 'projects');
  await writeSyntheticCorpus(projects, { totalBytes: 16 * 1024 * 1024, nodesPerSession: 8000, seed: 9 });
  host = startImportWorkerHost(join(root, 'arbor.sqlite'));
  const controller = new AbortController();
  const cancelled = host.run([projects], {
    jobId: 'cancel',
    signal: controller.signal,
    onProgress: (progress) => {
      if (progress.bytesDone > 0) controller.abort();
    },
  });
  await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
  const partial = nodeTotal(store);
  const expected = await inThreadNodes(projects);
  expect(partial).toBeLessThan(expected);
  await host.run([projects], { jobId: 'resume' });
  expect(nodeTotal(store)).toBe(expected);
});

it('regression: a write worker that throws fails the import with INTERNAL instead of hanging or succeeding', async () => {
  const entry = join(root, 'throwing-worker.cjs');
  writeFileSync(entry, "require('node:worker_threads').parentPort.on('message', () => { throw new Error('disk on fire'); });\n");
  host = startImportWorkerHost(join(root, 'arbor.sqlite'), { entry: { filename: entry, execArgv: [] } });
  const failed = host.run([root], { jobId: 'boom' });
  await expect(failed).rejects.toBeInstanceOf(ArborError);
  await expect(failed).rejects.toMatchObject({ code: 'INTERNAL' });
  expect((await failed.catch((error: ArborError) => error.message)) as string).toContain('disk on fire');
});

it('a write worker that exits mid-import fails it with INTERNAL, and the next import starts a new worker', async () => {
  const entry = join(root, 'exiting-worker.cjs');
  writeFileSync(entry, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
  host = startImportWorkerHost(join(root, 'arbor.sqlite'), { entry: { filename: entry, execArgv: [] } });
  await expect(host.run([root], { jobId: 'a' })).rejects.toMatchObject({ code: 'INTERNAL', data: { worker: 'exited with code 3' } });
  await expect(host.run([root], { jobId: 'b' })).rejects.toMatchObject({ code: 'INTERNAL' });
});

it('a reader polling the main connection during an import never sees a session listed with 0 nodes', async () => {
  const projects = join(root, 'projects');
  await writeSyntheticCorpus(projects, { totalBytes: 12 * 1024 * 1024, nodesPerSession: 1500, seed: 13 });
  host = startImportWorkerHost(join(root, 'arbor.sqlite'));
  let done = false;
  let reads = 0;
  const empty: string[] = [];
  const poll = (async () => {
    while (!done) {
      for (const session of store.listSessions({ limit: 1000 }).sessions) {
        if (session.nodeCount === 0 || store.getSessionNodesPage(session.id, FIRST_PAGE, 1).nodes.length === 0) empty.push(session.id);
      }
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  await host.run([projects], { jobId: 'poll' }).finally(() => {
    done = true;
  });
  await poll;
  expect(reads).toBeGreaterThan(5);
  expect(empty).toEqual([]);
  expect(store.listSessions({ limit: 1000 }).total).toBeGreaterThan(1);
});
