/**
 * The keyed part of a file's parser state (issue 12): what a parser looks up by key as the appended lines need it
 * (a Codex rollout's every call id, its uses and its tool's name), kept one row a key instead of inside
 * `files.parse_state`. Inside it, every append read, rebuilt, wrote and logged all of it again: ~55 of a 200 MB
 * rollout's ~60 ms append went to a state of 40k calls. Existing stores' states (version 1, calls inline) are
 * not given to the new parser: each such rollout's next append reads it from its start once, as after 040.
 */
import type { Migration } from './index';

export const migration045ParseStateKeys: Migration = {
  version: 45,
  name: 'parse-state-keys',
  up(db) {
    db.exec(`
      CREATE TABLE parse_state_keys (
        file_id INTEGER NOT NULL REFERENCES files(id),
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (file_id, key)
      ) WITHOUT ROWID;
    `);
  },
  isApplied: (db) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'parse_state_keys'").get() !== undefined,
};
