/** A session's stored lines (nodes and records, as written: cut at RAW_LIMIT), streamed, for the format report. */
import type { ReadableDB } from './database';
import { decodeRaw } from './raw-line';

export interface StoredLine {
  readonly file: string;
  readonly line: number;
  readonly raw: Buffer;
  readonly rawBytes: number;
}

export function prepareSessionLineQueries(db: ReadableDB) {
  // In file order, nodes and records interleaved, as the file had them (a record's version is its neighbours').
  return db.prepare<[string, string], { file: string; line: number; raw: Buffer; raw_codec: number; raw_bytes: number }>(
    `SELECT f.path AS file, l.line, l.raw, l.raw_codec, l.raw_bytes FROM (
       SELECT file_id, line, raw, raw_codec, raw_bytes FROM nodes WHERE session_id = ?
       UNION ALL
       SELECT r.file_id, r.line, r.raw, r.raw_codec, r.raw_bytes FROM records r JOIN files rf ON rf.id = r.file_id WHERE rf.session_id = ?
     ) l JOIN files f ON f.id = l.file_id ORDER BY l.file_id, l.line`,
  );
}

/** Calls `onLine` for every stored line of the session in file order, one row in memory at a time. */
export function forEachSessionLine(q: ReturnType<typeof prepareSessionLineQueries>, sessionId: string, onLine: (line: StoredLine) => void): void {
  for (const row of q.iterate(sessionId, sessionId)) onLine({ file: row.file, line: row.line, raw: decodeRaw(row.raw, row.raw_codec), rawBytes: row.raw_bytes });
}
