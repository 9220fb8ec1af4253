/**
 * Messages between the service (import-worker-host.ts) and the write worker (import-write-worker.ts), which
 * runs whole imports, and the full-text indexing after them, on its own connection to the store. Everything here is plain data: the outcome, the
 * progress and the error (`{ code, message, data }`) are cloned across.
 */
import type { ArborErrorData } from '../../shared/errors';
import type { ImportProgress, SessionId } from '../../shared/model';
import type { ImportOutcome } from './import-sessions';

export interface WriteWorkerData {
  /** The store file the service has open (and has migrated): the worker opens its own connection to it. */
  readonly storeFile: string;
  /** Claude Code's config folder: the file-history backups imported lines name are copied from it (file-history-archive.ts). */
  readonly claudeConfigDir?: string;
  /** Tests: rows per full-text indexing chunk (default INDEX_CHUNK_ROWS in import-write-worker.ts), so a small corpus spans several. */
  readonly indexChunkRows?: number;
}

export type ToWriteWorker =
  | { readonly type: 'run'; readonly jobId: string; readonly paths: readonly string[] }
  | { readonly type: 'cancel'; readonly jobId: string }
  /** Index what is pending (the worker also does after each import, failed and cancelled ones too). */
  | { readonly type: 'index' }
  /** Answer `indexed` with this id once the worker's indexer has nothing left (or steps aside for an import). */
  | { readonly type: 'index-idle'; readonly requestId: number }
  /** Close the store and exit (the service is closing, nothing is running). */
  | { readonly type: 'close' };

export type FromWriteWorker =
  | { readonly type: 'progress'; readonly progress: ImportProgress }
  | { readonly type: 'sessions-changed'; readonly jobId: string; readonly sessionIds: readonly SessionId[] }
  | { readonly type: 'done'; readonly jobId: string; readonly outcome: ImportOutcome }
  | { readonly type: 'index-progress'; readonly progress: { readonly done: number; readonly total: number } }
  /** The answer to `index-idle`; `error` is what stopped the indexer, if anything did. */
  | { readonly type: 'indexed'; readonly requestId: number; readonly error: ArborErrorData | null }
  | { readonly type: 'failed'; readonly jobId: string; readonly error: ArborErrorData };
