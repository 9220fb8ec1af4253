/**
 * Search as you type over a million nodes. The full-text index is rebuilt so that:
 * - its rowid orders by time: (unix seconds of the node's timestamp << 31) | seq. `ORDER BY rowid DESC LIMIT`
 *   then reads the newest matches first without sorting (seq follows import order, which across sessions is
 *   the order files were found, not the order they were written), and a date range is a rowid range;
 *   seq stays recoverable as `rowid & 0x7fffffff`;
 * - one- to three-letter prefixes have their own index (the first keystroke no longer merges every term
 *   starting with that letter);
 * - a second column holds a node's facets as tokens (kind, session, agent), so filtered queries are doclist
 *   intersections inside FTS5 rather than a scan of every match.
 * The text is derived again from the stored raw lines by the background indexer (the transcripts are not
 * read); search answers from the part indexed so far meanwhile.
 */
import type { Migration } from './index';

export const migration010SearchOrder: Migration = {
  version: 10,
  name: 'search-order',
  up(db) {
    db.exec(`
      DROP TABLE node_text;
      CREATE VIRTUAL TABLE node_text USING fts5(
        text,
        facets,
        prefix = '1 2 3',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      UPDATE meta SET value = 0 WHERE key = 'fts_indexed_upto';
    `);
  },
};
