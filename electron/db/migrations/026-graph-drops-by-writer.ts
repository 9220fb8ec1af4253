/**
 * The stored graph's insert triggers on `nodes` and `tool_calls` go (issue 12): a row trigger on `nodes`, even one
 * whose WHEN is false, made each insert of a ~3 KB line cost ~4× as much (3.8 s against 1.0 s of SQL for the
 * bench's 74k nodes), most of an import's store time. The import writer, the only code that inserts either, drops
 * the segments from a batch's first new node of each session itself, in the batch's transaction (import-writer.ts),
 * which covers the tool calls inserted with their node. Edges and tool results name earlier nodes, and updates
 * and deletes come from other writers: their triggers stay. No row changes; segments stored stay valid.
 */
import type { Migration } from './index';

export const migration026GraphDropsByWriter: Migration = {
  version: 26,
  name: 'graph-drops-by-writer',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS session_graph_node_added;
      DROP TRIGGER IF EXISTS session_graph_call_added;
    `);
  },
};
