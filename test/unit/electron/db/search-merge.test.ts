import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { FTS_AUTOMERGE, FTS_CRISISMERGE } from '../../../../electron/db/migrations/025-search-merge';
import { openSessionStore, type SessionStore } from '../../../../electron/db/session-store';
import { facetTokens, searchRowid } from '../../../../electron/db/search-query';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-search-merge-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** FTS5's segments: their leaves' rowids are the segment id shifted past the page and height bits. */
const segments = (db: Database.Database): number =>
  (db.prepare('SELECT count(DISTINCT id >> 37) AS n FROM node_text_data WHERE id >= (1 << 37)').get() as { n: number }).n;

const config = (db: Database.Database): Record<string, unknown> =>
  Object.fromEntries((db.prepare('SELECT k, v FROM node_text_config').all() as { k: string; v: unknown }[]).map((row) => [row.k, row.v]));

/** Rows written straight into the index, one transaction (so one segment) per batch, as the indexer's chunks do. */
function fillIndex(db: Database.Database, batches: number, perBatch: number, firstSeq = 1): void {
  const insert = db.prepare('INSERT INTO node_text (rowid, text, facets, head, length) VALUES (?, ?, ?, ?, ?)');
  const facets = facetTokens({ kind: 'user', sessionId: 'S1', project: '/p', agentId: null, sidechain: false });
  let seq = firstSeq;
  for (let batch = 0; batch < batches; batch++) {
    db.transaction(() => {
      for (let i = 0; i < perBatch; i++, seq++) {
        const text = `deploy parser number ${seq} batch ${batch}`;
        insert.run(searchRowid(new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString(), seq), text, facets, text, text.length);
      }
    })();
  }
}

describe('migration 025', () => {
  it('moves a store indexed by the previous schema to the new merge settings without re-indexing it', () => {
    const path = join(dir, 'arbor.sqlite');
    const old = new Database(path) as WritableDB;
    migrate(old, MIGRATIONS.filter((migration) => migration.version < 25));
    fillIndex(old, 3, 10);
    old.prepare(`UPDATE meta SET value = 30 WHERE key = 'fts_indexed_upto'`).run();
    expect(config(old).automerge).toBeUndefined();
    old.close();

    // Up to the schema before 043, which builds the index again (two-letter prefixes).
    migrate(new Database(path) as WritableDB, MIGRATIONS.filter((migration) => migration.version < 43));
    const db = new Database(path);
    try {
      expect(config(db)).toMatchObject({ automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE });
      // The rows indexed before stay (the watermark too): nothing is read again.
      expect((db.prepare(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`).get() as { value: number }).value).toBe(30);
      expect((db.prepare(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH 'text : deploy'`).get() as { n: number }).n).toBe(30);
      expect((db.prepare(`SELECT value FROM meta WHERE key = 'fts_merged_upto'`).get() as { value: number }).value).toBe(0);
    } finally {
      db.close();
    }
  });
});

describe('mergeIndexStep', () => {
  let store: SessionStore;
  afterEach(() => store.close());

  const setIndexed = (rows: number): void => {
    store.handles.write.prepare(`UPDATE meta SET value = ? WHERE key = 'fts_indexed_upto'`).run(rows);
  };

  it('merges an index grown past its bound into one segment, in bounded steps, and the matches stay', () => {
    store = openSessionStore(join(dir, 'arbor.sqlite'));
    const db = store.handles.write;
    // 12 segments: fewer than automerge, so FTS5 leaves them apart.
    fillIndex(db, 12, 1000);
    setIndexed(120_000);
    expect(segments(db)).toBe(12);
    let steps = 0;
    while (store.mergeIndexStep() > 0) steps++;
    expect(steps).toBeGreaterThan(1);
    expect(segments(db)).toBe(1);
    expect((db.prepare(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH 'text : parser'`).get() as { n: number }).n).toBe(12_000);
    // Merged at 120k rows (the watermark says so; fewer are written here): not again until the index has doubled.
    expect(store.mergeIndexStep()).toBe(0);
    fillIndex(db, 3, 1000, 12_001);
    setIndexed(150_000);
    expect(store.mergeIndexStep()).toBe(0);
    expect(segments(db)).toBe(4);
    fillIndex(db, 9, 1000, 15_001);
    setIndexed(240_000);
    while (store.mergeIndexStep() > 0);
    expect(segments(db)).toBe(1);
  });

  it('leaves a small index as it is: tens of thousands of rows are not worth a merge', () => {
    store = openSessionStore(join(dir, 'arbor.sqlite'));
    fillIndex(store.handles.write, 5, 100);
    setIndexed(50_000);
    expect(store.mergeIndexStep()).toBe(0);
    expect(segments(store.handles.write)).toBe(5);
  });

  /** WAL frames (pages) written by `work`, from a WAL folded back before it. */
  const framesOf = (db: Database.Database, work: () => void): number => {
    db.pragma('wal_checkpoint(TRUNCATE)');
    work();
    return (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
  };

  it('regression: one merge step per transaction wrote the input segments\' pages again at every step (a 1 GB transcript\'s indexing wrote 4.8× its input); in slices, many steps share a transaction', () => {
    const merged: { frames: number; segments: number; matches: number }[] = [];
    for (const sliced of [false, true]) {
      store = openSessionStore(join(dir, `arbor-${sliced}.sqlite`));
      const db = store.handles.write;
      fillIndex(db, 12, 4000);
      setIndexed(120_000);
      const frames = framesOf(db, () => {
        if (!sliced) while (store.mergeIndexStep() > 0);
        else
          for (;;) {
            const merge = store.startIndexMerge();
            let done: number | null;
            while ((done = merge.advance(5)) === null);
            if (done === 0) break;
          }
      });
      merged.push({ frames, segments: segments(db), matches: (db.prepare(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH 'text : parser'`).get() as { n: number }).n });
      store.close();
    }
    const [stepwise, sliced] = merged as [(typeof merged)[0], (typeof merged)[0]];
    expect(sliced.segments).toBe(1);
    expect(sliced.matches).toBe(48_000);
    expect(stepwise.matches).toBe(48_000);
    expect(sliced.frames).toBeLessThan(stepwise.frames / 2);
    store = openSessionStore(join(dir, 'arbor.sqlite')); // closed by afterEach
  });

  it('commits what an interrupted merge did: the next one goes on from there to one segment', () => {
    store = openSessionStore(join(dir, 'arbor.sqlite'));
    const db = store.handles.write;
    fillIndex(db, 12, 4000);
    setIndexed(120_000);
    const merge = store.startIndexMerge();
    expect(merge.advance(0)).toBeNull();
    expect(merge.interrupt()).toBe(1);
    expect(db.inTransaction).toBe(false);
    expect(segments(db)).toBeGreaterThan(1);
    for (;;) {
      const next = store.startIndexMerge();
      let done: number | null;
      while ((done = next.advance(50)) === null);
      if (done === 0) break;
    }
    expect(segments(db)).toBe(1);
    expect((db.prepare(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH 'text : parser'`).get() as { n: number }).n).toBe(48_000);
    expect(store.startIndexMerge().advance(50)).toBe(0);
  });
});

