/**
 * Raw lines in compressed blocks (issue 12, raw-blocks.ts): an import compresses the lines of a file in blocks of
 * ~64 KiB instead of one by one, and each node or record row points at its span of a block. The rows a store
 * already holds keep their own bytes (codec 0 or 1) and stay readable as they are: nothing is rewritten, no
 * transcript is read again. The new columns are null on those rows.
 */
import type { Migration } from './index';

export const migration035RawBlocks: Migration = {
  version: 35,
  name: 'raw-blocks',
  up(db) {
    db.exec(`
      -- AUTOINCREMENT: an id is never handed out twice, so a reader's cache of decoded blocks is never stale.
      -- session_id: the session whose node lines the block holds; null for the file's records (they go with it).
      CREATE TABLE raw_blocks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        file_id INTEGER NOT NULL REFERENCES files(id),
        session_id TEXT,
        codec INTEGER NOT NULL,
        bytes BLOB NOT NULL
      );
      CREATE INDEX raw_blocks_by_file ON raw_blocks(file_id);
      CREATE INDEX raw_blocks_by_session ON raw_blocks(session_id) WHERE session_id IS NOT NULL;
      -- A row in a block: raw_codec 2, raw empty, its line at [raw_start, raw_start + raw_length) of the decoded block.
      ALTER TABLE nodes ADD COLUMN raw_block INTEGER;
      ALTER TABLE nodes ADD COLUMN raw_start INTEGER;
      ALTER TABLE nodes ADD COLUMN raw_length INTEGER;
      ALTER TABLE records ADD COLUMN raw_block INTEGER;
      ALTER TABLE records ADD COLUMN raw_start INTEGER;
      ALTER TABLE records ADD COLUMN raw_length INTEGER;
    `);
  },
};
