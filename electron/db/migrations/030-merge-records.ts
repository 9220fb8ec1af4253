/**
 * Merges applied in Arbor (issue 15): each merge's sides, base, folder and how every file was settled, kept
 * past the merge view so "Continue from the merge" (`arbor continue-merge OPERATION`, from another process
 * too) can tell the resumed agent which files were clean and how each conflict was resolved.
 */
import type { Migration } from './index';

export const migration030MergeRecords: Migration = {
  version: 30,
  name: 'merge-records',
  up(db) {
    db.exec(`
      CREATE TABLE merge_records (
        operation_id TEXT PRIMARY KEY,   -- the merge's operation (operations.id)
        merge_node_id TEXT NOT NULL,     -- its merge node (snapshots.node_id)
        session_id TEXT NOT NULL,        -- ours' session, which the merge node joined
        ours_node_id TEXT NOT NULL,
        theirs_node_id TEXT NOT NULL,
        base_node_id TEXT,               -- the merge base (null: the sides share no node)
        dir TEXT NOT NULL,               -- the merged folder
        files TEXT NOT NULL,             -- JSON MergedFile[] (shared/operations.ts)
        created_at TEXT NOT NULL
      );
      CREATE INDEX merge_records_by_session ON merge_records(session_id);
    `);
  },
};
