/**
 * Opening a session reads ten small columns of each of its nodes. In `nodes` those sit in rows that also hold
 * the raw line (KiBs each), so a 10k-node graph read ~40 MB of table pages (~230 ms cold, ~50 ms warm); this
 * covering index holds exactly the graph's columns in the graph's order (~2 MB for 10k nodes: ~30 ms cold).
 * It starts with the old (session_id, file_id, line) key, so it replaces nodes_by_session everywhere.
 */
import type { Migration } from './index';

export const migration003GraphIndex: Migration = {
  version: 3,
  name: 'graph-index',
  up(db) {
    db.exec(`
      DROP INDEX nodes_by_session;
      CREATE INDEX nodes_by_session_graph ON nodes(
        session_id, file_id, line, id, parent_source_id, parent_id, kind, timestamp, label, sidechain, agent_id, model
      );
    `);
  },
};
