/** Full-text search over node text (FTS5, external content), and the chunked indexer that fills it. */
import { type NodeKind, type SearchHit, SNIPPET_CLOSE, SNIPPET_OPEN } from '../../shared/model';
import type { ReadableDB, WritableDB } from './database';
import { toFtsQuery } from './search-query';

export function prepareSearchQueries(db: ReadableDB) {
  return {
    search: db.prepare<[{ query: string; open: string; close: string; limit: number }], SearchRow>(
      `SELECT n.session_id, s.title, n.id, n.kind, n.timestamp,
              snippet(node_text, 0, @open, @close, '…', 24) AS snippet
       FROM node_text JOIN nodes n ON n.seq = node_text.rowid JOIN sessions s ON s.id = n.session_id
       WHERE node_text MATCH @query ORDER BY rank LIMIT @limit`,
    ),
  };
}
export type SearchQueries = ReturnType<typeof prepareSearchQueries>;

interface SearchRow {
  readonly session_id: string;
  readonly title: string;
  readonly id: string;
  readonly kind: string;
  readonly timestamp: string | null;
  readonly snippet: string;
}

/** Best matches first (bm25). Never throws on what the user typed: hostile input just finds less. */
export function searchNodes(q: SearchQueries, input: string, limit: number): SearchHit[] {
  const query = toFtsQuery(input);
  if (query === null) return [];
  return q.search.all({ query, open: SNIPPET_OPEN, close: SNIPPET_CLOSE, limit }).map((row) => ({
    sessionId: row.session_id,
    sessionTitle: row.title,
    nodeId: row.id,
    kind: row.kind as NodeKind,
    timestamp: row.timestamp,
    snippet: row.snippet,
  }));
}

export function prepareIndexStatements(db: WritableDB) {
  return {
    watermark: db.prepare<[], { value: number }>(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`),
    chunkEnd: db.prepare<[number, number], { last: number | null; rows: number }>(
      'SELECT max(seq) AS last, count(*) AS rows FROM (SELECT seq FROM nodes WHERE seq > ? ORDER BY seq LIMIT ?)',
    ),
    index: db.prepare<[number, number]>(
      'INSERT INTO node_text (rowid, text) SELECT seq, text FROM nodes WHERE seq > ? AND seq <= ? AND text IS NOT NULL',
    ),
    setWatermark: db.prepare<[number]>(`UPDATE meta SET value = ? WHERE key = 'fts_indexed_upto'`),
    pending: db.prepare<[], { pending: number }>(
      `SELECT count(*) AS pending FROM nodes WHERE seq > (SELECT value FROM meta WHERE key = 'fts_indexed_upto')`,
    ),
  };
}
export type IndexStatements = ReturnType<typeof prepareIndexStatements>;

/** Indexes the next `rows` nodes in one transaction; returns how many it consumed (0 = up to date). */
export function indexNextChunk(db: WritableDB, s: IndexStatements, rows: number): number {
  return db.transaction(() => {
    const from = s.watermark.get()?.value ?? 0;
    const chunk = s.chunkEnd.get(from, rows);
    if (!chunk || chunk.last === null) return 0;
    s.index.run(from, chunk.last);
    s.setWatermark.run(chunk.last);
    return chunk.rows;
  })();
}

export function pendingIndexRows(s: IndexStatements): number {
  return s.pending.get()?.pending ?? 0;
}
