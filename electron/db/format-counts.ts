/**
 * The format report's counts as the store keeps them (migration 038, `format_counts`): one tally per session and
 * file (db/../importers/format-doctor-intake.ts `FileTally`), what the format doctor would say of that session's
 * stored lines of the file, kept by the import as it stores them (the parsers give each line's verdict), so
 * `sessions.formatReport` merges a few rows instead of reading every line again.
 *
 * A row's `tally` is null when it can no longer be kept by appending (a line stored before the last one counted: a
 * file read again from its start); a file stored before 038 (`files.format_counted` = 0) has no rows until a report
 * counts them from its stored lines (`countFormatLines`, in slices, then finished in one write transaction, so no
 * batch stored meanwhile is missed), after which the import keeps them too. Records count under their file's
 * session; a file's records stored before it has one wait under '' and join it when it is known.
 */
import { RAW_LIMIT } from '../importers/transcript';
import { emptyFileTally, tallyLine, type FileTally, type LineVerdict } from '../importers/format-doctor-intake';
import type { ReadableDB, WritableDB } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';
import type { StoredLine } from './session-lines';

/** The session key of a file's records stored before the file has a session. */
const NO_SESSION_YET = '';

export function prepareFormatCountWrites(db: WritableDB) {
  return {
    get: db.prepare<[number, string], { tally: string | null }>('SELECT tally FROM format_counts WHERE file_id = ? AND session_id = ?'),
    put: db.prepare<[number, string, string | null]>('INSERT OR REPLACE INTO format_counts (file_id, session_id, tally) VALUES (?, ?, ?)'),
    drop: db.prepare<[number, string]>('DELETE FROM format_counts WHERE file_id = ? AND session_id = ?'),
  };
}
export type FormatCountWrites = ReturnType<typeof prepareFormatCountWrites>;

interface CountedLine {
  readonly line: number;
  readonly rawBytes: number;
  readonly cut: boolean;
  readonly verdict: LineVerdict;
}

/** The lines one batch stored, per session, counted into their rows with the batch (same transaction). */
export class FormatCountBatch {
  private readonly bySession = new Map<string, CountedLine[]>();

  /** A stored line; `sessionId` null: a record of a file without a session yet. */
  add(sessionId: string | null, line: number, raw: Buffer, rawBytes: number, verdict: LineVerdict): void {
    const key = sessionId ?? NO_SESSION_YET;
    let lines = this.bySession.get(key);
    if (lines === undefined) {
      lines = [];
      this.bySession.set(key, lines);
    }
    lines.push({ line, rawBytes, cut: rawBytes > RAW_LIMIT || raw.length < rawBytes, verdict });
  }

  /**
   * Counts the batch into its rows. `counted`: every line of the file was counted since it was first stored (rows
   * may be made); otherwise only rows a report made from the stored lines are kept up.
   */
  store(writes: FormatCountWrites, fileId: number, counted: boolean): void {
    for (const [sessionId, lines] of this.bySession) {
      const row = writes.get.get(fileId, sessionId);
      if (row === undefined && !counted) continue;
      if (row !== undefined && row.tally === null) continue;
      const tally = row === undefined ? emptyFileTally() : (JSON.parse(row.tally!) as FileTally);
      // Nodes, then records: the report reads them in file order.
      if (!inOrder(lines)) lines.sort((a, b) => a.line - b.line);
      if (tally.lines > 0 && lines[0]!.line <= tally.lastLine) {
        writes.put.run(fileId, sessionId, null);
        continue;
      }
      for (const line of lines) tallyLine(tally, line.line, line.rawBytes, line.cut ? 'too large' : line.verdict);
      writes.put.run(fileId, sessionId, JSON.stringify(tally));
    }
    this.bySession.clear();
  }
}

function inOrder(lines: readonly CountedLine[]): boolean {
  for (let index = 1; index < lines.length; index++) if (lines[index]!.line < lines[index - 1]!.line) return false;
  return true;
}

/** The file's records counted before it had a session are that session's. */
export function giveWaitingCounts(writes: FormatCountWrites, fileId: number, sessionId: string): void {
  const waiting = writes.get.get(fileId, NO_SESSION_YET);
  if (waiting === undefined) return;
  writes.drop.run(fileId, NO_SESSION_YET);
  const own = writes.get.get(fileId, sessionId);
  // Two partial tallies of one file cannot be put in order: count that file again from its lines.
  writes.put.run(fileId, sessionId, own === undefined ? waiting.tally : null);
}

/** One file of a session's report: its kept tally, or what is needed to count it. */
export interface FormatCountPart {
  readonly fileId: number;
  readonly path: string;
  /** The file's records are the session's (its own file, not one holding only copies it owns). */
  readonly ownFile: boolean;
  /** The kept tally; null: none (see `needsCount`). */
  readonly tally: FileTally | null;
  /** No tally is kept and the file's lines may have some of the session's: count them (countFormatLines). */
  readonly needsCount: boolean;
}

/** Where a count of stored lines is: after this node line and this record offset. */
export interface FormatCountCursor {
  readonly line: number;
  readonly offset: number;
}

export const COUNT_START: FormatCountCursor = { line: 0, offset: -1 };

type LineRow = StoredRawColumns & { line: number; offset: number; raw_bytes: number };

