/**
 * Which calls each result line answers, kept by the import (db/result-ids.ts): `sessions.states` read every raw
 * line of the session to find them (38.9 s of a 40 s open at a 239 MB transcript, 171 s at 1 GB), though only the
 * results of file edits are needed for their text. `result_ids` holds, per node whose line is a result kept whole,
 * the tool_use_ids of its tool_result blocks (a JSON array). Rows stored before this migration have none: their
 * lines are read as before, so nothing is re-read here, and every node imported from now on has its row.
 */
import type { Migration } from './index';

export const migration041ResultIds: Migration = {
  version: 41,
  name: 'result-ids',
  up(db) {
    // Keyed by the node's seq: the import appends in seq order, so its writes touch the table's last pages only.
    db.exec('CREATE TABLE result_ids (node_seq INTEGER PRIMARY KEY, tool_use_ids TEXT NOT NULL)');
  },
};
