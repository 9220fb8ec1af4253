/**
 * The one place that opens SQLite. Read and write handles are distinct types (STYLE.md principle 9), so a
 * query function's signature says whether it may write; the service sees only the SessionStore interface.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ArborError } from '../../shared/errors';
import { currentVersion, latestVersion, migrate } from './migrations';
import { markScrubbed, zeroFreedBytes } from './store-scrub-state';

// Read-only stores are opened by URI (`immutable=1`, `mode=ro`); better-sqlite3 turns URIs on only from this
// variable, read once when its native module loads, on the first open.
process.env.SQLITE_USE_URI ??= '1';

/** A connection that may only be read from (opened read-only, so SQLite enforces it too). */
export type ReadableDB = Database.Database & { readonly __readableDB: never };
/** The single writing connection; it can also read its own uncommitted writes. */
export type WritableDB = ReadableDB & { readonly __writableDB: never };

export interface DatabaseHandles {
  readonly write: WritableDB;
  readonly read: ReadableDB;
  /**
   * The read connection for passes over a whole session (its graph pages and segments, the rows and lines the
   * reconstruction behind `sessions.states` reads): it maps nothing, so what it reads goes through its bounded page
   * cache (BULK_READ_CACHE_KB) and a pass of any size adds at most that to the RSS. `read` maps the file for
   * searches and scattered reads, and every page a mapping touched stays in the RSS until it moves: 390 MB of a
   * 1 GB session's states, 126 MB of a 1M-node session's pages. `read` itself when that maps nothing.
   */
  readonly bulk: ReadableDB;
  /** Opened read-only (the data folder cannot be written): `write` is the reader, and every write fails with READ_ONLY. */
  readonly readOnly: boolean;
  close(): void;
}

export interface OpenDatabaseOptions {
  /** Open for reading only: no migration, no WAL or -shm file created. */
  readonly readOnly?: boolean;
  /**
   * Whether the read connection maps the file (default true: searches read scattered pages in place). Mapped pages
   * it touched stay in the process's RSS until the mapping moves: a connection that answers no search (the write
   * worker's) reads through its bounded page cache instead.
   */
  readonly mappedReads?: boolean;
}

/**
 * How long a write waits for another process's write transaction. Long writers (imports) take turns through
 * the store's writer lock first (electron/service/store-writer-lock.ts), so what is left to wait for is one
 * batch, one link or one journal entry of another process: seconds at worst.
 */
export const BUSY_TIMEOUT_MS = 30_000;

/**
 * A WAL that is never folded back grows with everything a bulk import writes (22 GB once, on a 1 GB
 * transcript), and every page read searches its index, which grows with it. Past this size the import folds it.
 */
export const BULK_WAL_BYTES = 256 * 1024 * 1024;
/** How much of the store file a read connection maps (mappedReads). */
export const READER_MMAP_BYTES = 1024 * 1024 * 1024;
/** The page cache of the bulk read connection, in KiB (SQLite's negative cache_size): as big as the writer's. */
export const BULK_READ_CACHE_KB = 32_000;
/** What a restarted WAL file is cut back to. */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;

/** Opens (creating and migrating when needed) the store file and returns a writer and a reader over it. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): DatabaseHandles {
  if (options.readOnly === true) return openReadOnly(path, options.mappedReads ?? true);
  const writer = new Database(path);
  // First: the pragmas below and the migrations may meet another process opening the same file.
  writer.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Big pages: a node's raw line is a blob of a few KB, so small pages would chain overflow pages for most.
  // Only takes effect on a new file (before the first table is created).
  writer.pragma('page_size = 65536');
  retryWhileBusy(() => writer.pragma('journal_mode = WAL'));
  writer.pragma('synchronous = NORMAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('cache_size = -32000');
  writer.pragma('temp_store = MEMORY');
  beginWritesImmediately(writer);
  // When a checkpoint has folded the whole WAL back, the next write restarts it and cuts the file to this size.
  writer.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  const write = writer as WritableDB;
  zeroFreedBytes(write);
  const fresh = currentVersion(write) === 0;
  retryWhileBusy(() => migrate(write));
  // A new store has been written with FAST on from its first page (store-scrub-state.ts).
  if (fresh) markScrubbed(write);

  // WAL lets the reader see the last committed state while an import batch is being written.
  const reader = retryWhileBusy(() => new Database(path, { readonly: true }));
  reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const mapped = options.mappedReads ?? true;
  tuneReader(reader, mapped);
  const read = reader as ReadableDB;
  const bulk = mapped ? openBulkReader(() => new Database(path, { readonly: true })) : read;

  return {
    write,
    read,
    bulk,
    readOnly: false,
    close() {
      if (bulk !== read) bulk.close();
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
 * A store nobody here may write. A cleanly closed one (no WAL left, or an empty one) is opened `immutable`:
 * SQLite then needs no -shm file and takes no locks, which a read-only folder could not hold. One with a WAL
 * still holding commits (its writer crashed) must be read with that WAL, so through the -shm beside it.
 * Nothing is migrated: a store older than this Arbor cannot be read without writing (READ_ONLY).
 */
