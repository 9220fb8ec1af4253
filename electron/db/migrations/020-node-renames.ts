/**
 * A fork whose copied lines got new uuids (issue 13): each copy is stored as the parent's node it names in
 * `forkedFrom`, and its own uuid was only known to the parse that read it, so a later import of the same
 * fork (its next lines name the last copy's uuid as their parent) lost the parent. `node_renames` keeps
 * copy → original. An existing store fills it from the copies it stored as nodes (a copy's raw line is the
 * fork file's own: the node's file is the fork's, its session the parent's); a copy that was a duplicate of a
 * parent line already stored was not kept and is only recovered by importing its file into a new data folder.
 */
import type { Migration } from './index';
import { rawTextFunction } from '../raw-line';

export const migration020NodeRenames: Migration = {
  version: 20,
  name: 'node-renames',
  up(db) {
    rawTextFunction(db);
    db.exec(`
      CREATE TABLE node_renames (
        copy_id TEXT PRIMARY KEY,   -- the copy's uuid in the fork's file
        node_id TEXT NOT NULL       -- the original it is stored as (forkedFrom.messageUuid)
      ) WITHOUT ROWID;

      INSERT OR IGNORE INTO node_renames (copy_id, node_id)
        SELECT copy_id, id FROM (
          SELECT n.id, json_extract(raw_text(n.raw, n.raw_codec), '$.uuid') AS copy_id
          FROM nodes n
          -- The session index alone finds the candidates; only their raw lines are read.
          WHERE n.seq IN (SELECT c.seq FROM nodes c
                          WHERE c.session_id != (SELECT f.session_id FROM files f WHERE f.id = c.file_id))
            AND json_valid(raw_text(n.raw, n.raw_codec))
            AND json_extract(raw_text(n.raw, n.raw_codec), '$.forkedFrom.messageUuid') = n.id
        ) WHERE copy_id IS NOT NULL AND copy_id != id;
    `);
  },
};