function prepareLineSlices(db: ReadableDB) {
  return {
    nodes: db.prepare<[string, number, number, number], LineRow>(
      `SELECT n.line, n.offset, ${rawColumns('n')}, n.raw_bytes FROM nodes n
       WHERE n.session_id = ? AND n.file_id = ? AND n.line > ? ORDER BY n.session_id, n.file_id, n.line LIMIT ?`,
    ),
    records: db.prepare<[number, number, number], LineRow>(
      `SELECT r.line, r.offset, ${rawColumns('r')}, r.raw_bytes FROM records r WHERE r.file_id = ? AND r.offset > ? ORDER BY r.file_id, r.offset LIMIT ?`,
    ),
  };
}

export function prepareFormatCountQueries(db: ReadableDB) {
  return {
    // The session's files and every file holding a node of it (a fork's copies live in the forking file),
    // found by index seeks, not by reading the session's nodes.
    parts: db.prepare<{ session: string }, { id: number; path: string; own: number; counted: number; has_row: number; tally: string | null }>(
      `WITH RECURSIVE node_files(id) AS (
         SELECT (SELECT min(file_id) FROM nodes WHERE session_id = @session)
         UNION ALL
         SELECT (SELECT min(file_id) FROM nodes WHERE session_id = @session AND file_id > node_files.id) FROM node_files WHERE node_files.id IS NOT NULL
       )
       SELECT f.id, f.path, f.session_id IS @session AS own, f.format_counted AS counted, c.file_id IS NOT NULL AS has_row, c.tally
       FROM files f LEFT JOIN format_counts c ON c.file_id = f.id AND c.session_id = @session
       WHERE f.session_id = @session OR f.id IN (SELECT id FROM node_files WHERE id IS NOT NULL) ORDER BY f.id`,
    ),
    slices: prepareLineSlices(db),
    raw: prepareRawLineReader(db),
  };
}
export type FormatCountQueries = ReturnType<typeof prepareFormatCountQueries>;

export function formatCountParts(q: FormatCountQueries, sessionId: string): FormatCountPart[] {
  return q.parts.all({ session: sessionId }).map((row) => ({
    fileId: row.id,
    path: row.path,
    ownFile: row.own === 1,
    tally: row.tally === null ? null : (JSON.parse(row.tally) as FileTally),
    // A file counted from its first line has a row for every session with lines in it.
    needsCount: row.tally === null && (row.has_row === 1 || row.counted === 0),
  }));
}

/**
 * Up to `limit` of the session's stored lines of one file after `cursor`, in file order (nodes and, for its own
 * file, records), and the cursor after them; `done` when none are left.
 */
export function readFormatLines(
  slices: ReturnType<typeof prepareLineSlices>,
  raw: FormatCountQueries['raw'],
  sessionId: string,
  part: Pick<FormatCountPart, 'fileId' | 'path' | 'ownFile'>,
  cursor: FormatCountCursor,
  limit: number,
): { readonly lines: StoredLine[]; readonly cursor: FormatCountCursor; readonly done: boolean } {
  const nodes = slices.nodes.all(sessionId, part.fileId, cursor.line, limit);
  const records = part.ownFile ? slices.records.all(part.fileId, cursor.offset, limit) : [];
  // A full slice may stop short of the other's lines: take both only up to the line both reached.
  const nodesEnd = nodes.length === limit ? nodes[nodes.length - 1]!.line : Infinity;
  const recordsEnd = records.length === limit ? records[records.length - 1]!.line : Infinity;
  const end = Math.min(nodesEnd, recordsEnd);
  const takenNodes = nodes.filter((row) => row.line <= end);
  const takenRecords = records.filter((row) => row.line <= end);
  const rows = [...takenNodes, ...takenRecords].sort((a, b) => a.line - b.line);
  const next = {
    line: takenNodes.length > 0 ? takenNodes[takenNodes.length - 1]!.line : cursor.line,
    offset: takenRecords.length > 0 ? takenRecords[takenRecords.length - 1]!.offset : cursor.offset,
  };
  const lines = rows.map((row) => ({ file: part.path, line: row.line, raw: raw.line(row), rawBytes: row.raw_bytes }));
  return { lines, cursor: next, done: end === Infinity };
}

/**
 * Finishes a count made from stored lines: the lines stored since `cursor` are read, and the tally `complete` makes
 * of them kept, in one write transaction, so a batch the import stores meanwhile is either read here or counts itself.
 */
export function finishFormatCount(
  db: WritableDB,
  writes: FormatCountWrites,
  sessionId: string,
  part: Pick<FormatCountPart, 'fileId' | 'path' | 'ownFile'>,
  cursor: FormatCountCursor,
  complete: (tail: readonly StoredLine[]) => FileTally,
): FileTally {
  const slices = prepareLineSlices(db);
  const raw = prepareRawLineReader(db);
  return db.transaction(() => {
    const tail: StoredLine[] = [];
    for (let at = cursor; ; ) {
      const slice = readFormatLines(slices, raw, sessionId, part, at, 4096);
      tail.push(...slice.lines);
      at = slice.cursor;
      if (slice.done) break;
    }
    const tally = complete(tail);
    writes.put.run(part.fileId, sessionId, JSON.stringify(tally));
    return tally;
  })();
}
