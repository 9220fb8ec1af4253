import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../../electron/db/session-store';
import { createFullTextIndexer } from '../../../../electron/service/full-text-indexer';

/** A store whose indexing costs `msPerRow` on an injected clock, with `pending` rows to index. */
function slowStore(pending: number, msPerRow: number) {
  let clock = 0;
  const asked: number[] = [];
  const store = {
    pendingIndexRows: () => pending,
    indexNextChunk: (rows: number) => {
      const consumed = Math.min(rows, pending);
      pending -= consumed;
      asked.push(rows);
      clock += consumed * msPerRow;
      return consumed;
    },
  } as unknown as SessionStore;
  return { store, asked, now: () => clock };
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

  it('grows chunks when rows are cheap, up to a bound', async () => {
    const { store, asked, now } = slowStore(100_000, 0.001);
    const indexer = createFullTextIndexer(store, { chunkMs: 20, now });
    indexer.kick();
    await indexer.idle();
    expect(Math.max(...asked)).toBe(5000);
  });
});
