/**
 * The format report's counts kept by the import (db/format-counts.ts): `sessions.formatReport` read every stored
 * line of the session on the serving thread (72 s at a 1M-node session). `format_counts` holds one tally per file
 * and session; `files.format_counted` says a file's lines were all counted as they were stored — files stored
 * before this migration have 0, and their tallies are counted from their stored lines by the first report that
 * needs them (in slices, off the serving thread's way), then kept by later imports. Nothing is read here.
 * Numbered below 040, which was merged first: a store already at 040 gets it too (`isApplied`).
 */
import type { Migration } from './index';

export const migration038FormatCounts: Migration = {
  version: 38,
  name: 'format-counts',
  isApplied: (db) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'format_counts'").get() !== undefined,
  up(db) {
    db.exec(`
      CREATE TABLE format_counts (
        file_id INTEGER NOT NULL,
        session_id TEXT NOT NULL,
        tally TEXT,
        PRIMARY KEY (file_id, session_id)
      ) WITHOUT ROWID;
      CREATE INDEX format_counts_by_session ON format_counts(session_id);
      ALTER TABLE files ADD COLUMN format_counted INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
