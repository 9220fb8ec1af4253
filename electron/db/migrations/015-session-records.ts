/**
 * Claude Code's 2026 records that belong to a whole session, not to one node (`relocated`, `worktree-state`,
 * `content-replacement`: session-records.ts), are looked up by type among a session's records; this partial
 * index holds only those, so it costs nothing for stores without them. Titles (`custom-title`, `ai-title`)
 * stored before this version kept no text: their text is read from the stored line, and their sessions are
 * marked for the next link run to title again (session-title.ts).
 */
import type { Migration } from './index';
import { rawTextFunction } from '../raw-line';

export const migration015SessionRecords: Migration = {
  version: 15,
  name: 'session-records',
  up(db) {
    rawTextFunction(db);
    db.exec(`
      CREATE INDEX records_of_sessions ON records(type, file_id, offset)
        WHERE type IN ('relocated', 'worktree-state', 'content-replacement');

      UPDATE records SET summary = trim(json_extract(raw_text(raw, raw_codec), CASE type WHEN 'custom-title' THEN '$.customTitle' ELSE '$.aiTitle' END))
        WHERE type IN ('custom-title', 'ai-title') AND summary IS NULL AND json_valid(raw_text(raw, raw_codec));
      UPDATE sessions SET summary_stale = 1, dirty = 1
        WHERE id IN (SELECT f.session_id FROM records r JOIN files f ON f.id = r.file_id
                     WHERE r.type IN ('custom-title', 'ai-title') AND r.summary IS NOT NULL AND r.summary != '');
    `);
  },
};
