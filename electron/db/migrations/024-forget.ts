/**
 * Forgetting (issue 15). `deleted_files`: a tombstone per transcript file whose session was deleted, so the
 * next import or the live tail does not bring it back unasked (`arbor import --include-deleted` does). A file
 * is matched by its path; its device, inode, size and mtime are kept to say which file was deleted.
 * `forks.expires_at`: a fork marked temporary (`arbor fork --temporary [TTL]`), removed by gc after that time.
 */
import type { Migration } from './index';

export const migration024Forget: Migration = {
  version: 24,
  name: 'forget',
  up(db) {
    db.exec(`
      CREATE TABLE deleted_files (
        path TEXT PRIMARY KEY,
        dev INTEGER,
        ino INTEGER,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        deleted_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX deleted_files_by_inode ON deleted_files(dev, ino) WHERE ino IS NOT NULL;
      ALTER TABLE forks ADD COLUMN expires_at TEXT;
    `);
  },
};