function openReadOnly(path: string, mapped: boolean): DatabaseHandles {
  if (!existsSync(path)) throw new ArborError('READ_ONLY', `The store ${path} does not exist and the data folder is read-only`);
  const walBytes = sizeOf(`${path}-wal`);
  const uri = `file:${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}?${walBytes > 0 ? 'mode=ro' : 'immutable=1'}`;
  const open = (): Database.Database => {
    try {
      return new Database(uri, { readonly: true });
    } catch {
      // URIs were off (the native module loaded before this file): a plain read-only open, which needs the -shm.
      return new Database(path, { readonly: true, fileMustExist: true });
    }
  };
  const reader = open();
  reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  tuneReader(reader, mapped);
  const version = reader.pragma('user_version', { simple: true }) as number;
  if (version < latestVersion()) {
    reader.close();
    throw new ArborError('READ_ONLY', `The store ${path} is from an older Arbor and needs an upgrade, which needs a writable data folder`);
  }
  const read = reader as ReadableDB;
  const bulk = mapped ? openBulkReader(open) : read;
  return {
    write: read as WritableDB,
    read,
    bulk,
    readOnly: true,
    close: () => {
      if (bulk !== read) bulk.close();
      reader.close();
    },
  };
}

/**
 * SQLite answers a few steps of opening a file another process is creating or migrating at the same moment
 * (the journal-mode change, the first read of a WAL being set up) with SQLITE_BUSY without calling the busy
 * handler; two `arbor import` runs started together met it now and then ("database is locked"). Those steps
 * are retried here, for as long as the busy timeout.
 */
function retryWhileBusy<T>(step: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return step();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/** The bulk read connection (DatabaseHandles.bulk): no mapping, a bounded page cache. */
function openBulkReader(open: () => Database.Database): ReadableDB {
  const reader = retryWhileBusy(open);
  reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  reader.pragma(`cache_size = -${BULK_READ_CACHE_KB}`);
  reader.pragma('mmap_size = 0');
  return reader as ReadableDB;
}

function tuneReader(reader: Database.Database, mapped = true): void {
  reader.pragma('cache_size = -16000');
  // Searches read scattered rows of a big file: mapped pages are read in place instead of copied 64 KiB at a time.
  if (mapped) reader.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Every write transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE) instead of at its first
 * write: a deferred one that read first cannot wait for another process's writer (SQLITE_BUSY at once,
 * whatever busy_timeout says, since its snapshot went stale), so imports beside another process failed.
 */
function beginWritesImmediately(db: Database.Database): void {
  const deferred = db.transaction.bind(db);
  db.transaction = ((work: (...args: never[]) => unknown) => deferred(work).immediate) as typeof db.transaction;
}

/**
 * SQLite's failures that are about sharing the store, as Arbor errors with codes (null for anything else):
 * a write lock held past the busy timeout (STORE_BUSY), or a store that cannot be written (READ_ONLY).
 */
export function storeErrorOf(error: unknown): ArborError | null {
  if (error instanceof ArborError) return null;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  const message = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new ArborError('STORE_BUSY', `Another process kept Arbor's store busy for more than ${BUSY_TIMEOUT_MS / 1000} s (${message})`, { sqlite: code });
  }
  if (code.startsWith('SQLITE_READONLY')) return new ArborError('READ_ONLY', `Arbor's store is read-only (${message})`, { sqlite: code });
  return null;
}

/** True for an error raised by the store rather than by a file being read (an import must not skip a file for it). */
export function isStoreError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && code.startsWith('SQLITE_')) || (error instanceof ArborError && (error.code === 'STORE_BUSY' || error.code === 'READ_ONLY'));
}

