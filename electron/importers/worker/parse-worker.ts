/**
 * The main thread's side of the parse worker: starts it, hands it the files to parse, and delivers each
 * file's lines to a ParseSink as batches arrive — so parsing (worker) and storing (main thread) use both
 * cores. The worker runs from TypeScript source under tsx (CLI, scripts, vitest) and from the electron-vite
 * bundle (out/main/import-worker.js, a second main entry) in the app.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ArborError, CancelledError } from '../../../shared/errors';
import type { ImportProblem } from '../../../shared/model';
import type { ParsedNode, ParsedRecord, ParseResult, ParseSink } from '../transcript';
import { type FromWorker, NODE_ITEM, type ParseJob, RECORD_ITEM, type ToWorker } from './worker-protocol';
import type { BlockAhead } from '../../db/blocks-ahead';

export type { ParseJob } from './worker-protocol';

/** The worker stopped (crashed, or could not start): what it had not delivered must be parsed in-thread. */
export class ParseWorkerFailedError extends Error {
  constructor(cause: unknown) {
    super(`the parse worker stopped: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ParseWorkerFailedError';
  }
}

/** A sink that may also take the raw-line blocks the worker compressed ahead (db/blocks-ahead.ts), before their lines. */
export interface WorkerSink extends ParseSink {
  blocksAhead?(blocks: readonly BlockAhead[]): void;
}

export interface ParseWorker {
  /** Whether the worker has loaded and can take files now. */
  readonly isReady: () => boolean;
  /** Resolves true once loaded, false if it could not start. */
  readonly ready: Promise<boolean>;
  /** Hands over the files to parse, in order (once). */
  start(jobs: readonly ParseJob[]): void;
  /**
   * Delivers the next file's lines (in `start` order) to `sink` as they arrive; resolves where it ended.
   * Rejects with the file's own read error (as an in-thread parse would throw), CancelledError, or
   * ParseWorkerFailedError.
   */
  next(sink: WorkerSink, onBytes: (bytesRead: number) => void, signal: AbortSignal | undefined): Promise<ParseResult>;
  close(): Promise<void>;
}

interface Consumer {
  readonly sink: WorkerSink;
  readonly onBytes: (bytesRead: number) => void;
  readonly resolve: (result: ParseResult) => void;
  readonly reject: (error: unknown) => void;
}

export interface ParseWorkerOptions {
  /**
   * How long stored batches may hold one turn of the event loop; 0 (the default) stores one batch per turn: on a
   * thread that answers requests, up to 64 MiB of waiting lines stored in one go kept a click waiting for
   * seconds. The write worker answers no request, but it must still hear a cancel: it stores for up to
   * WRITE_WORKER_TURN_MS per turn (storing without ever yielding kept `arbor import` from stopping on SIGTERM).
   */
  readonly turnBudgetMs?: number;
  /** Tests: told of each file's end as it arrives, before it is delivered (so a test knows every batch has arrived). */
  readonly onEndArrived?: () => void;
}

/** The write worker's turn budget: a batch per turn cost it throughput, and a cancel still waits at most this. */
export const WRITE_WORKER_TURN_MS = 100;

/**
 * The import's two worker threads (this parser and the write worker) keep a small young generation: each
 * batch's parsed nodes and cloned messages die young, and V8's default semi-spaces let them hold tens of MB of
 * garbage between scavenges. One 239 MB transcript peaked at 519–538 MB RSS without it and 456–498 MB with it
 * (budget 500 MB; same load, same CPU time and bytes written; 454–461 MB with 32 MiB in flight, import-worker.ts). No change of the previous session raised the
 * peak: its starting code (8d1703b) measured 525 MB at that load too.
 *
 * Their old generation is capped too. Under Node's default limit (4 GB on this machine) V8 lets an old generation grow
 * to up to 4× what survived its last full collection before collecting again; under 512 MB that factor is ~1.4×. The
 * write worker keeps ~25 MB (heap snapshot at the peak of a 239 MB import) and its heap stood at 95–107 MB, the parse
 * worker's at 55–64 MB; capped at 512 MB, 60–69 and 30–35 MB, and the import peak of a 955 MB transcript went from 500
 * to 394 MB RSS (outside sampler; the write worker has its own, higher cap below). Neither thread keeps more than a batch and its recent ids; the worst single parse, a 64 MiB
 * line (line-reader.ts's cut) of 8M tiny objects, takes ~324 MB of heap and still fits.
 */
export const WORKER_HEAP_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 } as const;

/**
 * The write worker's: its old generation turns over a batch's nodes and statements' strings on every batch, so at
 * 512 MB it ran 72 full collections on a 239 MB import (14 uncapped; 1.1 s more of its thread, the one that sets the
 * pace: 31.0 -> 37.9 cpu-ms/MB). At 1024 MB (growing factor ~1.6x) 51 collections and 35.3 cpu-ms/MB, with the same
 * peak (378 MB at 239 MB, 400 MB at 955 MB); at 2048 MB 14 collections, no CPU cost, but 444 / 483 MB.
 */
export const WRITE_WORKER_HEAP_LIMITS = { ...WORKER_HEAP_LIMITS, maxOldGenerationSizeMb: 1024 } as const;

export function startParseWorker(options: ParseWorkerOptions = {}): ParseWorker {
  const turnBudgetMs = options.turnBudgetMs ?? 0;
  const entry = workerEntry();
  const worker = new Worker(entry.filename, { execArgv: [...entry.execArgv, ...profilingArgv()], resourceLimits: WORKER_HEAP_LIMITS });
  const inbox: FromWorker[] = [];
  let consumer: Consumer | null = null;
  let failure: ParseWorkerFailedError | null = null;
  let loaded = false;
  let settleReady: (ok: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    settleReady = resolve;
  });

  const fail = (cause: unknown): void => {
    if (failure !== null) return;
    failure = new ParseWorkerFailedError(cause);
    settleReady(false);
    const current = consumer;
    consumer = null;
    current?.reject(failure);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
  worker.on('message', (message: FromWorker) => {
    if (message.type === 'ready') {
      loaded = true;
      settleReady(true);
      return;
    }
    inbox.push(message);
    if (message.type === 'end') options.onEndArrived?.();
    deliver();
  });

  /** Set once a batch was stored in this turn of the event loop; past the turn's budget the next waits for the next turn. */
  let batchThisTurn = false;
  let turnStarted = 0;
  let nextTurnScheduled = false;
  const deliverNextTurn = (): void => {
    if (nextTurnScheduled) return;
    nextTurnScheduled = true;
    setImmediate(() => {
      nextTurnScheduled = false;
      batchThisTurn = false;
      deliver();
    });
  };
  /**
   * Hands the consumer what has arrived for its file (messages come in file order), for at most the turn's
   * budget per turn of the event loop (turnBudgetMs).
   */
  function deliver(): void {
    while (consumer !== null && inbox.length > 0) {
      if (batchThisTurn && inbox[0]?.type === 'batch' && performance.now() - turnStarted >= turnBudgetMs) {
        deliverNextTurn();
        return;
      }
      const message = inbox.shift() as FromWorker;
      const current = consumer;
      try {
        if (message.type === 'batch') {
          deliverBatch(message, current);
          post({ type: 'ack', bytes: message.bytes });
          if (!batchThisTurn) {
            batchThisTurn = true;
            turnStarted = performance.now();
            deliverNextTurn();
          }
        } else if (message.type === 'end') {
          consumer = null;
          current.resolve({
            endOffset: message.endOffset,
            endLine: message.endLine,
            ...(message.resumeState !== undefined ? { resumeState: message.resumeState } : {}),
            ...(message.resumeKeys !== undefined ? { resumeKeys: message.resumeKeys } : {}),
          });
        } else if (message.type === 'failed') {
          consumer = null;
          current.reject(message.code === undefined ? new Error(message.message) : new ArborError(message.code, message.message));
        }
      } catch (error) {
        // The sink failed (the store): the import stops as an in-thread parse would.
        consumer = null;
        current.reject(error);
      }
    }
  }

  function post(message: ToWorker): void {
    worker.postMessage(message);
  }

  return {
    isReady: () => loaded && failure === null,
    ready,
    start(jobs) {
      post({ type: 'parse', jobs });
    },
    next(sink, onBytes, signal) {
      if (failure !== null) return Promise.reject(failure);
      if (signal?.aborted) return Promise.reject(new CancelledError());
      return new Promise<ParseResult>((resolve, reject) => {
        const onAbort = (): void => {
          consumer = null;
          reject(new CancelledError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        consumer = {
          sink,
          onBytes,
          resolve: (result) => (done(), resolve(result)),
          reject: (error) => (done(), reject(error)),
        };
        deliver();
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      worker.removeAllListeners('error');
      // An error after close (terminating mid-read) is nobody's concern.
      worker.on('error', () => {});
      await worker.terminate();
    },
  };
}

function deliverBatch(message: Extract<FromWorker, { type: 'batch' }>, consumer: Consumer): void {
  const { kinds, items } = message;
  if (message.blocks.length > 0) consumer.sink.blocksAhead?.(message.blocks);
  for (let index = 0; index < items.length; index++) {
    const kind = kinds[index];
    if (kind === NODE_ITEM) {
      const node = items[index] as Mutable<ParsedNode>;
      node.raw = asBuffer(node.raw);
      consumer.sink.node(node);
    } else if (kind === RECORD_ITEM) {
      const record = items[index] as Mutable<ParsedRecord>;
      record.raw = asBuffer(record.raw);
      consumer.sink.record(record);
    } else {
      consumer.sink.problem(items[index] as ImportProblem);
    }
  }
  consumer.onBytes(message.bytesRead);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A cloned Buffer arrives as a plain Uint8Array over the transferred memory: the same bytes, as a Buffer. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The CPU-profiling flags this thread runs with (`node --cpu-prof`), for a worker it starts: a worker given its own
 * execArgv inherits none, and a profile of an import without its workers shows an idle thread.
 */
export function profilingArgv(): string[] {
  return process.execArgv.filter((arg) => arg.startsWith('--cpu-prof'));
}

/**
 * From TypeScript source (tsx, vitest) the worker runs import-worker.ts with tsx's CommonJS hook; bundled,
 * it is import-worker.js beside the main bundle (or one folder up, from a shared chunk).
 */
function workerEntry(): { readonly filename: string; readonly execArgv: string[] } {
  if (__filename.endsWith('.ts')) {
    const tsx = createRequire(__filename).resolve('tsx/cjs');
    return { filename: join(__dirname, 'import-worker.ts'), execArgv: ['--require', tsx] };
  }
  const bundled = [join(__dirname, 'import-worker.js'), join(__dirname, '..', 'import-worker.js')];
  return { filename: bundled.find((path) => existsSync(path)) ?? (bundled[0] as string), execArgv: [] };
}
