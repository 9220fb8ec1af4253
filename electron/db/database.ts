/**
 * The one place that opens SQLite. Read and write handles are distinct types (STYLE.md principle 9), so a
 * query function's signature says whether it may write; the service sees only the SessionStore interface.
 */
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
 * idempotent: nodes dedupe by id, records by file offset), so skip fsyncs and do not checkpoint: the WAL
 * is folded into the main file by the next commit after bulk mode ends (the background indexer's).
 */
export function setBulkMode(db: WritableDB, on: boolean): void {
  db.pragma(on ? 'synchronous = OFF' : 'synchronous = NORMAL');
  db.pragma(on ? 'wal_autocheckpoint = 0' : 'wal_autocheckpoint = 256');
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
