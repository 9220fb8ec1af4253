/**
 * The full-text index keeps prefixes of one and two letters, not three (issue 12). Each prefix length FTS5 keeps
 * is a second index holding every token again: '1 2 3' made the index 0.46x a 1 GB transcript, '1 2' 0.35x, and
 * the indexing wrote 2.23x the input, 1.72x now (it writes the index twice, once as segments and once merged,
 * each through the WAL). A last word of three letters or more is looked up by its two-letter prefix and the
 * newest candidates' heads are checked for the whole word (search-query.ts `broadenLastWord`), as longer words
 * were by three letters before; one- and two-letter prefixes (the first keystrokes) keep their own index.
 * The index is filled again by the background indexer from the rows the store holds (no transcript is read;
 * search answers from what is indexed so far meanwhile): the schema change here is O(1) whatever the store's size.
 */
import { FACET_REWRITE_KEYS } from '../search';
import { FTS_AUTOMERGE, FTS_CRISISMERGE } from './025-search-merge';
import { FTS_HASHSIZE } from './037-search-chunk-memory';
import type { Migration } from './index';

export const migration043TwoLetterPrefixes: Migration = {
  version: 43,
  name: 'two-letter-prefixes',
  up(db) {
    db.exec('DROP TABLE node_text');
    // SQLite 3.53's FTS5 leaves a contentless_unindexed table's `_content` table behind when the table is dropped,
    // and the next CREATE fails on it; defensive mode refuses to drop it (a shadow table's name) unless lifted.
    db.unsafeMode(true);
    try {
      db.exec('DROP TABLE IF EXISTS node_text_content');
    } finally {
      db.unsafeMode(false);
    }
    db.exec(`
      CREATE VIRTUAL TABLE node_text USING fts5(
        text,
        facets,
        head UNINDEXED,
        length UNINDEXED,
        content = '',
        contentless_delete = 1,
        contentless_unindexed = 1,
        prefix = '1 2',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO node_text (node_text, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
      INSERT INTO node_text (node_text, rank) VALUES ('crisismerge', ${FTS_CRISISMERGE});
      INSERT INTO node_text (node_text, rank) VALUES ('hashsize', ${FTS_HASHSIZE});
      UPDATE meta SET value = 0 WHERE key = 'fts_indexed_upto';
      INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_merged_upto', 0);
      -- Every row is indexed again with its kind×project token (migration 039): none is left to rewrite.
      INSERT OR REPLACE INTO meta (key, value) VALUES ('${FACET_REWRITE_KEYS.until}', 0);
      INSERT OR REPLACE INTO meta (key, value) VALUES ('${FACET_REWRITE_KEYS.done}', 0);
    `);
  },
};
