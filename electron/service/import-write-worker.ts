/**
 * The write worker's entry (a worker_threads Worker; bundled as import-write-worker.js beside main.js and the
 * CLI). It runs whole imports — the store's writes, the linking after them, the lineage checks — on its own
 * connection to the store the service opened, so the thread that answers requests only reads. The full-text
 * indexing after an import runs here too (issue 12: its chunks on the service's thread competed with requests).
 * The parse worker is started from here, so parsed batches never cross the service's thread. Readers on the
 * service's connection see each commit as a WAL snapshot: a session is listed once its link committed, never
 * half-linked.
 */
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { storeErrorOf } from '../db/database';
import { openSessionStore, type SessionStore } from '../db/session-store';
import { toErrorData } from '../../shared/errors';
import { createFullTextIndexer, type LocalFullTextIndexer } from './full-text-indexer';
import { startParseWorker, WRITE_WORKER_TURN_MS } from '../importers/worker/parse-worker';
import { transcriptReader } from './transcript-reader';
import { importSessions, type TranscriptReader } from './import-sessions';
import type { FromWriteWorker, ToWriteWorker, WriteWorkerData } from './import-write-protocol';
import { createStoreWriterLock } from './store-writer-lock';
import { SnapshotStore } from '../git/object-store';
import { createFileHistoryArchive, type FileHistoryArchive } from './file-history-archive';
import { runInBackground } from '../importers/worker/background-priority';

if (parentPort === null) throw new Error('import-write-worker runs as a worker thread');
const port = parentPort;
// Below the thread that answers requests: a busy machine gives a click the core before a batch.
runInBackground();
const { storeFile, claudeConfigDir, indexChunkRows } = workerData as WriteWorkerData;

/**
 * Rows per indexing chunk: each chunk is one transaction and so one FTS5 segment, and small segments are merged
 * (rewritten) again and again. Chunks also end at CHUNK_TEXT_CHARS of text (search.ts), so this is a ceiling: on
 * the 239 MB bench, 1000–5000-row chunks wrote 3.67x the input while indexing, chunks ended by text alone 1.81x.
 * Only this thread's writes wait for a chunk (searches read on their own connection).
 */
const INDEX_CHUNK_ROWS = 50_000;
/** The first chunk after an import (smallFirstChunk): an append that follows the import at once waits for this one. */
const FIRST_INDEX_CHUNK_ROWS = 100;
/**
 * A chunk works in slices of this long, its transaction open between them: an import arriving meanwhile rolls it
 * back and waits for one slice, not for the chunk (~1.3 s of CPU for 4 MB of text).
 */
const INDEX_SLICE_MS = 20;

/**
 * No request is answered on this thread, so parsed batches are stored for up to WRITE_WORKER_TURN_MS per turn:
 * the parse worker's one-batch-per-turn pacing, there for a thread that answers requests, only slowed imports
 * here, and a turn now and then lets a cancel in.
 */
const reader: TranscriptReader = { ...transcriptReader, startWorker: () => startParseWorker({ turnBudgetMs: WRITE_WORKER_TURN_MS }) };

// Opened at the first import and kept: an append that opened the store (and checked its migrations) each time
// would pay for that on every few lines.
let store: SessionStore | null = null;
let indexer: LocalFullTextIndexer | null = null;
// The snapshot store the file-history copies go into, opened at the first backup copied.
let objects: SnapshotStore | null = null;
let archive: FileHistoryArchive | null = null;
const running = new Map<string, AbortController>();
// Only asked whether another process holds the turn (the service's thread takes it for this one's imports).
const writerLock = createStoreWriterLock({ dataDir: dirname(storeFile), name: 'arbor' });

port.on('message', (message: ToWriteWorker) => {
  switch (message.type) {
    case 'run':
      // Before the import's first write on this connection: the indexer's chunk may be open between two slices.
      indexer?.interrupt();
      void run(message.jobId, message.paths);
      break;
    case 'cancel':
      running.get(message.jobId)?.abort();
      break;
    case 'index':
      openIndexer().kick();
      break;
    case 'index-idle':
      void answerIdle(message.requestId);
      break;
    case 'close':
      void close();
      break;
  }
});

function post(message: FromWriteWorker): void {
  port.postMessage(message);
}

function openStore(): SessionStore {
  // Its read connection answers no search (those read on the service's), so it maps nothing: mapped, the pages its
  // reads touched stayed in the process's RSS, 58–89 MB of a 1 GB transcript's store at the end of its import.
  store ??= openSessionStore(storeFile, { mappedReads: false });
  return store;
}

function openArchive(): FileHistoryArchive | undefined {
  if (claudeConfigDir === undefined) return undefined;
  archive ??= createFileHistoryArchive(openStore(), { claudeConfigDir, objects: () => (objects ??= SnapshotStore.open({ dataDir: dirname(storeFile) })) });
  return archive;
}

function openIndexer(): LocalFullTextIndexer {
  indexer ??= createFullTextIndexer(openStore(), {
    // An import here writes first (it kicks the indexer when done); another process importing would only
    // wait for these chunks and they for its batches.
    paused: () => running.size > 0 || writerLock.heldElsewhere(),
    // A small chunk first after each import, then INDEX_CHUNK_ROWS (tests fix the rows instead).
    minChunkRows: indexChunkRows ?? FIRST_INDEX_CHUNK_ROWS,
    maxChunkRows: indexChunkRows ?? INDEX_CHUNK_ROWS,
    chunkRows: indexChunkRows ?? FIRST_INDEX_CHUNK_ROWS,
    smallFirstChunk: true,
    sliceMs: INDEX_SLICE_MS,
    foldsWal: true,
    onProgress: (progress) => post({ type: 'index-progress', progress }),
  });
  return indexer;
}

async function run(jobId: string, paths: readonly string[]): Promise<void> {
  const controller = new AbortController();
  running.set(jobId, controller);
  try {
    const outcome = await importSessions(openStore(), reader, paths, {
      jobId,
      signal: controller.signal,
      onProgress: (progress) => post({ type: 'progress', progress }),
      onSessionsChanged: (sessionIds) => post({ type: 'sessions-changed', jobId, sessionIds }),
      fileHistory: openArchive(),
    });
    post({ type: 'done', jobId, outcome });
  } catch (error) {
    post({ type: 'failed', jobId, error: toErrorData(storeErrorOf(error) ?? error) });
  } finally {
    running.delete(jobId);
    // A failed or cancelled import's committed batches are searchable too.
    if (store !== null) openIndexer().kick();
  }
}

async function answerIdle(requestId: number): Promise<void> {
  try {
    await indexer?.idle();
    post({ type: 'indexed', requestId, error: null });
  } catch (error) {
    post({ type: 'indexed', requestId, error: toErrorData(storeErrorOf(error) ?? error) });
  }
}

async function close(): Promise<void> {
  for (const controller of running.values()) controller.abort();
  // The chunk under way commits or rolls back whole; what is left is found pending at the next start.
  await indexer?.stop();
  indexer = null;
  objects?.close();
  objects = null;
  archive = null;
  store?.close();
  store = null;
  port.close();
}
