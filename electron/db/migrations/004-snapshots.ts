/**
 * Manual exact snapshots (`arbor snapshot DIR`): the object store holds the files; this table records each
 * capture as a node of its workspace's session (the session whose project is the folder, when one exists).
 */
import type { Migration } from './index';

export const migration004Snapshots: Migration = {
  version: 4,
  name: 'snapshots',
  up(db) {
    db.exec(`
      CREATE TABLE snapshots (
        id TEXT PRIMARY KEY,
        -- the node id the snapshot is known by (snapshot-<id>)
        node_id TEXT NOT NULL UNIQUE,
        -- the workspace's session when one was found, else an Arbor-owned id for the folder
        session_id TEXT NOT NULL,
        -- the session's newest node at capture time: the snapshot hangs below it
        parent_id TEXT,
        dir TEXT NOT NULL,
        tree_oid TEXT NOT NULL,
        commit_oid TEXT,
        files INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX snapshots_by_session ON snapshots(session_id, created_at);
    `);
  },
};
