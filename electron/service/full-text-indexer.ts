/**
 * Fills the full-text index in the background after an import has returned: small chunks, one
 * transaction each, yielding to the event loop between them so requests are served meanwhile.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SessionStore } from '../db/session-store';

export interface FullTextIndexer {
  /** Starts indexing what is pending (no-op when already running; new rows are picked up). */
  kick(): void;
  /** Resolves when nothing is pending or indexing is paused for an import. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface IndexerOptions {
  readonly chunkRows?: number;
  /** While true (an import is writing), the indexer steps aside; the import kicks it when done. */
  readonly paused?: () => boolean;
  readonly onProgress?: (progress: { done: number; total: number }) => void;
}

export function createFullTextIndexer(store: SessionStore, options: IndexerOptions = {}): FullTextIndexer {
  const chunkRows = options.chunkRows ?? 2000;
  let running: Promise<void> | null = null;
  let stopped = false;
  // Kept, not thrown from kick(): nobody awaits the background run, so idle() reports it instead.
  let failure: unknown = null;

  async function run(): Promise<void> {
    let total = store.pendingIndexRows();
    let done = 0;
    while (!stopped && !(options.paused?.() ?? false)) {
      const consumed = store.indexNextChunk(chunkRows);
      if (consumed === 0) break;
      done += consumed;
      // Nodes imported meanwhile grow the job.
      if (done > total) total = done + store.pendingIndexRows();
      options.onProgress?.({ done, total: Math.max(total, done) });
      await nextTurn();
    }
  }

  return {
    kick() {
      if (running !== null || stopped) return;
      running = run()
        .catch((error: unknown) => {
          failure = error;
        })
        .finally(() => {
          running = null;
        });
    },
    async idle() {
      await running;
      if (failure !== null) {
        const error = failure;
        failure = null;
        throw error;
      }
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
