/**
 * Linking as nodes land (link-state.ts): what the linker used to recompute from every row of a session on each
 * import is kept in small integer-keyed tables, so an append costs what it appends. Existing stores are moved
 * from their rows alone (no transcript is read again): what waits for a node, call or spawn not stored yet;
 * the prompt times under each parent (branch points); each session's first child-before-parent node (where
 * cycle walks stop); its summary title. Sessions an interrupted import left unlinked are linked here as the
 * old linker would have, and finished by the next link run.
 */
import type { Migration } from './index';

const UNLINKED = 'SELECT id FROM sessions WHERE dirty = 1';
const SUMMARY = "r.type = 'summary' AND r.ref_by_key = 1 AND r.summary IS NOT NULL AND r.summary != ''";

export const migration011LinkState: Migration = {
  version: 11,
  name: 'link-state',
  up(db) {
    db.exec(`
      -- the transcript's own title (a summary record naming one of its nodes); null when it has none
      ALTER TABLE sessions ADD COLUMN summary_title TEXT;
      -- set when a summary for one of its nodes arrived: the link run looks the title up again
      ALTER TABLE sessions ADD COLUMN summary_stale INTEGER NOT NULL DEFAULT 0;
      -- the first node whose parent was stored after it: below it no parent walk can come back (no cycle)
      ALTER TABLE sessions ADD COLUMN forward_min_seq INTEGER;

      -- A reference not resolved yet, under the id it waits for: a node's parent or logical parent
      -- (item = node seq), a subagent root's spawning call or agent (item = node seq), a summary's node
      -- (item = record id).
      CREATE TABLE link_waiting (
        ref TEXT NOT NULL,
        kind TEXT NOT NULL,
        item INTEGER NOT NULL,
        PRIMARY KEY (ref, kind, item)
      ) WITHOUT ROWID;

      -- Nodes whose parent arrived after them since the last link run (the only places a cycle can close).
      CREATE TABLE link_cycle_checks (node_seq INTEGER PRIMARY KEY);

      -- Typed prompts under each parent by time: a parent with two or more times is a real branch point.
      CREATE TABLE prompt_times (
        parent_seq INTEGER NOT NULL,
        time TEXT NOT NULL,
        children INTEGER NOT NULL,
        PRIMARY KEY (parent_seq, time)
      ) WITHOUT ROWID;

      UPDATE nodes SET parent_id = parent_source_id
      WHERE parent_id IS NULL AND parent_source_id IS NOT NULL AND session_id IN (${UNLINKED})
        AND EXISTS (SELECT 1 FROM nodes p WHERE p.id = nodes.parent_source_id);
      INSERT OR IGNORE INTO edges (node_seq, kind, other_id)
        SELECT n.seq, 'logical', n.logical_parent_source_id FROM nodes n
        WHERE n.logical_parent_source_id IS NOT NULL AND n.session_id IN (${UNLINKED})
          AND EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.logical_parent_source_id);
      INSERT OR IGNORE INTO edges (node_seq, kind, other_id)
        SELECT seq, 'subagent', spawner FROM (
          SELECT n.seq, n.id, coalesce(
            (SELECT cn.id FROM tool_calls c JOIN nodes cn ON cn.seq = c.node_seq WHERE c.tool_use_id = n.spawned_by_tool_use_id LIMIT 1),
            CASE WHEN f.role = 'subagent' AND n.parent_source_id IS NULL THEN (
              SELECT cn.id FROM agent_spawns s JOIN tool_calls c ON c.tool_use_id = s.tool_use_id JOIN nodes cn ON cn.seq = c.node_seq
              WHERE s.agent_id = coalesce(f.agent_id, n.agent_id) LIMIT 1) END) AS spawner
          FROM nodes n JOIN files f ON f.id = n.file_id
          WHERE n.session_id IN (${UNLINKED}) AND (n.spawned_by_tool_use_id IS NOT NULL OR (f.role = 'subagent' AND n.parent_source_id IS NULL))
        ) WHERE spawner IS NOT NULL AND spawner != id;

      UPDATE sessions SET forward_min_seq = (
        SELECT min(c.seq) FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.session_id = sessions.id AND p.seq >= c.seq
      );
      INSERT INTO link_cycle_checks (node_seq)
        SELECT c.seq FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE p.seq >= c.seq AND c.session_id IN (${UNLINKED});

      INSERT OR IGNORE INTO link_waiting (ref, kind, item)
        SELECT n.parent_source_id, 'parent', n.seq FROM nodes n
        WHERE n.parent_source_id IS NOT NULL AND n.parent_id IS NULL AND NOT EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.parent_source_id);
      INSERT OR IGNORE INTO link_waiting (ref, kind, item)
        SELECT n.logical_parent_source_id, 'logical', n.seq FROM nodes n
        WHERE n.logical_parent_source_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nodes p WHERE p.id = n.logical_parent_source_id);
      INSERT OR IGNORE INTO link_waiting (ref, kind, item)
        SELECT n.spawned_by_tool_use_id, 'subagent', n.seq FROM nodes n
        WHERE n.spawned_by_tool_use_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.node_seq = n.seq AND e.kind = 'subagent');
      INSERT OR IGNORE INTO link_waiting (ref, kind, item)
        SELECT coalesce(f.agent_id, n.agent_id), 'subagent', n.seq FROM nodes n JOIN files f ON f.id = n.file_id
        WHERE f.role = 'subagent' AND n.parent_source_id IS NULL AND coalesce(f.agent_id, n.agent_id) IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.node_seq = n.seq AND e.kind = 'subagent');
      INSERT OR IGNORE INTO link_waiting (ref, kind, item)
        SELECT r.ref_source_id, 'summary', r.id FROM records r
        WHERE ${SUMMARY} AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = r.ref_source_id);

      INSERT INTO prompt_times (parent_seq, time, children)
        SELECT p.seq, coalesce(c.timestamp, 'line:' || c.line), count(*) FROM nodes c JOIN nodes p ON p.id = c.parent_id
        WHERE c.kind = 'user' GROUP BY p.seq, coalesce(c.timestamp, 'line:' || c.line);

      WITH ranked AS (
        SELECT n.session_id, r.summary,
               row_number() OVER (PARTITION BY n.session_id ORDER BY n.file_id DESC, n.line DESC, r.id DESC) AS rank
        FROM records r CROSS JOIN nodes n ON n.id = r.ref_source_id WHERE ${SUMMARY}
      )
      UPDATE sessions SET summary_title = ranked.summary FROM ranked WHERE ranked.session_id = sessions.id AND ranked.rank = 1;

      UPDATE sessions SET
        summary_stale = 1,
        node_count = (SELECT count(*) FROM nodes WHERE session_id = sessions.id),
        started_at = (SELECT min(timestamp) FROM nodes WHERE session_id = sessions.id),
        updated_at = (SELECT max(timestamp) FROM nodes WHERE session_id = sessions.id),
        branch_count = (
          SELECT count(*) FROM (
            SELECT 1 FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.session_id = sessions.id AND c.kind = 'user'
            GROUP BY p.seq HAVING count(DISTINCT coalesce(c.timestamp, 'line:' || c.line)) >= 2
          )
        )
      WHERE dirty = 1 AND EXISTS (SELECT 1 FROM nodes WHERE session_id = sessions.id);
    `);
  },
};
