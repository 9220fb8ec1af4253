/**
 * The folders an operation may remove, as they were before it (issue 10, case 6): the folders above a file it
 * deletes (removed when they are left empty) and those standing where it writes a file, each with its
 * permission bits, so a rollback, a crash recovery and undo bring the folder structure back exactly, empty
 * folders included. Operations journaled before this migration have none recorded ('{}').
 */
import type { Migration } from './index';

export const migration008OperationFolders: Migration = {
  version: 8,
  name: 'operation-folders',
  up(db) {
    db.exec(`
      -- JSON object: workspace-relative folder -> permission bits (e.g. {"docs/img": 493})
      ALTER TABLE operations ADD COLUMN folders_before TEXT NOT NULL DEFAULT '{}';
    `);
  },
};
