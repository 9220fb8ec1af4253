/** The session store: sessions, their source files, nodes, extra edges, tool calls, records, full-text index. */
import type { Migration } from './index';

export const migration001Sessions: Migration = {
  version: 1,
  name: 'sessions',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        title TEXT NOT NULL,
        project TEXT,
        started_at TEXT,
        updated_at TEXT,
        node_count INTEGER NOT NULL DEFAULT 0,
        file_count INTEGER NOT NULL DEFAULT 0,
        branch_count INTEGER NOT NULL DEFAULT 0,
        -- set when nodes were added; cleared once parents, edges and counts are recomputed
        dirty INTEGER NOT NULL DEFAULT 1
      );
      CREATE INDEX sessions_by_update ON sessions(updated_at);

      -- Every session id a file or line claimed, mapped to the session it was grouped into.
      CREATE TABLE session_aliases (
        alias TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id)
      ) WITHOUT ROWID;

      CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        format TEXT NOT NULL,
        role TEXT NOT NULL,
        agent_id TEXT,
        session_id TEXT REFERENCES sessions(id),
        size INTEGER NOT NULL DEFAULT 0,
        mtime_ms REAL NOT NULL DEFAULT 0,
        -- resume point: just after the last complete line read
        end_offset INTEGER NOT NULL DEFAULT 0,
        end_line INTEGER NOT NULL DEFAULT 1,
        first_cwd TEXT
      );
      CREATE INDEX files_by_session ON files(session_id);

      -- seq never reuses a value, so the full-text watermark (meta.fts_indexed_upto) stays valid.
      -- raw and text come last: reading the other columns never touches them (and one insert per node
      -- instead of two measured ~25% cheaper on import than a separate bodies table).
      CREATE TABLE nodes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        file_id INTEGER NOT NULL REFERENCES files(id),
        line INTEGER NOT NULL,
        offset INTEGER NOT NULL,
        parent_source_id TEXT,
        parent_id TEXT,
        logical_parent_source_id TEXT,
        kind TEXT NOT NULL,
        timestamp TEXT,
        label TEXT NOT NULL,
        sidechain INTEGER NOT NULL,
        agent_id TEXT,
        model TEXT,
        spawned_agent_id TEXT,
        spawned_by_tool_use_id TEXT,
        raw_bytes INTEGER NOT NULL,
        -- the line as parsed, cut at RAW_LIMIT
        raw BLOB NOT NULL,
        -- searchable text (null when there is none), indexed by node_text in the background
        text TEXT
      );
      CREATE INDEX nodes_by_session ON nodes(session_id, file_id, line);

      CREATE TABLE edges (
        node_seq INTEGER NOT NULL REFERENCES nodes(seq),
        kind TEXT NOT NULL,
        other_id TEXT NOT NULL,
        PRIMARY KEY (node_seq, kind, other_id)
      ) WITHOUT ROWID;

      CREATE TABLE tool_calls (
        node_seq INTEGER NOT NULL REFERENCES nodes(seq),
        ordinal INTEGER NOT NULL,
        tool_use_id TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (node_seq, ordinal)
      ) WITHOUT ROWID;
      CREATE INDEX tool_calls_by_id ON tool_calls(tool_use_id);

      -- The first result recorded for a call; the outcome is derived by joining (results may arrive
      -- in another file or a later import than the call).
      CREATE TABLE tool_results (
        tool_use_id TEXT PRIMARY KEY,
        node_seq INTEGER NOT NULL REFERENCES nodes(seq),
        is_error INTEGER NOT NULL
      ) WITHOUT ROWID;

      -- Task/Agent results naming the subagent they ran: the join key to agent-<id>.jsonl.
      CREATE TABLE agent_spawns (
        agent_id TEXT PRIMARY KEY,
        tool_use_id TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE records (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES files(id),
        offset INTEGER NOT NULL,
        line INTEGER NOT NULL,
        type TEXT NOT NULL,
        -- the node it belongs to: by its own key (leafUuid, messageId) or else by file position
        ref_source_id TEXT,
        ref_by_key INTEGER NOT NULL,
        summary TEXT,
        raw BLOB NOT NULL,
        raw_bytes INTEGER NOT NULL,
        UNIQUE (file_id, offset)
      );
      CREATE INDEX records_by_ref ON records(ref_source_id);
      CREATE INDEX records_summaries ON records(type) WHERE type = 'summary';

      CREATE VIRTUAL TABLE node_text USING fts5(
        text,
        content = 'nodes',
        content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2'
      );

      CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
      INSERT INTO meta (key, value) VALUES ('fts_indexed_upto', 0);
    `);
  },
};
