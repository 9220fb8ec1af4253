/**
 * The graph's covering index (migration 003) held twelve columns of every node, labels and ids among them, so
 * each node an import stored wrote a wide entry into a second B-tree: 25–35% of a node's insert (issue 12).
 * A session's graph is now read from its stored segments (migration 022), which the link run builds from the
 * rows it has just written, still in cache; what graph paging needs from an index is the (session_id, file_id,
 * line) order and range, the key 003 started with. The rows' other columns are read from the table, whose raw
 * lines now sit in blocks (migration 035) or after the graph's columns. Nothing is re-read from transcripts:
 * the narrow index is built from the rows the store holds.
 */
import type { Migration } from './index';

export const migration042NarrowGraphIndex: Migration = {
  version: 42,
  name: 'narrow-graph-index',
  up(db) {
    db.exec(`
      DROP INDEX IF EXISTS nodes_by_session_graph;
      CREATE INDEX IF NOT EXISTS nodes_by_session ON nodes(session_id, file_id, line);
    `);
  },
};
