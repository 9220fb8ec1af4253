/**
 * A store no bigger than the transcripts it holds (issue 12). At 1M messages the store was 2.12× its
 * transcripts: the raw lines as read (54% of the file), the full-text index (22%) and the index's own copy of
 * every node's text (15%). Now:
 * - raw lines are stored compressed, one by one (raw-line.ts); `raw_codec` says how each row is stored, so rows
 *   written before this migration stay readable as they are and are compressed in the background afterwards
 *   (raw-compaction.ts, small transactions up to `meta.raw_compact_until`: resumable, nothing half-written);
 * - the full-text index keeps no text: it is contentless, and holds only what ranking reads per candidate (the
 *   head of the text and its length, UNINDEXED); a snippet past the head reads the node's raw line again;
 * - its facets gain the session's project, so a project filter is one token, not an OR of its sessions.
 * The index is filled again from the stored raw lines by the background indexer (no transcript is read);
 * search answers from what is indexed so far meanwhile. The rewrite of big tables never runs inside this
 * migration's transaction: the schema change here is O(1) whatever the store's size.
 */
import type { Migration } from './index';

export const migration013CompactStore: Migration = {
  version: 13,
  name: 'compact-store',
  up(db) {
    db.exec(`
      -- 0: the line as read; 1: deflate-raw with raw-line.ts's dictionary v1
      ALTER TABLE nodes ADD COLUMN raw_codec INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE records ADD COLUMN raw_codec INTEGER NOT NULL DEFAULT 0;
      INSERT OR REPLACE INTO meta (key, value) VALUES ('raw_compact_until', coalesce((SELECT max(seq) FROM nodes), 0));
      INSERT OR REPLACE INTO meta (key, value) VALUES ('raw_compacted_upto', 0);
      INSERT OR REPLACE INTO meta (key, value) VALUES ('record_compact_until', coalesce((SELECT max(id) FROM records), 0));
      INSERT OR REPLACE INTO meta (key, value) VALUES ('record_compacted_upto', 0);

      DROP TABLE node_text;
      CREATE VIRTUAL TABLE node_text USING fts5(
        text,
        facets,
        head UNINDEXED,
        length UNINDEXED,
        content = '',
        contentless_delete = 1,
        contentless_unindexed = 1,
        prefix = '1 2 3',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      UPDATE meta SET value = 0 WHERE key = 'fts_indexed_upto';
    `);
  },
};
