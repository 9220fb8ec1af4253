/**
 * The archive keeps long lines whole (issue 15): a transcript line longer than RAW_LIMIT keeps only its head in
 * `nodes.raw` / `records.raw`, so its full bytes are kept here, in chunks, once the import has read the file.
 * `long_lines` says a line is complete (written last, after all its chunks); `long_line_chunks` holds its bytes in
 * order. Both are keyed by the transcript file and line number, as the node or record row that holds the head,
 * so a deletion finds them by file (session-delete-tables.ts).
 */
import type { Migration } from './index';

export const migration034LongLines: Migration = {
  version: 34,
  name: 'long-lines',
  up(db) {
    db.exec(`
      CREATE TABLE long_lines (
        file_id INTEGER NOT NULL REFERENCES files(id),
        line INTEGER NOT NULL,
        total_bytes INTEGER NOT NULL,
        chunks INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        PRIMARY KEY (file_id, line)
      ) WITHOUT ROWID;
      CREATE TABLE long_line_chunks (
        file_id INTEGER NOT NULL REFERENCES files(id),
        line INTEGER NOT NULL,
        chunk INTEGER NOT NULL,
        codec INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (file_id, line, chunk)
      );
    `);
  },
};