/**
 * Bulk mode for imports: durability of a half-written batch does not matter (re-reading a file is
 * idempotent: nodes dedupe by id, records by file offset), so skip fsyncs and leave checkpoints to the
 * import, which folds the WAL back between batches once it passes BULK_WAL_BYTES (`foldLargeWal`): an
 * autocheckpoint after every 256 pages would copy the same hot index pages again and again.
 */
export function setBulkMode(db: WritableDB, on: boolean): void {
  db.pragma(on ? 'synchronous = OFF' : 'synchronous = NORMAL');
  deferCheckpoints(db, on);
}

/**
 * Leaves checkpoints to the writer (on: it folds the WAL itself, `foldLargeWal`), or back to SQLite's every 256
 * pages. The background indexing defers them too: FTS5 frees the pages of the segments it merges and the next
 * segments reuse them, and a checkpoint every 256 pages copied each version of them into the store file.
 */
export function deferCheckpoints(db: WritableDB, on: boolean): void {
  db.pragma(on ? 'wal_autocheckpoint = 0' : 'wal_autocheckpoint = 256');
}

/**
 * Copies the WAL's pages into the main file now, and cuts the file when it can (checkpointAndCut; pages a reader
 * still needs wait for a later fold). A big import calls it as it ends: left in the WAL, its pages were copied back by the next commit, the indexer's
 * first chunk, which an append right after the import waited for.
 */
export function foldWal(db: WritableDB): void {
  checkpointAndCut(db);
}

/**
 * Copies the WAL's pages into the main file and, when it is past journal_size_limit and no reader still needs
 * it, cuts the WAL file to nothing: a PASSIVE fold left the whole file for the next commit to cut back to the
 * limit, and that commit was an append's (issue 12: its first commit after a 239 MB import took 42 of its ~60 ms; 380-540 ms on a loaded
 * machine after a 177 MB WAL, 5-29 ms when the fold had cut it). TRUNCATE never waits here (busy_timeout 0): a
 * reader on an older snapshot, or another writer, makes it fold what it can, as PASSIVE does, and leave the file.
 */
function checkpointAndCut(db: WritableDB): void {
  // A WAL within the limit stays as it is (PASSIVE): the next commits write over its blocks, where a file cut to
  // nothing was grown again by the appends after it (three of them, 148-169 ms each on a disk busy with other
  // writes, against 15-30 ms over the kept file).
  if (walSize(db) <= WAL_KEPT_BYTES) {
    db.pragma('wal_checkpoint(PASSIVE)');
    return;
  }
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

function walSize(db: WritableDB): number {
  try {
    return statSync(`${db.name}-wal`).size;
  } catch {
    return 0; // no WAL file (an in-memory store, or nothing written yet)
  }
}

/**
 * Between batches: when the WAL has grown past `limit`, copies its pages into the main file (as PASSIVE: a reader
 * still on an older snapshot keeps its pages; what it holds is copied by a later call). Once all of it is
 * copied the file is cut (checkpointAndCut) and the next write starts it again, so disk use stays bounded.
 * Returns whether it ran.
 */
export function foldLargeWal(db: WritableDB, limit = BULK_WAL_BYTES): boolean {
  let size: number;
  try {
    size = statSync(`${db.name}-wal`).size;
  } catch {
    return false; // no WAL file (an in-memory store, or nothing written yet)
  }
  // Inside a write group the checkpoint waits for its commit.
  if (size < limit || db.inTransaction) return false;
  // Cut as well: the indexer folds between its chunks, and the next commit may be an append's.
  checkpointAndCut(db);
  return true;
}

/**
 * A write transaction held open across several of the import's batches (its small files): their own transactions
 * become savepoints in it, and the pages they all touch (random-keyed indexes, the session and file rows) are
 * written to the WAL once, at its commit, instead of once per batch (issue 12). Reads on this connection see it
 * all; readers on others see it at the commit.
 */
export function beginWriteGroup(db: WritableDB): void {
  if (db.inTransaction) throw new Error('a write group cannot begin inside a transaction');
  db.prepare('BEGIN IMMEDIATE').run();
}

/**
 * Commits the write group, if one is open (a failed statement may have rolled it back already), then folds a large
 * WAL unless `fold` is false (an append's: see import-sessions.ts FOLD_WAL_FROM_BYTES).
 */
export function commitWriteGroup(db: WritableDB, fold = true): void {
  if (!db.inTransaction) return;
  try {
    db.prepare('COMMIT').run();
  } catch (error) {
    if (db.inTransaction) db.prepare('ROLLBACK').run();
    throw error;
  }
  if (fold) foldLargeWal(db);
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
