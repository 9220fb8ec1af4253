import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../../electron/db/session-store';
import { createFullTextIndexer } from '../../../../electron/service/full-text-indexer';

/** A store whose indexing costs `msPerRow` on an injected clock, with `pending` rows to index. */
function slowStore(pending: number, msPerRow: number, uncompressed = 0, mergeSteps = 0, uncounted = 0, unpaired = 0) {
  let clock = 0;
  const asked: number[] = [];
  const steps: string[] = [];
  const store = {
    pendingIndexRows: () => pending,
    indexNextChunk: (rows: number) => {
      const consumed = Math.min(rows, pending);
      pending -= consumed;
      asked.push(rows);
      if (consumed > 0) steps.push('index');
      clock += consumed * msPerRow;
      return consumed;
    },
    mergeIndexStep: () => {
      if (mergeSteps === 0) return 0;
      mergeSteps--;
      steps.push('merge');
      clock += 10;
      return 1;
    },
    pendingFacetRewriteRows: () => unpaired,
    rewriteFacetsChunk: (rows: number) => {
      const consumed = Math.min(rows, unpaired);
      unpaired -= consumed;
      if (consumed > 0) steps.push('pairs');
      clock += consumed * msPerRow;
      return consumed;
    },
    pendingUsageRows: () => uncounted,
    backfillUsageChunk: (rows: number) => {
      const consumed = Math.min(rows, uncounted);
      uncounted -= consumed;
      if (consumed > 0) steps.push('usage');
      clock += consumed * msPerRow;
      return consumed;
    },
    pendingCompactionRows: () => uncompressed,
    compactNextChunk: (rows: number) => {
      const consumed = Math.min(rows, uncompressed);
      uncompressed -= consumed;
      if (consumed > 0) steps.push('compact');
      clock += consumed * msPerRow;
      return consumed;
    },
  } as unknown as SessionStore;
  return { store, asked, steps, now: () => clock, left: () => ({ pending, uncompressed, uncounted }) };
}

