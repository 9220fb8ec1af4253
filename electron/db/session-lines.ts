/** A session's stored lines (nodes and records, as written: cut at RAW_LIMIT), streamed, for the format report. */
import type { ReadableDB } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';

export interface StoredLine {
  readonly file: string;
  readonly line: number;
  readonly raw: Buffer;
  readonly rawBytes: number;
}

export function prepareSessionLineQueries(db: ReadableDB) {
  return {
    // In file order, nodes and records interleaved, as the file had them (a record's version is its neighbours').
    lines: db.prepare<[string, string], StoredRawColumns & { file: string; line: number; raw_bytes: number }>(
      `SELECT f.path AS file, l.line, ${rawColumns('l')}, l.raw_bytes FROM (
         SELECT n.file_id, n.line, ${rawColumns('n')}, n.raw_bytes FROM nodes n WHERE n.session_id = ?
         UNION ALL
         SELECT r.file_id, r.line, ${rawColumns('r')}, r.raw_bytes FROM records r JOIN files rf ON rf.id = r.file_id WHERE rf.session_id = ?
       ) l JOIN files f ON f.id = l.file_id ORDER BY l.file_id, l.line`,
    ),
    raw: prepareRawLineReader(db),
  };
}

/** Calls `onLine` for every stored line of the session in file order, one row in memory at a time. */
export function forEachSessionLine(q: ReturnType<typeof prepareSessionLineQueries>, sessionId: string, onLine: (line: StoredLine) => void): void {
  for (const row of q.lines.iterate(sessionId, sessionId)) onLine({ file: row.file, line: row.line, raw: q.raw.line(row), rawBytes: row.raw_bytes });
}
