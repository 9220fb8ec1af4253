/**
 * The service's side of the write worker (import-write-worker.ts): imports run there, on the worker's own
 * connection to the store, while this thread keeps answering requests from its read connection. Progress and
 * `sessions.changed` come back as messages. The worker starts at the first import and stays (an append then
 * costs its lines, not a thread start and a store open); it is unreferenced while idle, so it never keeps a
 * process alive. A worker that dies mid-import fails that import with INTERNAL: never a success.
 * The full-text indexing after an import runs in the worker too (`indexer`): the service's thread only reads
 * how far it got. Unreferenced like an idle worker, indexing never keeps a process alive either: a process that
 * ends mid-index leaves the rest pending for the next start, which resumes where the index stopped.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ArborError, CancelledError, type ArborErrorData } from '../../shared/errors';
import type { ImportProgress, SessionId } from '../../shared/model';
import { profilingArgv, WRITE_WORKER_HEAP_LIMITS } from '../importers/worker/parse-worker';
import type { FullTextIndexer } from './full-text-indexer';
import type { ImportOutcome } from './import-sessions';
import type { FromWriteWorker, ToWriteWorker, WriteWorkerData } from './import-write-protocol';

export interface WorkerImportOptions {
  readonly jobId: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ImportProgress) => void;
  readonly onSessionsChanged?: (sessionIds: readonly SessionId[]) => void;
}

export interface ImportWorkerHost {
  /** Imports `paths` in the worker (one at a time: the service's import queue orders them). */
  run(paths: readonly string[], options: WorkerImportOptions): Promise<ImportOutcome>;
  /** Full-text indexing in the worker (started if need be), with the same contract as the in-thread indexer. */
  readonly indexer: FullTextIndexer;
  /** Lets the worker close its store and exit (stopping its indexer between chunks); resolves once it has. */
  close(): Promise<void>;
}

export interface ImportWorkerHostOptions {
  readonly entry?: WorkerEntry;
  /** The worker's indexing progress (`index.progress`). */
  readonly onIndexProgress?: (progress: { done: number; total: number }) => void;
  /** Claude Code's config folder, whose file-history backups the worker copies into the store at import. */
  readonly claudeConfigDir?: string;
  /** Tests: rows per indexing chunk in the worker (WriteWorkerData.indexChunkRows). */
  readonly indexChunkRows?: number;
}

/** Which file the worker runs; tests point it at a worker that fails. */
export interface WorkerEntry {
  readonly filename: string;
  readonly execArgv: readonly string[];
}

interface Job {
  readonly jobId: string;
  readonly options: WorkerImportOptions;
  readonly resolve: (outcome: ImportOutcome) => void;
  readonly reject: (error: unknown) => void;
}