describe('full-text indexer', () => {
  it('sizes chunks so a request never waits long behind one (regression: 2000-row chunks took 40–113 ms)', async () => {
    const { store, asked, now } = slowStore(10_000, 0.4);
    const progress: number[] = [];
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now, onProgress: (p) => progress.push(p.done) });
    indexer.kick();
    await indexer.idle();
    expect(asked[0]).toBe(250); // first chunk: 100 ms at 0.4 ms a row
    expect(asked[1]).toBe(50); // then sized to 20 ms
    expect(asked.slice(2, -1).every((rows) => rows === 50)).toBe(true);
    expect(progress.at(-1)).toBe(10_000);
  });

  it('regression: an append right after a big import waited for a whole 50,000-row chunk (1.9 s); each run starts with a small chunk, then takes whole ones', async () => {
    const { store, asked } = slowStore(120_000, 0.02);
    const indexer = createFullTextIndexer(store, { chunkRows: 100, minChunkRows: 100, maxChunkRows: 50_000, smallFirstChunk: true });
    indexer.kick();
    await indexer.idle();
    // Whole chunks after the first, not sized by time: small chunks are small FTS5 segments, merged again.
    expect(asked.slice(0, 4)).toEqual([100, 50_000, 50_000, 50_000]);
  });

  it('regression: a loaded machine shrank chunks to 20 rows, and indexing wrote 14.7× its input; a floor keeps them whole', async () => {
    const { store, asked, now } = slowStore(10_000, 2);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, minChunkRows: 1000, now });
    indexer.kick();
    await indexer.idle();
    expect(asked.slice(0, -1).every((rows) => rows === 1000)).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(11);
  });

  it('asks for chunks of a fixed size when bounded both ways (the write worker: the store ends them at their text)', async () => {
    const { store, asked, now } = slowStore(120_000, 2);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, minChunkRows: 50_000, maxChunkRows: 50_000, now });
    indexer.kick();
    await indexer.idle();
    expect(asked.slice(0, 3)).toEqual([50_000, 50_000, 50_000]);
  });

  it('grows chunks when rows are cheap, up to a bound', async () => {
    const { store, asked, now } = slowStore(100_000, 0.001);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(Math.max(...asked)).toBe(5000);
  });

  it('compresses the raw lines of a store made before migration 013 once the index is up to date', async () => {
    const { store, steps, now, left } = slowStore(1000, 0.4, 3000);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(left()).toEqual({ pending: 0, uncompressed: 0, uncounted: 0 });
    expect(steps.indexOf('compact')).toBeGreaterThan(steps.lastIndexOf('index'));
  });

  it('counts the tokens of a store made before migration 023 in chunks once the index is up to date, before merging it', async () => {
    const { store, steps, now, left } = slowStore(1000, 0.4, 0, 2, 4000);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(left().uncounted).toBe(0);
    // Chunked: many short transactions, not one holding the writer for the whole store.
    expect(steps.filter((step) => step === 'usage').length).toBeGreaterThan(10);
    expect(steps.indexOf('usage')).toBeGreaterThan(steps.lastIndexOf('index'));
    expect(steps.indexOf('merge')).toBeGreaterThan(steps.lastIndexOf('usage'));
  });

  it('indexes again the few-row kinds of a store made before migration 039 once the index is up to date, in chunks, before merging it', async () => {
    const { store, steps, now } = slowStore(1000, 0.4, 0, 2, 0, 3000);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(store.pendingFacetRewriteRows()).toBe(0);
    expect(steps.filter((step) => step === 'pairs').length).toBeGreaterThan(10);
    expect(steps.indexOf('pairs')).toBeGreaterThan(steps.lastIndexOf('index'));
    expect(steps.indexOf('merge')).toBeGreaterThan(steps.lastIndexOf('pairs'));
  });

  it('merges the index in steps once it is up to date, before compressing old rows', async () => {
    const { store, steps, now } = slowStore(1000, 0.4, 500, 3);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(steps.filter((step) => step === 'merge')).toHaveLength(3);
    expect(steps.indexOf('merge')).toBeGreaterThan(steps.lastIndexOf('index'));
    expect(steps.indexOf('compact')).toBeGreaterThan(steps.lastIndexOf('merge'));
  });

  it('steps aside for an import while compressing old rows too', async () => {
    let importing = false;
    const { store, now, left } = slowStore(0, 0.4, 3000);
    const real = store.compactNextChunk.bind(store);
    store.compactNextChunk = (rows) => {
      importing = true; // an import starts during the first chunk
      return real(rows);
    };
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now, paused: () => importing });
    indexer.kick();
    await indexer.idle();
    expect(left().uncompressed).toBe(3000 - 250);
  });

  it('regression: an append waited for the whole chunk under way; in slices, an interrupt rolls it back and the next chunks take half the rows it reached, then grow back', async () => {
    let pending = 100_000;
    const asked: number[] = [];
    const interrupted: number[] = [];
    let importing = false;
    let indexer: ReturnType<typeof createFullTextIndexer> | null = null;
    let resumed: () => void = () => undefined;
    const afterAppend = new Promise<void>((resolve) => (resumed = resolve));
    const store = {
      pendingIndexRows: () => pending,
      // 1000 rows a slice; the chunk commits its rows only at its last slice.
      startIndexChunk: (rows: number) => {
        asked.push(rows);
        const wanted = Math.min(rows, pending);
        let reached = 0;
        return {
          advance: () => {
            reached = Math.min(wanted, reached + 1000);
            // The append arrives as the third chunk reaches 4000 rows: the write worker interrupts it.
            if (asked.length === 3 && reached === 4000 && interrupted.length === 0) {
              importing = true;
              indexer!.interrupt();
              setTimeout(() => {
                importing = false;
                indexer!.kick();
                resumed();
              }, 5);
              return null;
            }
            if (reached < wanted) return null;
            pending -= wanted;
            return wanted;
          },
          interrupt: () => {
            interrupted.push(reached);
            return reached;
          },
        };
      },
      pendingFacetRewriteRows: () => 0,
      rewriteFacetsChunk: () => 0,
      pendingUsageRows: () => 0,
      backfillUsageChunk: () => 0,
      startIndexMerge: () => ({ advance: () => 0, interrupt: () => 0 }),
      pendingCompactionRows: () => 0,
      compactNextChunk: () => 0,
    } as unknown as SessionStore;
    indexer = createFullTextIndexer(store, { chunkRows: 100, minChunkRows: 100, maxChunkRows: 50_000, smallFirstChunk: true, sliceMs: 20, paused: () => importing });
    indexer.kick();
    await afterAppend;
    await indexer.idle();
    expect(interrupted).toEqual([4000]);
    expect(pending).toBe(0);
    // Run 1: small first chunk, then whole ones (the third interrupted); run 2: small, then half of 4000, growing back.
    expect(asked.slice(0, 7)).toEqual([100, 50_000, 50_000, 100, 2000, 4000, 8000]);
  });

  it('defers checkpoints while a run indexes, folding a large WAL between chunks and the WAL once the run ends (issue 12: each version of the pages FTS5 reuses was copied back)', async () => {
    const { store, steps } = slowStore(3000, 0.01);
    const calls: string[] = [];
    Object.assign(store, {
      deferCheckpoints: (on: boolean) => calls.push(on ? 'defer' : 'restore'),
      foldLargeWal: () => calls.push(`fold-large after ${steps.length}`),
      foldWal: () => calls.push('fold'),
    });
    const indexer = createFullTextIndexer(store, { chunkRows: 1000, minChunkRows: 1000, maxChunkRows: 1000, foldsWal: true });
    indexer.kick();
    await indexer.idle();
    expect(calls).toEqual(['defer', 'fold-large after 1', 'fold-large after 2', 'fold-large after 3', 'restore', 'fold']);
  });

  it('leaves the checkpointing to the import that paused the run', async () => {
    let importing = false;
    const { store } = slowStore(3000, 0.01);
    const calls: string[] = [];
    const real = store.indexNextChunk.bind(store);
    Object.assign(store, {
      deferCheckpoints: (on: boolean) => calls.push(on ? 'defer' : 'restore'),
      foldLargeWal: () => undefined,
      foldWal: () => calls.push('fold'),
      indexNextChunk: (rows: number) => {
        importing = true;
        return real(rows);
      },
    });
    const indexer = createFullTextIndexer(store, { chunkRows: 1000, minChunkRows: 1000, maxChunkRows: 1000, foldsWal: true, paused: () => importing });
    indexer.kick();
    await indexer.idle();
    expect(calls).toEqual(['defer']);
  });
});

