/**
 * A session's records of a few kinds, in file order: the 2026 lines that say where the session works
 * (`relocated`, `worktree-state`) and what it sent instead of tool results (`content-replacement`). They name
 * no node, so they are found through the session's files; migration 015 indexes exactly these types.
 */
import type { ReadableDB } from './database';
import type { StoredRecord } from './node-queries';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';

/** The record types getSessionRecords answers for (kept in step with migration 015's partial index). */
export const SESSION_RECORD_TYPES = ['relocated', 'worktree-state', 'content-replacement'] as const;
export type SessionRecordType = (typeof SESSION_RECORD_TYPES)[number];

export interface SessionRecord extends StoredRecord {
  /** The node it stands after in its file (null at the top of a file). */
  readonly refSourceId: string | null;
}

export function prepareSessionRecordQueries(db: ReadableDB) {
  return {
    byType: db.prepare<[string, string], StoredRawColumns & { type: string; file: string; line: number; ref_source_id: string | null }>(
      `SELECT r.type, f.path AS file, r.line, ${rawColumns('r')}, r.ref_source_id FROM records r JOIN files f ON f.id = r.file_id
       WHERE r.type IN (SELECT value FROM json_each(?)) AND r.type IN ('relocated', 'worktree-state', 'content-replacement') AND f.session_id = ?
       ORDER BY r.file_id, r.offset`,
    ),
    lines: prepareRawLineReader(db),
  };
}
export type SessionRecordQueries = ReturnType<typeof prepareSessionRecordQueries>;

/** The session's records of these types, in file order (file by file, each top to bottom). */
export function getSessionRecords(q: SessionRecordQueries, sessionId: string, types: readonly SessionRecordType[]): SessionRecord[] {
  return q.byType.all(JSON.stringify(types), sessionId).map((row) => ({ type: row.type, file: row.file, line: row.line, raw: q.lines.line(row), refSourceId: row.ref_source_id }));
}
