/**
 * Sessions that go on from another session's transcript (Claude Code 2026, issue 13): a fork (`/branch`,
 * `--fork-session`: copied lines carry `forkedFrom`), a background continuation (a `continued-in` record), a
 * session whose file opens with lines of the one before it (a plan accepted, the context cleared). One row
 * per link, written as the lines land; `reported` marks a link whose other session was reported missing.
 * An existing store keeps its `continued-in` records (unknown lines were always kept), so those links are
 * filled from them here; forks and cleared contexts imported before this were stored in one session and
 * are only split by importing their files into a new data folder.
 */
import type { Migration } from './index';
import { rawTextFunction } from '../raw-line';

export const migration014SessionLineage: Migration = {
  version: 14,
  name: 'session-lineage',
  up(db) {
    rawTextFunction(db);
    db.exec(`
      CREATE TABLE session_lineage (
        later_id TEXT NOT NULL,      -- the session that goes on
        kind TEXT NOT NULL,          -- 'fork' | 'continues' | 'follows'
        earlier_id TEXT NOT NULL,    -- the session it goes on from
        node_id TEXT,                -- a fork's fork point (forkedFrom.messageUuid), else null
        reported INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (later_id, kind, earlier_id)
      ) WITHOUT ROWID;
      CREATE INDEX session_lineage_by_earlier ON session_lineage (earlier_id);

      INSERT OR IGNORE INTO session_lineage (later_id, kind, earlier_id)
        SELECT later, 'continues', earlier FROM (
          SELECT json_extract(raw_text(r.raw, r.raw_codec), '$.continuedInSessionId') AS later,
                 coalesce(json_extract(raw_text(r.raw, r.raw_codec), '$.sessionId'), f.session_id) AS earlier
          FROM records r JOIN files f ON f.id = r.file_id
          WHERE r.type = 'continued-in' AND json_valid(raw_text(r.raw, r.raw_codec))
        ) WHERE later IS NOT NULL AND earlier IS NOT NULL AND later != earlier;
    `);
  },
};
