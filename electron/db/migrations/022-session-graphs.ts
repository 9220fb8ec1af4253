/**
 * A session's graph stored as it is sent (issue 12: a 1M-node session read from its rows took 8–10 s, one SQL
 * pass over the covering index): runs of nodes in transcript order, each encoded once as a chunk
 * (shared/session-graph-chunks.ts). The segments of a session cover a prefix of its nodes in (file_id, line)
 * order; the triggers keep that true for every writer: any change to a node, its edges, its tool calls or
 * the result of one of its calls drops the segment holding it and every later one, which the next link run
 * (or the next open) encodes again from the rows. An append adds nodes at the end, so only the last segment
 * is written again. Existing stores get theirs on first open (session-graph-store.ts); no transcript is read.
 */
import type { Migration } from './index';

/** Drops the segments of `session` that end at or after the node at (`file`, `line`). */
const dropFrom = (session: string, file: string, line: string): string =>
  `DELETE FROM session_graph_segments WHERE session_id = ${session} AND (last_file, last_line) >= (${file}, ${line});`;

/** The same, for the node a row of edges / tool_calls names by its seq. */
const dropFromNode = (seq: string): string =>
  `DELETE FROM session_graph_segments WHERE id IN (
     SELECT g.id FROM nodes n JOIN session_graph_segments g
       ON g.session_id = n.session_id AND (g.last_file, g.last_line) >= (n.file_id, n.line)
     WHERE n.seq = ${seq});`;

/** The same, for every node carrying the call a tool_results row answers. */
const dropFromCall = (toolUseId: string): string =>
  `DELETE FROM session_graph_segments WHERE id IN (
     SELECT g.id FROM tool_calls c JOIN nodes n ON n.seq = c.node_seq JOIN session_graph_segments g
       ON g.session_id = n.session_id AND (g.last_file, g.last_line) >= (n.file_id, n.line)
     WHERE c.tool_use_id = ${toolUseId});`;

export const migration022SessionGraphs: Migration = {
  version: 22,
  name: 'session-graphs',
  up(db) {
    db.exec(`
      CREATE TABLE session_graph_segments (
        -- never reused: a session's graph version is its segments' count and newest id
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        -- the run's last node, as (file_id, line): the next segment starts after it
        last_file INTEGER NOT NULL,
        last_line INTEGER NOT NULL,
        node_count INTEGER NOT NULL,
        -- 0: the chunk's JSON text (ASCII)
        codec INTEGER NOT NULL,
        body BLOB NOT NULL
      );
      CREATE UNIQUE INDEX session_graph_segments_in_order ON session_graph_segments(session_id, last_file, last_line);

      CREATE TRIGGER session_graph_node_added AFTER INSERT ON nodes BEGIN
        ${dropFrom('NEW.session_id', 'NEW.file_id', 'NEW.line')}
      END;
      CREATE TRIGGER session_graph_node_changed
        AFTER UPDATE OF id, session_id, file_id, line, parent_source_id, parent_id, kind, timestamp, label, sidechain, agent_id, model ON nodes BEGIN
        ${dropFrom('OLD.session_id', 'OLD.file_id', 'OLD.line')}
        ${dropFrom('NEW.session_id', 'NEW.file_id', 'NEW.line')}
      END;
      CREATE TRIGGER session_graph_node_removed AFTER DELETE ON nodes BEGIN
        ${dropFrom('OLD.session_id', 'OLD.file_id', 'OLD.line')}
      END;
      CREATE TRIGGER session_graph_edge_added AFTER INSERT ON edges BEGIN ${dropFromNode('NEW.node_seq')} END;
      CREATE TRIGGER session_graph_edge_removed AFTER DELETE ON edges BEGIN ${dropFromNode('OLD.node_seq')} END;
      CREATE TRIGGER session_graph_call_added AFTER INSERT ON tool_calls BEGIN ${dropFromNode('NEW.node_seq')} END;
      CREATE TRIGGER session_graph_call_changed AFTER UPDATE ON tool_calls BEGIN
        ${dropFromNode('OLD.node_seq')}
        ${dropFromNode('NEW.node_seq')}
      END;
      CREATE TRIGGER session_graph_call_removed AFTER DELETE ON tool_calls BEGIN ${dropFromNode('OLD.node_seq')} END;
      CREATE TRIGGER session_graph_result_added AFTER INSERT ON tool_results BEGIN ${dropFromCall('NEW.tool_use_id')} END;
      CREATE TRIGGER session_graph_result_changed AFTER UPDATE ON tool_results BEGIN
        ${dropFromCall('OLD.tool_use_id')}
        ${dropFromCall('NEW.tool_use_id')}
      END;
      CREATE TRIGGER session_graph_result_removed AFTER DELETE ON tool_results BEGIN ${dropFromCall('OLD.tool_use_id')} END;
    `);
  },
};
