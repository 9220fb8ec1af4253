/**
 * What a file's parser kept when the last import stopped reading it (issue 12): a Codex rollout's lines depend on
 * the ones before (parents, call names, numbered call ids), so without it an append re-read the whole rollout.
 * `parse_state` is the parser's own text (opaque here), `parse_state_offset` the end offset it was taken at: it
 * is given back only to a read starting there. Existing stores keep null: their next append reads the file
 * from its start once, as before, and keeps the state from then on (nothing is re-read by the migration).
 */
import type { Migration } from './index';

export const migration040ParseStates: Migration = {
  version: 40,
  name: 'parse-states',
  up(db) {
    db.exec(`
      ALTER TABLE files ADD COLUMN parse_state TEXT;
      ALTER TABLE files ADD COLUMN parse_state_offset INTEGER;
    `);
  },
};
