/**
 * Tombstones of deleted sessions' transcript files (migration 024): the import skips a file a tombstone knows
 * (by path), so a deleted session whose transcript is still on disk is
 * not silently added back; `arbor import --include-deleted` clears them and imports it again.
 */
import type { ReadableDB, WritableDB } from './database';

export interface Tombstone {
  readonly path: string;
  readonly dev: number | null;
  readonly ino: number | null;
  readonly size: number;
  readonly mtimeMs: number;
}

export function prepareTombstoneQueries(db: ReadableDB) {
  const byPath = db.prepare<[string], { path: string }>('SELECT path FROM deleted_files WHERE path = ?');
  const any = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM deleted_files');
  return {
    /** True when the file at `path` belongs to a deleted session (cheap: the import asks for every file). */
    isDeleted: (path: string): boolean => byPath.get(path) !== undefined,
    count: (): number => any.get()?.n ?? 0,
  };
}

export function writeTombstones(db: WritableDB, tombstones: readonly Tombstone[], deletedAt: string): void {
  const insert = db.prepare<[string, number | null, number | null, number, number, string]>(
    'INSERT OR REPLACE INTO deleted_files (path, dev, ino, size, mtime_ms, deleted_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const t of tombstones) insert.run(t.path, t.dev, t.ino, t.size, t.mtimeMs, deletedAt);
}

/** Forgets the tombstones (all, or those of these paths and of files below these folders); returns the paths cleared. */
export function clearTombstones(db: WritableDB, within?: readonly string[]): string[] {
  const all = db.prepare<[], { path: string }>('SELECT path FROM deleted_files').all().map((row) => row.path);
  const cleared = within === undefined ? all : all.filter((path) => within.some((root) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`)));
  const remove = db.prepare<[string]>('DELETE FROM deleted_files WHERE path = ?');
  db.transaction(() => {
    for (const path of cleared) remove.run(path);
  })();
  return cleared;
}