export function startImportWorkerHost(storeFile: string, options: ImportWorkerHostOptions = {}): ImportWorkerHost {
  let worker: Worker | null = null;
  let job: Job | null = null;
  let closed = false;
  // Callers of indexer.idle() waiting for the worker's answer: they keep it referenced meanwhile.
  const idleWaits = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();
  let idleRequests = 0;

  /** Referenced while someone waits for it (an import, an idle()), else it never keeps the process alive. */
  const reference = (): void => {
    if (worker === null) return;
    if (job !== null || idleWaits.size > 0) worker.ref();
    else worker.unref();
  };

  const settle = (current: Job, outcome: { outcome: ImportOutcome } | { error: unknown }): void => {
    if (job !== current) return;
    job = null;
    reference();
    if ('outcome' in outcome) current.resolve(outcome.outcome);
    else current.reject(outcome.error);
  };

  const answerIdle = (requestId: number, error: unknown): void => {
    const wait = idleWaits.get(requestId);
    if (wait === undefined) return;
    idleWaits.delete(requestId);
    reference();
    if (error === null) wait.resolve();
    else wait.reject(error);
  };

  function spawn(): Worker {
    const entry = options.entry ?? writeWorkerEntry();
    const data: WriteWorkerData = {
      storeFile,
      ...(options.claudeConfigDir === undefined ? {} : { claudeConfigDir: options.claudeConfigDir }),
      ...(options.indexChunkRows === undefined ? {} : { indexChunkRows: options.indexChunkRows }),
    };
    const started = new Worker(entry.filename, { execArgv: [...entry.execArgv, ...profilingArgv()], workerData: data, resourceLimits: WRITE_WORKER_HEAP_LIMITS });
    const stopped = (why: string): void => {
      if (worker !== started) return;
      worker = null;
      if (job !== null) settle(job, { error: new ArborError('INTERNAL', `The import stopped: its worker ${why}`, { worker: why }) });
      const stop = new ArborError('INTERNAL', `The full-text indexing stopped: its worker ${why}`, { worker: why });
      for (const requestId of [...idleWaits.keys()]) answerIdle(requestId, stop);
    };
    started.on('error', (error) => stopped(`failed (${error instanceof Error ? error.message : String(error)})`));
    started.on('exit', (code) => stopped(`exited with code ${code}`));
    started.on('message', (message: FromWriteWorker) => {
      if (message.type === 'index-progress') return options.onIndexProgress?.(message.progress);
      if (message.type === 'indexed') return answerIdle(message.requestId, message.error === null ? null : errorOf(message.error));
      const current = job;
      if (current === null) return;
      switch (message.type) {
        case 'progress':
          if (message.progress.jobId === current.jobId) current.options.onProgress?.(message.progress);
          break;
        case 'sessions-changed':
          if (message.jobId === current.jobId) current.options.onSessionsChanged?.(message.sessionIds);
          break;
        case 'done':
          if (message.jobId === current.jobId) settle(current, { outcome: message.outcome });
          break;
        case 'failed':
          if (message.jobId === current.jobId) settle(current, { error: errorOf(message.error) });
          break;
      }
    });
    return started;
  }

  const post = (target: Worker, message: ToWriteWorker): void => target.postMessage(message);

  const indexer: FullTextIndexer = {
    kick() {
      if (closed) return;
      worker ??= spawn();
      reference();
      post(worker, { type: 'index' });
    },
    idle() {
      // No worker: nothing was imported in this process, so nothing is indexing.
      if (worker === null) return Promise.resolve();
      const target = worker;
      const requestId = ++idleRequests;
      return new Promise<void>((resolve, reject) => {
        idleWaits.set(requestId, { resolve, reject });
        reference();
        post(target, { type: 'index-idle', requestId });
      });
    },
    // The worker's indexer stops when it closes (close()).
    stop: () => Promise.resolve(),
  };

  return {
    indexer,
    run(paths, runOptions) {
      if (closed) return Promise.reject(new ArborError('INTERNAL', 'The import worker is closed'));
      if (job !== null) return Promise.reject(new ArborError('INTERNAL', 'An import is already running in the worker'));
      const { signal } = runOptions;
      if (signal?.aborted) return Promise.reject(new CancelledError());
      worker ??= spawn();
      const target = worker;
      target.ref();
      return new Promise<ImportOutcome>((resolve, reject) => {
        const onAbort = (): void => post(target, { type: 'cancel', jobId: runOptions.jobId });
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        job = {
          jobId: runOptions.jobId,
          options: runOptions,
          resolve: (outcome) => (done(), resolve(outcome)),
          reject: (error) => (done(), reject(error)),
        };
        post(target, { type: 'run', jobId: runOptions.jobId, paths: [...paths] });
      });
    },
    async close() {
      closed = true;
      const target = worker;
      if (target === null) return;
      worker = null;
      const exited = new Promise<void>((resolve) => target.once('exit', () => resolve()));
      // Kept referenced until it has closed its store: an exit meanwhile would skip the store's last checkpoint.
      target.ref();
      post(target, { type: 'close' });
      // A worker stuck in a write still ends: the store's WAL keeps every committed batch.
      const timer = setTimeout(() => void target.terminate(), 5000);
      await exited;
      clearTimeout(timer);
      // Indexing stopped with the worker: whoever waited for it is not waiting for anything any more.
      for (const [requestId, wait] of [...idleWaits]) {
        idleWaits.delete(requestId);
        wait.resolve();
      }
    },
  };
}

function errorOf(data: ArborErrorData): Error {
  if (data.code === 'CANCELLED') return new CancelledError(data.message);
  return new ArborError(data.code, data.message, data.data);
}

/**
 * From TypeScript source (tsx, vitest) the worker runs import-write-worker.ts with tsx's CommonJS hook; bundled,
 * it is import-write-worker.js beside the main bundle (or one folder up, from a shared chunk), as the parse worker.
 */
function writeWorkerEntry(): WorkerEntry {
  if (__filename.endsWith('.ts')) {
    const tsx = createRequire(__filename).resolve('tsx/cjs');
    return { filename: join(__dirname, 'import-write-worker.ts'), execArgv: ['--require', tsx] };
  }
  const bundled = [join(__dirname, 'import-write-worker.js'), join(__dirname, '..', 'import-write-worker.js')];
  return { filename: bundled.find((path) => existsSync(path)) ?? (bundled[0] as string), execArgv: [] };
}
