/**
 * The stored graph's insert triggers on `nodes`, `tool_calls` and `tool_results` go (issue 12): a row trigger on
 * `nodes`, even one whose WHEN is false, made each insert of a ~3 KB line cost ~4× as much (3.8 s against 1.0 s of
 * SQL for the bench's 74k nodes), most of an import's store time; the calls' and results' ~1 s more. The import
 * writer, the only code that inserts them, drops the segments itself once per batch, in its transaction
 * (import-writer.ts): from each session's first new node (which covers the calls stored with their node), and from
 * the call of each new result. Edges are few and linked from several places, and updates and deletes come from
 * other writers: their triggers stay. No row changes; the segments stored stay valid.
 */
import type { Migration } from './index';

export const migration026GraphDropsByWriter: Migration = {
  version: 26,
  name: 'graph-drops-by-writer',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS session_graph_node_added;
      DROP TRIGGER IF EXISTS session_graph_call_added;
      DROP TRIGGER IF EXISTS session_graph_result_added;
    `);
  },
};
