/**
 * The archive (issue 15): Claude Code's file-history backups a session's transcript names, copied into the
 * snapshot store at import, before Claude Code's cleanup can remove them. A row says which transcript file named
 * the backup (`file_id`: a deletion finds them by file), the file-history folder it was in (`backup_session`,
 * Claude Code's session id) and its name (`<hash>@vN`), and the git blob holding its bytes; the blob is kept
 * alive by the file's ref `refs/arbor/file-history/<file_id>` (electron/service/file-history-archive.ts).
 */
import type { Migration } from './index';

export const migration027FileHistoryCopies: Migration = {
  version: 27,
  name: 'file-history-copies',
  up(db) {
    db.exec(`
      CREATE TABLE file_history_copies (
        file_id INTEGER NOT NULL REFERENCES files(id),
        backup_session TEXT NOT NULL,
        backup_name TEXT NOT NULL,
        blob_oid TEXT NOT NULL,
        size INTEGER NOT NULL,
        PRIMARY KEY (file_id, backup_session, backup_name)
      ) WITHOUT ROWID;
      CREATE INDEX file_history_copies_by_name ON file_history_copies(backup_session, backup_name);
    `);
  },
};
