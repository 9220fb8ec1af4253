/** Full-text search over node text (FTS5, external content), and the chunked indexer that fills it. */
import { type NodeKind, type SearchHit, SNIPPET_CLOSE, SNIPPET_OPEN } from '../../shared/model';
import type { ReadableDB, WritableDB } from './database';
import { toFtsQuery } from './search-query';

export function prepareSearchQueries(db: ReadableDB) {
  return {
    search: db.prepare<[{ query: string; open: string; close: string; limit: number; offset: number }], SearchRow>(
      `SELECT n.session_id, s.title, n.id, n.kind, n.timestamp,
              snippet(node_text, 0, @open, @close, '…', 24) AS snippet
       FROM node_text JOIN nodes n ON n.seq = node_text.rowid JOIN sessions s ON s.id = n.session_id
       WHERE node_text MATCH @query ORDER BY rank LIMIT @limit OFFSET @offset`,
    ),
    // Counting stops past the cap: a one-letter query over a million nodes must still answer at once.
    count: db.prepare<[{ query: string; cap: number }], { total: number }>(
      `SELECT count(*) AS total FROM (SELECT 1 FROM node_text WHERE node_text MATCH @query LIMIT @cap)`,
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
export function searchNodes(q: SearchQueries, input: string, limit: number, offset = 0): SearchHit[] {
  const query = toFtsQuery(input);
  if (query === null) return [];
  return q.search.all({ query, open: SNIPPET_OPEN, close: SNIPPET_CLOSE, limit, offset }).map((row) => ({
    sessionId: row.session_id,
    sessionTitle: row.title,
    nodeId: row.id,
    kind: row.kind as NodeKind,
    timestamp: row.timestamp,
    snippet: row.snippet,
  }));
}

/** How many nodes match, counted up to `cap` (more than that reads as `capped`). */
export function countSearchHits(q: SearchQueries, input: string, cap: number): { total: number; capped: boolean } {
  const query = toFtsQuery(input);
  if (query === null) return { total: 0, capped: false };
  const total = q.count.get({ query, cap: cap + 1 })?.total ?? 0;
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}

export function prepareIndexStatements(db: WritableDB) {
  return {
    watermark: db.prepare<[], { value: number }>(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`),
    chunk: db.prepare<[number, number], { seq: number; raw: Buffer; text: string | null; format: string }>(
      `SELECT n.seq, n.raw, n.text, f.format FROM nodes n JOIN files f ON f.id = n.file_id
       WHERE n.seq > ? ORDER BY n.seq LIMIT ?`,
    ),
    insert: db.prepare<[number, string]>('INSERT INTO node_text (rowid, text) VALUES (?, ?)'),
    setWatermark: db.prepare<[number]>(`UPDATE meta SET value = ? WHERE key = 'fts_indexed_upto'`),
    pending: db.prepare<[], { pending: number }>(
      `SELECT count(*) AS pending FROM nodes WHERE seq > (SELECT value FROM meta WHERE key = 'fts_indexed_upto')`,
    ),
  };
}
export type IndexStatements = ReturnType<typeof prepareIndexStatements>;

/**
 * A node's search text from its stored raw line, for nodes whose parser deferred it (`nodes.text` null):
 * the import stays lean and the format's reader re-reads the line here, in the background.
 */
export type DeriveSearchText = (raw: Buffer, format: string) => string;

/** Raw bytes read per chunk at most (a chunk also stops at `rows`): bounds memory and time per transaction. */
const CHUNK_RAW_BYTES = 4 * 1024 * 1024;

/**
 * Indexes the next `rows` nodes (fewer when their raw lines are large) in one transaction; returns how many it
 * consumed (0 = up to date). Stored text wins; null text is derived from raw; empty text is not indexed.
 */
export function indexNextChunk(db: WritableDB, s: IndexStatements, rows: number, derive?: DeriveSearchText): number {
  return db.transaction(() => {
    const from = s.watermark.get()?.value ?? 0;
    const chunk: { seq: number; raw: Buffer; text: string | null; format: string }[] = [];
    let bytes = 0;
    // Collected first: the connection cannot run the inserts while the SELECT is still iterating.
    for (const row of s.chunk.iterate(from, Math.max(1, rows))) {
      chunk.push(row);
      bytes += row.raw.length;
      if (bytes >= CHUNK_RAW_BYTES) break;
    }
    const last = chunk.at(-1);
    if (last === undefined) return 0;
    for (const row of chunk) {
      const text = row.text ?? (derive === undefined ? '' : derive(row.raw, row.format));
      if (text.length > 0) s.insert.run(row.seq, text);
    }
    s.setWatermark.run(last.seq);
    return chunk.length;
  })();
}

export function pendingIndexRows(s: IndexStatements): number {
  return s.pending.get()?.pending ?? 0;
}
