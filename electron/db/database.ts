/**
 * The one place that opens SQLite. Read and write handles are distinct types (STYLE.md principle 9), so a
 * query function's signature says whether it may write; the service sees only the SessionStore interface.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from './migrations';

/** A connection that may only be read from (opened read-only, so SQLite enforces it too). */
export type ReadableDB = Database.Database & { readonly __readableDB: never };
/** The single writing connection; it can also read its own uncommitted writes. */
export type WritableDB = ReadableDB & { readonly __writableDB: never };

export interface DatabaseHandles {
  readonly write: WritableDB;
  readonly read: ReadableDB;
  close(): void;
}

/**
 * A WAL that is never folded back grows with everything a bulk import writes (22 GB once, on a 1 GB
 * transcript), and every page read searches its index, which grows with it. Past this size the import folds it.
 */
export const BULK_WAL_BYTES = 256 * 1024 * 1024;
/** What a restarted WAL file is cut back to. */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;

/** Opens (creating and migrating when needed) the store file and returns a writer and a reader over it. */
export function openDatabase(path: string): DatabaseHandles {
  const writer = new Database(path);
  // Big pages: a node's raw line is a blob of a few KB, so small pages would chain overflow pages for most.
  // Only takes effect on a new file (before the first table is created).
  writer.pragma('page_size = 65536');
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  writer.pragma('cache_size = -32000');
  writer.pragma('temp_store = MEMORY');
  // When a checkpoint has folded the whole WAL back, the next write restarts it and cuts the file to this size.
  writer.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  const write = writer as WritableDB;
  migrate(write);

  // WAL lets the reader see the last committed state while an import batch is being written.
  const reader = new Database(path, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  reader.pragma('cache_size = -16000');
  // Searches read scattered rows of a big file: mapped pages are read in place instead of copied 64 KiB at a time.
  reader.pragma('mmap_size = 1073741824');
  const read = reader as ReadableDB;

  return {
    write,
    read,
    close() {
      reader.close();
      // Fold the WAL back into the main file so a closed store is one self-contained file.
      try {
        writer.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        writer.close();
      }
    },
  };
}

/**
 * Bulk mode for imports: durability of a half-written batch does not matter (re-reading a file is
 * idempotent: nodes dedupe by id, records by file offset), so skip fsyncs and leave checkpoints to the
 * import, which folds the WAL back between batches once it passes BULK_WAL_BYTES (`foldLargeWal`): an
 * autocheckpoint after every 256 pages would copy the same hot index pages again and again.
 */
export function setBulkMode(db: WritableDB, on: boolean): void {
  db.pragma(on ? 'synchronous = OFF' : 'synchronous = NORMAL');
  db.pragma(on ? 'wal_autocheckpoint = 0' : 'wal_autocheckpoint = 256');
}

/**
 * Between batches: when the WAL has grown past `limit`, copies its pages into the main file (PASSIVE: a reader
 * still on an older snapshot keeps its pages; what it holds is copied by a later call). Once all of it is
 * copied, the next write starts the WAL from its beginning, so disk use stays bounded. Returns whether it ran.
 */
export function foldLargeWal(db: WritableDB, limit = BULK_WAL_BYTES): boolean {
  let size: number;
  try {
    size = statSync(`${db.name}-wal`).size;
  } catch {
    return false; // no WAL file (an in-memory store, or nothing written yet)
  }
  if (size < limit) return false;
  db.pragma('wal_checkpoint(PASSIVE)');
  return true;
}

/**
 * Runs `work` (one or more transactions) with every commit flushed to disk (`synchronous = FULL`), then puts
 * the previous setting back (NORMAL, or OFF in bulk mode). For the few records that must outlive a power
 * cut, not just a crash of the process: with NORMAL, a commit in WAL mode survives kill -9 but may be lost
 * with the power.
 */
export function durably<T>(db: WritableDB, work: () => T): T {
  const previous = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = FULL');
  try {
    return work();
  } finally {
    db.pragma(`synchronous = ${previous}`);
  }
}
