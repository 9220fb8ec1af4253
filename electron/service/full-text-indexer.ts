/**
 * Fills the full-text index in the background after an import has returned: small chunks, one
 * transaction each, yielding to the event loop between them so requests are served meanwhile. The import
 * stores no search text for most nodes (it is off its hot path): each chunk derives it from the raw lines.
 * Once the index is up to date, the same loop indexes again the rows indexed before migration 039 (their
 * kind×project token: search-facet-rewrite.ts), counts the tokens of the lines a store held before migration 023
 * (usage-backfill.ts), merges the index into one segment when it has grown enough, then compresses the raw lines
 * a store held before migration 013 (nothing to do in a store created since either).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexChunk } from '../db/search';
import type { DeriveSearchText, SessionStore } from '../db/session-store';
import { deriveSearchText } from '../importers/search-text';

export interface FullTextIndexer {
  /** Starts indexing what is pending (no-op when already running; new rows are picked up). */
  kick(): void;
  /** Resolves when nothing is pending or indexing is paused for an import. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** The indexer of the thread that writes: its chunk under way can be ended at once for a write of its own. */
export interface LocalFullTextIndexer extends FullTextIndexer {
  /**
   * Rolls back the chunk under way (with `sliceMs`, it stays open between its slices), so that the caller can write
   * on the store's connection now; the indexer takes it again, smaller, once it is no longer paused.
   */
  interrupt(): void;
}

export interface IndexerOptions {
  /** Rows of the first chunk; later chunks are sized to take about `chunkMs` each. */
  readonly chunkRows?: number;
  /** Target time of one chunk: a request arriving meanwhile (a graph, a search) waits at most about this long. */
  readonly chunkMs?: number;
  /**
   * Rows a chunk holds at least, however long it takes. Each chunk is a transaction, and each transaction
   * writes FTS5 a new segment (merged again later) and its 64 KiB pages of structure, sizes and meta: on a
   * loaded machine 20-row chunks wrote 14.7× the transcripts' bytes to index them.
   */
  readonly minChunkRows?: number;
  /** Rows a chunk holds at most (default 5000); the store also ends a chunk at its bytes of text (search.ts). */
  readonly maxChunkRows?: number;
  /**
   * Each run (each kick: an import has just ended) starts with a chunk of `chunkRows`, then takes `maxChunkRows`
   * (and the store's text cap) at once, not sized by time: an append that follows an import at once (a live
   * session's next lines) waits for that small chunk, not for a 4 MB one (~1.3 s of CPU; issue 12). One small
   * segment a run: growing chunks step by step made several, and FTS5 merged them with the big ones again.
   */
  readonly smallFirstChunk?: boolean;
  /**
   * Does each chunk in slices of about this long, yielding to the event loop between them with the chunk's
   * transaction open (one transaction, one FTS5 segment, as unsliced): a write arriving meanwhile calls
   * interrupt() and waits for one slice, not for the chunk (~1.3 s of CPU for 4 MB of text; issue 12). A chunk
   * rolled back so is taken again at half the rows it had reached, and chunks grow back twofold when they complete,
   * so that appends arriving every second still let indexing through. Unset: each chunk in one go.
   */
  readonly sliceMs?: number;
  /**
   * While a run writes, checkpoints are the indexer's: the WAL is folded back past the bulk bound between chunks and
   * once the run ends, not every 256 pages (FTS5 reuses the pages of the segments it merged, and each checkpoint
   * copied every version of them). Not restored while paused: the import that paused it sets its own.
   */
  readonly foldsWal?: boolean;
  readonly now?: () => number;
  /** While true (an import is writing), the indexer steps aside; the import kicks it when done. */
  readonly paused?: () => boolean;
  readonly onProgress?: (progress: { done: number; total: number }) => void;
  /** A node's search text from its raw line when the import deferred it. Default: the formats' own readers. */
  readonly derive?: DeriveSearchText;
}

