/**
 * The sessions list's columns kept on the session row instead of worked out per request: a 20k-session store
 * listed in 1.4 s (14× its bare SELECT) because every row summed its files and probed its nodes. The files'
 * share (bytes, newest mtime, the first file, whether a session transcript of its own was imported) is kept by
 * triggers on `files`, which an import touches once per file; whether a line is off the sidechain is set by the
 * link run (session-linker.ts). Existing stores are filled from their rows (no transcript is read again).
 */
import type { Migration } from './index';

/** Recomputes a session's file columns from its files (files_by_session: a few index rows). */
const fileColumns = (session: string): string => `
  UPDATE sessions SET
    bytes = (SELECT coalesce(sum(f.size), 0) FROM files f WHERE f.session_id = sessions.id),
    newest_mtime_ms = (SELECT max(f.mtime_ms) FROM files f WHERE f.session_id = sessions.id),
    first_file = (SELECT f.path FROM files f WHERE f.session_id = sessions.id ORDER BY f.role != 'main', f.id LIMIT 1),
    main_file = EXISTS (SELECT 1 FROM files f WHERE f.session_id = sessions.id AND f.role = 'main')
  WHERE id = ${session};`;

export const migration017SessionListColumns: Migration = {
  version: 17,
  name: 'session-list-columns',
  up(db) {
    db.exec(`
      -- the size of its transcripts on disk, their newest mtime, the file its project folder is read from
      ALTER TABLE sessions ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN newest_mtime_ms REAL;
      ALTER TABLE sessions ADD COLUMN first_file TEXT;
      -- an orphan subagent has no session transcript of its own (main_file = 0) or no line off the sidechain
      ALTER TABLE sessions ADD COLUMN main_file INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN main_line INTEGER NOT NULL DEFAULT 0;

      -- the list's order (newest first, no time last) read off an index instead of sorted per request
      CREATE INDEX sessions_by_activity ON sessions(updated_at DESC, id);

      CREATE TRIGGER files_list_columns_insert AFTER INSERT ON files WHEN NEW.session_id IS NOT NULL
      BEGIN ${fileColumns('NEW.session_id')} END;
      CREATE TRIGGER files_list_columns_update AFTER UPDATE OF session_id, size, mtime_ms, role ON files WHEN NEW.session_id IS NOT NULL
      BEGIN ${fileColumns('NEW.session_id')} END;
      CREATE TRIGGER files_list_columns_move AFTER UPDATE OF session_id ON files WHEN OLD.session_id IS NOT NEW.session_id
      BEGIN ${fileColumns('OLD.session_id')} END;
      CREATE TRIGGER files_list_columns_delete AFTER DELETE ON files WHEN OLD.session_id IS NOT NULL
      BEGIN ${fileColumns('OLD.session_id')} END;

      UPDATE sessions SET
        bytes = (SELECT coalesce(sum(f.size), 0) FROM files f WHERE f.session_id = sessions.id),
        newest_mtime_ms = (SELECT max(f.mtime_ms) FROM files f WHERE f.session_id = sessions.id),
        first_file = (SELECT f.path FROM files f WHERE f.session_id = sessions.id ORDER BY f.role != 'main', f.id LIMIT 1),
        main_file = EXISTS (SELECT 1 FROM files f WHERE f.session_id = sessions.id AND f.role = 'main'),
        main_line = EXISTS (SELECT 1 FROM nodes n WHERE n.session_id = sessions.id AND n.sidechain = 0);
    `);
  },
};
