/**
 * The stored copies of Claude Code's file-history backups (migration 027, issue 15 "the archive"): which
 * transcript file named a backup, and the snapshot-store blob holding its bytes. The blobs themselves live in
 * the snapshot store; electron/service/file-history-archive.ts writes both.
 */
import type { DatabaseHandles } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';

/** A stored file-history line of a transcript file that holds no copies yet. */
export interface UncopiedLine {
  readonly path: string;
  readonly type: string;
  readonly raw: Buffer;
  readonly rawBytes: number;
}

export interface FileHistoryCopy {
  /** Claude Code's session id: the folder `file-history/<backupSession>/` the backup was read from. */
  readonly backupSession: string;
  /** `<hash>@vN`. */
  readonly backupName: string;
  readonly blobOid: string;
  readonly size: number;
}

export interface FileHistoryCopies {
  /** The transcript file's row id, or null when the file is not stored. */
  fileIdOf(path: string): number | null;
  /** True when this file already has a copy of the backup (an append or a re-import copies nothing twice). */
  has(fileId: number, backupSession: string, backupName: string): boolean;
  /** Records copies whose blobs are already in the snapshot store, in one transaction. */
  add(fileId: number, copies: readonly FileHistoryCopy[]): void;
  /** Every copy a file holds (its ref's tree is built from them). */
  ofFile(fileId: number): FileHistoryCopy[];
  /** The stored blob of a backup, whichever file named it; null when none was copied. */
  find(backupSession: string, backupName: string): { readonly blobOid: string; readonly size: number } | null;
  /** Every backup copied from one file-history folder (a fork writes them back for its new session). */
  ofBackupSession(backupSession: string): { readonly backupName: string; readonly blobOid: string }[];
  /**
   * The file-history lines of every transcript file that holds no copy yet, file by file (a store imported
   * before migration 027: its backups are copied once, by the next import). Read on the reader, in one pass.
   */
  forEachUncopiedLine(onLine: (line: UncopiedLine) => void): void;
  /** True when the store holds any copy at all. */
  any(): boolean;
  /** Which of these file ids still hold copies (the others' refs can go). */
  filesWithCopies(fileIds: readonly number[]): Set<number>;
}

interface CopyRow {
  readonly backup_session: string;
  readonly backup_name: string;
  readonly blob_oid: string;
  readonly size: number;
}

/** Writes and the reads an import makes go through the writer (it sees its own uncommitted rows); lookups through the reader. */
export function createFileHistoryCopies(handles: DatabaseHandles): FileHistoryCopies {
  const { read, write } = handles;
  const fileId = write.prepare<[string], { id: number }>('SELECT id FROM files WHERE path = ?');
  const has = write.prepare<[number, string, string], { one: number }>(
    'SELECT 1 AS one FROM file_history_copies WHERE file_id = ? AND backup_session = ? AND backup_name = ?',
  );
  const insert = write.prepare<[number, string, string, string, number]>(
    'INSERT OR IGNORE INTO file_history_copies (file_id, backup_session, backup_name, blob_oid, size) VALUES (?, ?, ?, ?, ?)',
  );
  const ofFile = write.prepare<[number], CopyRow>(
    'SELECT backup_session, backup_name, blob_oid, size FROM file_history_copies WHERE file_id = ? ORDER BY backup_session, backup_name',
  );
  const find = read.prepare<[string, string], { blob_oid: string; size: number }>(
    'SELECT blob_oid, size FROM file_history_copies WHERE backup_session = ? AND backup_name = ? LIMIT 1',
  );
  const ofBackupSession = read.prepare<[string], { backup_name: string; blob_oid: string }>(
    'SELECT backup_name, min(blob_oid) AS blob_oid FROM file_history_copies WHERE backup_session = ? GROUP BY backup_name ORDER BY backup_name',
  );
  const uncopied = read.prepare<[], StoredRawColumns & { path: string; type: string; raw_bytes: number }>(
    `SELECT f.path, r.type, ${rawColumns('r')}, r.raw_bytes FROM records r JOIN files f ON f.id = r.file_id
      WHERE r.type IN ('file-history-snapshot', 'file-history-delta')
        AND NOT EXISTS (SELECT 1 FROM file_history_copies c WHERE c.file_id = r.file_id)
      ORDER BY r.file_id, r.offset`,
  );
  const lines = prepareRawLineReader(read);
  const anyCopy = read.prepare<[], { one: number }>('SELECT 1 AS one FROM file_history_copies LIMIT 1');
  const anyOfFile = write.prepare<[number], { one: number }>('SELECT 1 AS one FROM file_history_copies WHERE file_id = ? LIMIT 1');
  const addAll = write.transaction((id: number, copies: readonly FileHistoryCopy[]) => {
    for (const copy of copies) insert.run(id, copy.backupSession, copy.backupName, copy.blobOid, copy.size);
  });
  return {
    fileIdOf: (path) => fileId.get(path)?.id ?? null,
    has: (id, session, name) => has.get(id, session, name) !== undefined,
    add: (id, copies) => addAll(id, copies),
    ofFile: (id) =>
      ofFile.all(id).map((row) => ({ backupSession: row.backup_session, backupName: row.backup_name, blobOid: row.blob_oid, size: row.size })),
    find(session, name) {
      const row = find.get(session, name);
      return row === undefined ? null : { blobOid: row.blob_oid, size: row.size };
    },
    ofBackupSession: (session) => ofBackupSession.all(session).map((row) => ({ backupName: row.backup_name, blobOid: row.blob_oid })),
    forEachUncopiedLine(onLine) {
      for (const row of uncopied.iterate()) onLine({ path: row.path, type: row.type, raw: lines.line(row), rawBytes: row.raw_bytes });
    },
    any: () => anyCopy.get() !== undefined,
    filesWithCopies: (ids) => new Set(ids.filter((id) => anyOfFile.get(id) !== undefined)),
  };
}
