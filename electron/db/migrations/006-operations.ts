/**
 * The operation journal (rewind, merge, undo): one row per operation and one per file it sets, each file's
 * state moving planned → writing → done around its write, so a crash in the middle is rolled back (or
 * completed) on the next start. Before and after versions are blob ids in the snapshot store.
 */
import type { Migration } from './index';

export const migration006Operations: Migration = {
  version: 6,
  name: 'operations',
  up(db) {
    db.exec(`
      CREATE TABLE operations (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,            -- rewind | merge | undo
        status TEXT NOT NULL,          -- applying | applied | rolled-back | undone
        workspace TEXT NOT NULL,       -- absolute root
        node_id TEXT,
        undoes TEXT REFERENCES operations(id),
        side_effects TEXT NOT NULL DEFAULT '[]',
        -- commit in the snapshot store holding the before and after files (its ref keeps them from gc)
        safety_commit TEXT,
        -- folders the writes create (JSON array), removed again by a rollback when left empty
        created_dirs TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX operations_by_workspace ON operations(workspace, created_at);
      CREATE INDEX operations_unfinished ON operations(status) WHERE status = 'applying';
      CREATE TABLE operation_files (
        operation_id TEXT NOT NULL REFERENCES operations(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,          -- write order
        path TEXT NOT NULL,            -- workspace-relative, '/'-separated
        before_oid TEXT,               -- null: the path was absent
        before_mode TEXT,
        after_oid TEXT,                -- null: the operation deletes the path
        after_mode TEXT,
        state TEXT NOT NULL,           -- planned | writing | done
        PRIMARY KEY (operation_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};
