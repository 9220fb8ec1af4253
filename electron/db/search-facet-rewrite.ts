/**
 * Gives the rows of FEW_ROW_KINDS indexed before migration 039 their kind×project token (search-query.ts), from
 * the rows the store keeps: no transcript is read. FTS5 here keeps no copy of the text (migration 013), so a row's facets
 * change only by deleting it and indexing it again, with its text as the indexer derives it from the stored
 * line. In the background, as usage-backfill.ts does for 023: the migration only records the last seq indexed
 * (`meta.facet_rewrite_until`); each slice is one transaction that moves `facet_rewrite_upto` with it, so a
 * crash redoes at most the slice in flight. Until the rewrite is done (and for other kinds after it) a search
 * matches a kind and a project as two groups (each row has both tokens, rewritten or not): the same answers.
 */
import type { WritableDB } from './database';
import { prepareRawLineReader } from './raw-line-reader';
import { CHUNK_COLUMNS, type ChunkRow, type DeriveSearchText, FACET_REWRITE_KEYS, insertIndexed, readChunkTexts } from './search';
import { FEW_ROW_KINDS, searchRowid } from './search-query';

const KINDS = FEW_ROW_KINDS.map((kind) => `'${kind}'`).join(', ');
const meta = (key: string) => `coalesce((SELECT value FROM meta WHERE key = '${key}'), 0)`;

/** SQL for the migration: the rows indexed so far are the work; those indexed later get every facet at once. */
export const START_FACET_REWRITE_SQL = `
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${FACET_REWRITE_KEYS.until}', coalesce((SELECT value FROM meta WHERE key = 'fts_indexed_upto'), 0));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${FACET_REWRITE_KEYS.done}', 0);
`;

export function prepareFacetRewrite(db: WritableDB) {
  return {
    range: db.prepare<[], { done: number; until: number }>(`SELECT ${meta(FACET_REWRITE_KEYS.done)} AS done, ${meta(FACET_REWRITE_KEYS.until)} AS until`),
    count: db.prepare<[number, number], { rows: number }>(`SELECT count(*) AS rows FROM nodes WHERE seq > ? AND seq <= ? AND kind IN (${KINDS})`),
    chunk: db.prepare<[number, number, number], ChunkRow>(`SELECT ${CHUNK_COLUMNS} WHERE n.seq > ? AND n.seq <= ? AND n.kind IN (${KINDS}) ORDER BY n.seq LIMIT ?`),
    remove: db.prepare<[bigint]>('DELETE FROM node_text WHERE rowid = ?'),
    insert: db.prepare<[bigint, string, string, string, number]>('INSERT INTO node_text (rowid, text, facets, head, length) VALUES (?, ?, ?, ?, ?)'),
    setDone: db.prepare<[number]>(`UPDATE meta SET value = ? WHERE key = '${FACET_REWRITE_KEYS.done}'`),
    // The whole index was written again since its last merge: due again (search.ts indexMergeDue), as if it had
    // grown from nothing. Its old segments hold a tombstone for every row, and a search reads each segment.
    mergeDue: db.prepare(`UPDATE meta SET value = 0 WHERE key = 'fts_merged_upto'`),
    lines: prepareRawLineReader(db),
  };
}
export type FacetRewrite = ReturnType<typeof prepareFacetRewrite>;

/** Nodes left to rewrite (0 in a store indexed since 039). */
export function pendingFacetRewriteRows(s: FacetRewrite): number {
  const range = s.range.get();
  if (range === undefined || range.done >= range.until) return 0;
  return s.count.get(range.done, range.until)?.rows ?? 0;
}

/**
 * Indexes the next `rows` nodes of the rewrite again (fewer when their lines or text are large), in one
 * transaction; returns how many it consumed (0 = done). Rows whose text is empty are removed only: the indexer
 * never indexed them, and a row indexed by an older reading of its line must not keep its old facets.
 */
export function rewriteFacetsChunk(db: WritableDB, s: FacetRewrite, rows: number, derive?: DeriveSearchText): number {
  return db.transaction(() => {
    const range = s.range.get();
    if (range === undefined || range.done >= range.until) return 0;
    const { indexed, last, consumed, rows: read } = readChunkTexts(s.chunk.iterate(range.done, range.until, Math.max(1, rows)), s.lines, derive);
    if (last === undefined) {
      // Nothing left below `until` (deleted since): done.
      s.setDone.run(range.until);
      s.mergeDue.run();
      return 0;
    }
    // Removed first, then indexed again in rowid order (as the indexer writes a chunk: one segment).
    for (const row of read) s.remove.run(searchRowid(row.timestamp, row.seq));
    insertIndexed(s.insert, indexed);
    s.setDone.run(last.seq);
    if (last.seq >= range.until) s.mergeDue.run();
    return consumed;
  })();
}
