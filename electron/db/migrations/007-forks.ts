/**
 * Forks made in Arbor (`arbor fork`): the node each started from, the folder Arbor wrote its state into,
 * the branch node recorded for it (a `fork` snapshot), and the resumable transcript it wrote, so `arbor forks`
 * can list them with their size and remove what the user no longer wants.
 */
import type { Migration } from './index';

export const migration007Forks: Migration = {
  version: 7,
  name: 'forks',
  up(db) {
    db.exec(`
      CREATE TABLE forks (
        id TEXT PRIMARY KEY,
        -- the fork point and its session
        node_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        -- the branch: the fork's snapshot node (snapshots.node_id)
        branch_node_id TEXT NOT NULL,
        dir TEXT NOT NULL,
        -- 1 when Arbor created the folder (removal may delete it), 0 when it existed (empty) before
        dir_created INTEGER NOT NULL,
        resume_session_id TEXT,
        transcript TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX forks_by_session ON forks(session_id, created_at);
    `);
  },
};
