/**
 * Full-text indexing runs in the write worker, on its own connection (issue 12: its chunks on the service's
 * thread competed with requests): search on the service's connection answers from what the worker has indexed
 * so far and says so; progress comes back from the worker; closing the worker mid-index (quit) or killing the
 * process (crash) leaves the rest pending, and the next worker resumes from the indexed-up-to marker to the
 * same results as an index built in one go.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { createFullTextIndexer } from '../../../electron/service/full-text-indexer';
import { importSessions } from '../../../electron/service/import-sessions';
import { startImportWorkerHost, type ImportWorkerHost } from '../../../electron/service/import-worker-host';
import { createSearchMethod } from '../../../electron/service/search-method';
import { transcriptReader } from '../../../electron/service/transcript-reader';

let root: string;
let projects: string;
let store: SessionStore | null;
let hosts: ImportWorkerHost[];
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-index-in-worker-'));
  projects = join(root, 'projects');
  await writeSyntheticCorpus(projects, { totalBytes: 6 * 1024 * 1024, nodesPerSession: 1500, seed: 21 });
  store = null;
  hosts = [];
});
afterEach(async () => {
  for (const host of hosts) await host.close();
  store?.close();
  rmSync(root, { recursive: true, force: true });
});

const storeFile = (): string => join(root, 'arbor.sqlite');
const QUERIES = ['the', 'file', 'test', 'read', 'a'];

function host(options: Parameters<typeof startImportWorkerHost>[1] = {}): ImportWorkerHost {
  // Chunks of 1000 rows: the 6 MB corpus then takes several, so the tests see indexing part way.
  const started = startImportWorkerHost(storeFile(), { indexChunkRows: 1000, ...options });
  hosts.push(started);
  return started;
}

/** The same transcripts imported and indexed in-thread, in one go: what every query must find. */
async function referenceAnswers(): Promise<Record<string, number>> {
  const reference = openSessionStore(join(root, 'reference.sqlite'));
  try {
    await importSessions(reference, transcriptReader, [projects], { jobId: 'reference' });
    const indexer = createFullTextIndexer(reference);
    indexer.kick();
    await indexer.idle();
    return await answers(reference);
  } finally {
    reference.close();
  }
}

async function answers(target: SessionStore): Promise<Record<string, number>> {
  const search = createSearchMethod(target, () => false);
  const found: Record<string, number> = {};
  for (const query of QUERIES) found[query] = (await search({ query, limit: 50 })).total;
  return found;
}

it('a search on the service connection answers from what the worker indexed so far, saying so, then from all of it', async () => {
  store = openSessionStore(storeFile());
  const reader = store;
  const search = createSearchMethod(reader, () => false);
  const seen: { indexed: number; total: number; indexing: boolean; hits: number }[] = [];
  const progress: number[] = [];
  let asking: Promise<void> = Promise.resolve();
  const worker = host({
    onIndexProgress: ({ done }) => {
      progress.push(done);
      // Asked while the worker is still indexing: each answer is what was committed by then.
      asking = asking.then(async () => {
        const answer = await search({ query: 'the' });
        seen.push({ indexed: answer.index?.indexed ?? 0, total: answer.index?.total ?? 0, indexing: answer.indexing, hits: answer.hits.length });
      });
    },
  });
  await worker.run([projects], { jobId: 'import' });
  await worker.indexer.idle();
  await asking;
  const total = reader.indexProgress().total;
  expect(total).toBeGreaterThan(1000);
  expect(progress.length).toBeGreaterThan(1);
  expect(progress.at(-1)).toBe(total);
  const partway = seen.filter((answer) => answer.indexed > 0 && answer.indexed < answer.total);
  expect(partway.length).toBeGreaterThan(0);
  expect(partway.every((answer) => answer.indexing && answer.hits > 0)).toBe(true);
  expect(reader.indexProgress()).toEqual({ indexed: total, total });
  expect((await search({ query: 'the' })).indexing).toBe(false);
  expect(await answers(reader)).toEqual(await referenceAnswers());
});

it('a worker closed mid-index (quit) stops between chunks, and the next one resumes to the same results', async () => {
  let closing: Promise<void> | null = null;
  const first = host({
    onIndexProgress: ({ done, total }) => {
      if (closing === null && done > 0 && done < total) closing = first.close();
    },
  });
  await first.run([projects], { jobId: 'import' });
  await first.indexer.idle();
  expect(closing).not.toBeNull();
  await closing;
  store = openSessionStore(storeFile());
  const stopped = store.indexProgress();
  expect(stopped.indexed).toBeGreaterThan(0);
  expect(stopped.indexed).toBeLessThan(stopped.total);

  const second = host();
  second.indexer.kick();
  await second.indexer.idle();
  expect(store.indexProgress()).toEqual({ indexed: stopped.total, total: stopped.total });
  expect(await answers(store)).toEqual(await referenceAnswers());
});

it('a process killed mid-index (crash) leaves a store whose indexing resumes from its marker to the same results', async () => {
  const child = join(import.meta.dirname, 'index-in-worker-crash-child.ts');
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs');
  const killed = await new Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    const started = spawn(process.execPath, ['--require', tsx, child, storeFile(), projects], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    started.on('exit', (_code, signal) => resolve({ signal, stdout, stderr }));
  });
  expect(killed.stderr).toBe('');
  expect(killed.stdout).toMatch(/^killed at \d+ of \d+/);
  expect(killed.signal).toBe('SIGKILL');

  store = openSessionStore(storeFile());
  const crashed = store.indexProgress();
  expect(crashed.indexed).toBeGreaterThan(0);
  expect(crashed.indexed).toBeLessThan(crashed.total);
  const resumed = host();
  resumed.indexer.kick();
  await resumed.indexer.idle();
  expect(store.indexProgress()).toEqual({ indexed: crashed.total, total: crashed.total });
  expect(await answers(store)).toEqual(await referenceAnswers());
}, 60_000);
