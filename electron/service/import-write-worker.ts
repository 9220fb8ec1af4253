/**
 * The write worker's entry (a worker_threads Worker; bundled as import-write-worker.js beside main.js and the
 * CLI). It runs whole imports — the store's writes, the linking after them, the lineage checks — on its own
 * connection to the store the service opened, so the thread that answers requests only reads. The parse worker
 * is started from here, so parsed batches never cross the service's thread. Readers on the service's connection
 * see each commit as a WAL snapshot: a session is listed once its link committed, never half-linked.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { storeErrorOf } from '../db/database';
import { openSessionStore, type SessionStore } from '../db/session-store';
import { toErrorData } from '../../shared/errors';
import { startParseWorker, WRITE_WORKER_TURN_MS } from '../importers/worker/parse-worker';
import { transcriptReader } from './transcript-reader';
import { importSessions, type TranscriptReader } from './import-sessions';
import type { FromWriteWorker, ToWriteWorker, WriteWorkerData } from './import-write-protocol';

if (parentPort === null) throw new Error('import-write-worker runs as a worker thread');
const port = parentPort;
const { storeFile } = workerData as WriteWorkerData;

/**
 * No request is answered on this thread, so parsed batches are stored for up to WRITE_WORKER_TURN_MS per turn:
 * the parse worker's one-batch-per-turn pacing, there for a thread that answers requests, only slowed imports
 * here, and a turn now and then lets a cancel in.
 */
const reader: TranscriptReader = { ...transcriptReader, startWorker: () => startParseWorker({ turnBudgetMs: WRITE_WORKER_TURN_MS }) };

// Opened at the first import and kept: an append that opened the store (and checked its migrations) each time
// would pay for that on every few lines.
let store: SessionStore | null = null;
const running = new Map<string, AbortController>();

port.on('message', (message: ToWriteWorker) => {
  switch (message.type) {
    case 'run':
      void run(message.jobId, message.paths);
      break;
    case 'cancel':
      running.get(message.jobId)?.abort();
      break;
    case 'close':
      for (const controller of running.values()) controller.abort();
      store?.close();
      store = null;
      port.close();
      break;
  }
});

function post(message: FromWriteWorker): void {
  port.postMessage(message);
}

async function run(jobId: string, paths: readonly string[]): Promise<void> {
  const controller = new AbortController();
  running.set(jobId, controller);
  try {
    store ??= openSessionStore(storeFile);
    const outcome = await importSessions(store, reader, paths, {
      jobId,
      signal: controller.signal,
      onProgress: (progress) => post({ type: 'progress', progress }),
      onSessionsChanged: (sessionIds) => post({ type: 'sessions-changed', jobId, sessionIds }),
    });
    post({ type: 'done', jobId, outcome });
  } catch (error) {
    post({ type: 'failed', jobId, error: toErrorData(storeErrorOf(error) ?? error) });
  } finally {
    running.delete(jobId);
  }
}
