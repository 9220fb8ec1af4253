/**
 * Compresses the raw lines a store held before migration 013, in the background: a chunk of rows per
 * transaction, each row rewritten with its compressed line and codec in the same statement, the watermark
 * moved in the same transaction. A crash loses at most the chunk in flight (rolled back, done again next
 * time); readers see each row either as it was or compressed, and decode both (raw-line.ts).
 * Rows stored after the migration are compressed by the import itself, so the work ends at
 * `meta.raw_compact_until` (the newest row when the migration ran) — except a small append's, stored as read
 * to keep the append fast: `compactLater` moves the range over them, and the same loop compresses them.
 */
import type { WritableDB } from './database';
import { encodeRaw, RAW_PLAIN } from './raw-line';

/** Raw bytes read per chunk at most: bounds memory and the time one transaction holds the writer. */
const CHUNK_RAW_BYTES = 4 * 1024 * 1024;

interface Table {
  readonly name: 'nodes' | 'records';
  readonly key: 'seq' | 'id';
  readonly until: string;
  readonly done: string;
}

const TABLES: readonly Table[] = [
  { name: 'nodes', key: 'seq', until: 'raw_compact_until', done: 'raw_compacted_upto' },
  { name: 'records', key: 'id', until: 'record_compact_until', done: 'record_compacted_upto' },
];

function prepareTable(db: WritableDB, table: Table) {
  return {
    table,
    range: db.prepare<[], { done: number; until: number }>(
      `SELECT coalesce((SELECT value FROM meta WHERE key = '${table.done}'), 0) AS done,
              coalesce((SELECT value FROM meta WHERE key = '${table.until}'), 0) AS until`,
    ),
    chunk: db.prepare<[number, number, number], { key: number; raw: Buffer }>(
      `SELECT ${table.key} AS key, raw FROM ${table.name}
       WHERE ${table.key} > ? AND ${table.key} <= ? AND raw_codec = ${RAW_PLAIN} ORDER BY ${table.key} LIMIT ?`,
    ),
    count: db.prepare<[number, number], { rows: number }>(`SELECT count(*) AS rows FROM ${table.name} WHERE ${table.key} > ? AND ${table.key} <= ?`),
    rewrite: db.prepare<[Buffer, number, number]>(`UPDATE ${table.name} SET raw = ?, raw_codec = ? WHERE ${table.key} = ?`),
    setDone: db.prepare<[string, number]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    newest: db.prepare<[], { key: number | null }>(`SELECT max(${table.key}) AS key FROM ${table.name}`),
  };
}

export function prepareCompactionStatements(db: WritableDB) {
  return TABLES.map((table) => prepareTable(db, table));
}
export type CompactionStatements = ReturnType<typeof prepareCompactionStatements>;

/** Rows (nodes and records) stored before migration 013 and not compressed yet. */
export function pendingCompactionRows(s: CompactionStatements): number {
  let pending = 0;
  for (const { range, count } of s) {
    const { done, until } = range.get() ?? { done: 0, until: 0 };
    if (until > done) pending += count.get(done, until)?.rows ?? 0;
  }
  return pending;
}

/** Compresses up to `rows` more old rows in one transaction; returns how many it consumed (0 = done). */
export function compactNextChunk(db: WritableDB, s: CompactionStatements, rows: number): number {
  return db.transaction(() => {
    for (const statements of s) {
      const { done, until } = statements.range.get() ?? { done: 0, until: 0 };
      if (until <= done) continue;
      const chunk: { key: number; raw: Buffer }[] = [];
      let bytes = 0;
      // Collected first: the connection cannot run the updates while the SELECT is still iterating.
      for (const row of statements.chunk.iterate(done, until, Math.max(1, rows))) {
        chunk.push(row);
        bytes += row.raw.length;
        if (bytes >= CHUNK_RAW_BYTES) break;
      }
      for (const row of chunk) {
        const encoded = encodeRaw(row.raw);
        if (encoded.codec !== RAW_PLAIN) statements.rewrite.run(encoded.raw, encoded.codec, row.key);
      }
      // No row left below `until`: this table is done.
      statements.setDone.run(statements.table.done, chunk.at(-1)?.key ?? until);
      return Math.max(1, chunk.length);
    }
    return 0;
  })();
}

/** The newest row of each table: what `compactLater` is told was stored before the rows it is to compress. */
export type CompactionMark = readonly number[];

export function compactionMark(s: CompactionStatements): CompactionMark {
  return s.map((statements) => statements.newest.get()?.key ?? 0);
}

/**
 * Puts the rows stored after `mark` (as read: a small append's) in the range the background compaction works
 * through. A range with nothing left starts again just past `mark`, so the compaction reads only the new rows.
 */
export function compactLater(db: WritableDB, s: CompactionStatements, mark: CompactionMark): void {
  db.transaction(() => {
    s.forEach((statements, index) => {
      const newest = statements.newest.get()?.key ?? 0;
      const from = mark[index] ?? 0;
      if (newest <= from) return;
      const { done, until } = statements.range.get() ?? { done: 0, until: 0 };
      if (until <= done) statements.setDone.run(statements.table.done, from);
      statements.setDone.run(statements.table.until, Math.max(until, newest));
    });
  })();
}