export function createFullTextIndexer(store: SessionStore, options: IndexerOptions = {}): LocalFullTextIndexer {
  const firstChunkRows = options.chunkRows ?? 250;
  const chunkMs = options.chunkMs ?? 20;
  const minChunkRows = options.minChunkRows ?? 20;
  const maxChunkRows = Math.max(options.maxChunkRows ?? 5000, minChunkRows);
  const now = options.now ?? (() => performance.now());
  const derive = options.derive ?? deriveSearchText;
  let running: Promise<void> | null = null;
  let stopped = false;
  // Kept, not thrown from kick(): nobody awaits the background run, so idle() reports it instead.
  let failure: unknown = null;
  let again = false;
  // With sliceMs: the chunk (or merge) under way, and the rows of the chunks after the first (fewer after an interruption).
  let open: { readonly chunk: IndexChunk; readonly rows: boolean } | null = null;
  let wholeRows = maxChunkRows;
  const paused = (): boolean => options.paused?.() ?? false;

  function interrupt(): void {
    if (open === null) return;
    const { chunk, rows } = open;
    open = null;
    const reached = chunk.interrupt();
    if (rows) wholeRows = Math.max(minChunkRows, Math.min(wholeRows, Math.floor(reached / 2)));
  }

  /** One chunk in slices of sliceMs: what it consumed, or null when it was interrupted. */
  async function sliced(chunk: IndexChunk, rows: boolean, sliceMs: number): Promise<number | null> {
    const current = { chunk, rows };
    open = current;
    try {
      for (;;) {
        const consumed = chunk.advance(sliceMs);
        if (consumed !== null) {
          open = null;
          return consumed;
        }
        // A message may come in here: an import of this thread interrupts the chunk before it writes.
        await nextTurn();
        if (open !== current) return null;
        if (stopped || paused()) {
          interrupt();
          return null;
        }
      }
    } catch (error) {
      if (open === current) open = null;
      chunk.interrupt();
      throw error;
    }
  }

  /** One chunk of the index: the rows it consumed (0 = up to date), or null when it was interrupted. */
  async function indexChunk(rows: number): Promise<number | null> {
    if (options.sliceMs === undefined) return store.indexNextChunk(rows, derive);
    const consumed = await sliced(store.startIndexChunk(rows, derive), true, options.sliceMs);
    // Not the small first chunk of a run: only a whole chunk that got through says whole ones fit again.
    if (consumed !== null && consumed > 0 && rows >= wholeRows) wholeRows = Math.min(maxChunkRows, wholeRows * 2);
    return consumed;
  }

  /** One step of merging the index: 1 while work remains, 0 once merged; null when interrupted. */
  async function mergeStep(): Promise<number | null> {
    if (options.sliceMs === undefined) return store.mergeIndexStep();
    return sliced(store.startIndexMerge(), false, options.sliceMs);
  }

  async function run(): Promise<void> {
    if (options.foldsWal !== true || store.pendingIndexRows() === 0) return runSteps();
    store.deferCheckpoints(true);
    try {
      await runSteps();
    } finally {
      // Paused: an import has set its own checkpointing, and folds its WAL as it ends.
      if (!paused()) {
        store.deferCheckpoints(false);
        store.foldWal();
      }
    }
  }

  async function runSteps(): Promise<void> {
    await work(() => store.pendingIndexRows(), indexChunk, options.onProgress);
    // Rows indexed before migration 039 get their kind×project token; until then searches match the old way.
    await work(() => store.pendingFacetRewriteRows(), (rows) => store.rewriteFacetsChunk(rows, derive));
    // Before the merge: until it is done, the Statistics view says its figures are partial.
    await work(() => store.pendingUsageRows(), (rows) => store.backfillUsageChunk(rows));
    // Up to date: merge the index into one segment when it has grown enough (search.ts), in short steps.
    if (!stopped && !paused() && store.pendingIndexRows() === 0) await work(() => 1, mergeStep);
    await work(() => store.pendingCompactionRows(), (rows) => store.compactNextChunk(rows));
  }

  /** Chunks of `step` until it consumes nothing, or the indexer stops or steps aside (a null step was interrupted). */
  async function work(
    pending: () => number,
    step: (rows: number) => number | null | Promise<number | null>,
    onProgress?: IndexerOptions['onProgress'],
  ): Promise<void> {
    let total = pending();
    let done = 0;
    let chunkRows = Math.max(firstChunkRows, minChunkRows);
    while (!stopped && !paused()) {
      const started = now();
      const consumed = await step(chunkRows);
      if (consumed === null) continue;
      if (consumed === 0) break;
      // Rows vary from bytes to megabytes: size the next chunk by how long this one took.
      const elapsed = Math.max(now() - started, 0.5);
      chunkRows =
        options.smallFirstChunk === true
          ? options.sliceMs === undefined
            ? maxChunkRows
            : wholeRows
          : Math.round(Math.min(maxChunkRows, Math.max(minChunkRows, (chunkRows * chunkMs) / elapsed)));
      done += consumed;
      if (options.foldsWal === true) store.foldLargeWal();
      // Nodes imported meanwhile grow the job.
      if (done > total) total = done + pending();
      onProgress?.({ done, total: Math.max(total, done) });
      await nextTurn();
    }
  }

  function kick(): void {
    if (stopped) return;
    if (running !== null) {
      // The run may be finishing (it saw nothing left, or stepped aside): go round once more.
      again = true;
      return;
    }
    // Set at once so idle() waits for it; the work starts on a later turn, after the caller got its result.
    running = nextTurn()
      .then(run)
      .catch((error: unknown) => {
        failure = error;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    interrupt,
    async idle() {
      while (running !== null) await running;
      if (failure !== null) {
        const error = failure;
        failure = null;
        throw error;
      }
    },
    async stop() {
      stopped = true;
      interrupt();
      await running;
    },
  };
}
