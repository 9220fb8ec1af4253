/**
 * Every table that holds a session's rows, and how a deletion finds them: ONE list, so a migration that adds
 * a table with a session or node column adds one entry here (test/unit/electron/db/session-delete-tables.test.ts
 * reads the schema from sqlite_master and fails on a table that is neither here nor in NOT_SESSION_DATA).
 *
 * Each statement reads the doomed set from temp tables the deletion fills first (session-delete.ts):
 * `forget_sessions(id)`, `forget_nodes(seq, id)`, `forget_files(id)`, `forget_snapshots(node_id)`,
 * `forget_operations(id)`. Entries run in this order: children before the rows their foreign keys name.
 */

export interface ForgetTable {
  readonly table: string;
  /** Deletes the doomed sessions' rows of this table. */
  readonly deleteSql: string;
}

export const FORGET_TABLES: readonly ForgetTable[] = [
  { table: 'edges', deleteSql: 'DELETE FROM edges WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'tool_calls', deleteSql: 'DELETE FROM tool_calls WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'tool_results', deleteSql: 'DELETE FROM tool_results WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'result_ids', deleteSql: 'DELETE FROM result_ids WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'prompt_times', deleteSql: 'DELETE FROM prompt_times WHERE parent_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'link_cycle_checks', deleteSql: 'DELETE FROM link_cycle_checks WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  // A waiting item is a node's seq (its parent, summary, subagent… has not arrived yet).
  { table: 'link_waiting', deleteSql: 'DELETE FROM link_waiting WHERE item IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'node_renames', deleteSql: 'DELETE FROM node_renames WHERE node_id IN (SELECT id FROM temp.forget_nodes)' },
  {
    table: 'agent_spawns',
    deleteSql: `DELETE FROM agent_spawns WHERE tool_use_id IN (
      SELECT c.tool_use_id FROM tool_calls c WHERE c.node_seq IN (SELECT seq FROM temp.forget_nodes))
      OR agent_id IN (SELECT agent_id FROM nodes WHERE seq IN (SELECT seq FROM temp.forget_nodes) AND agent_id IS NOT NULL)`,
  },
  { table: 'node_usage', deleteSql: 'DELETE FROM node_usage WHERE node_seq IN (SELECT seq FROM temp.forget_nodes)' },
  { table: 'session_graph_segments', deleteSql: 'DELETE FROM session_graph_segments WHERE session_id IN (SELECT id FROM temp.forget_sessions)' },
  { table: 'nodes', deleteSql: 'DELETE FROM nodes WHERE seq IN (SELECT seq FROM temp.forget_nodes)' },
  // The stored copies' blobs go with the file's ref (delete-sessions.ts), then the prune.
  { table: 'file_history_copies', deleteSql: 'DELETE FROM file_history_copies WHERE file_id IN (SELECT id FROM temp.forget_files)' },
  // An oversize line's whole bytes (migration 034), kept by the file whose node or record holds its head.
  { table: 'long_line_chunks', deleteSql: 'DELETE FROM long_line_chunks WHERE file_id IN (SELECT id FROM temp.forget_files)' },
  { table: 'long_lines', deleteSql: 'DELETE FROM long_lines WHERE file_id IN (SELECT id FROM temp.forget_files)' },
  { table: 'parse_state_keys', deleteSql: 'DELETE FROM parse_state_keys WHERE file_id IN (SELECT id FROM temp.forget_files)' },
  { table: 'records', deleteSql: 'DELETE FROM records WHERE file_id IN (SELECT id FROM temp.forget_files)' },
  // Raw lines in blocks (migration 035): a block holds one session's node lines, or a file's records.
  {
    table: 'raw_blocks',
    deleteSql: 'DELETE FROM raw_blocks WHERE file_id IN (SELECT id FROM temp.forget_files) OR session_id IN (SELECT id FROM temp.forget_sessions)',
  },
  // The format report's counts (migration 038): a file's, or a session's lines in another file.
  {
    table: 'format_counts',
    deleteSql: 'DELETE FROM format_counts WHERE file_id IN (SELECT id FROM temp.forget_files) OR session_id IN (SELECT id FROM temp.forget_sessions)',
  },
  { table: 'files', deleteSql: 'DELETE FROM files WHERE id IN (SELECT id FROM temp.forget_files)' },
  { table: 'session_aliases', deleteSql: 'DELETE FROM session_aliases WHERE session_id IN (SELECT id FROM temp.forget_sessions)' },
  {
    table: 'session_lineage',
    deleteSql: 'DELETE FROM session_lineage WHERE later_id IN (SELECT id FROM temp.forget_sessions) OR earlier_id IN (SELECT id FROM temp.forget_sessions)',
  },
  { table: 'merge_records', deleteSql: 'DELETE FROM merge_records WHERE session_id IN (SELECT id FROM temp.forget_sessions)' },
  { table: 'forks', deleteSql: 'DELETE FROM forks WHERE session_id IN (SELECT id FROM temp.forget_sessions)' },
  { table: 'snapshots', deleteSql: 'DELETE FROM snapshots WHERE node_id IN (SELECT node_id FROM temp.forget_snapshots)' },
  { table: 'operation_files', deleteSql: 'DELETE FROM operation_files WHERE operation_id IN (SELECT id FROM temp.forget_operations)' },
  { table: 'operations', deleteSql: 'DELETE FROM operations WHERE id IN (SELECT id FROM temp.forget_operations)' },
  { table: 'sessions', deleteSql: 'DELETE FROM sessions WHERE id IN (SELECT id FROM temp.forget_sessions)' },
];

/**
 * Tables that hold no session's rows although a column name may suggest it, each with why. The full-text
 * index (node_text and its shadow tables) is deleted from by rowid and then merged (session-delete.ts).
 */
export const NOT_SESSION_DATA: ReadonlyMap<string, string> = new Map([
  ['meta', 'store-wide settings and watermarks'],
  ['prices', 'the price table: store-wide data, not any session\'s'],
  ['agent_plans', 'which agents run on a subscription plan: store-wide settings'],
  ['sqlite_sequence', "SQLite's AUTOINCREMENT counters"],
  ['node_text', 'the full-text index: rows deleted by rowid, then merged'],
  ['node_text_config', 'FTS5 shadow table'],
  ['node_text_content', 'FTS5 shadow table'],
  ['node_text_data', 'FTS5 shadow table (rewritten by the merge)'],
  ['node_text_docsize', 'FTS5 shadow table'],
  ['node_text_idx', 'FTS5 shadow table'],
  ['deleted_files', 'tombstones: a deleted session is remembered by its files, not its rows'],
]);
