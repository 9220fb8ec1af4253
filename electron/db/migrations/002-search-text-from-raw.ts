/**
 * The full-text index keeps its own copy of each node's search text. Until now it was an external-content
 * index over `nodes.text`, which the import had to fill (a 32 KiB string extracted and written per node, on
 * the import's hot path). Now the background indexer derives the text from the stored raw line and inserts it
 * here, so the import stores `nodes.text` only when a parser supplies it (null = derive from `raw`; '' = none).
 * Everything is indexed again from the start.
 */
import type { Migration } from './index';

export const migration002SearchTextFromRaw: Migration = {
  version: 2,
  name: 'search-text-from-raw',
  up(db) {
    db.exec(`
      DROP TABLE node_text;
      CREATE VIRTUAL TABLE node_text USING fts5(
        text,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      UPDATE meta SET value = 0 WHERE key = 'fts_indexed_upto';
    `);
  },
};
