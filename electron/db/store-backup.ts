/**
 * The store file as one piece (issue 15, the archive): a consistent copy made with SQLite's online backup
 * while the app or an import keeps writing, what a copy holds (for the archive's manifest and its check on
 * install), and whether a store file is open in another process (so an install never swaps a file in use).
 */
import Database from 'better-sqlite3';
import { CancelledError } from '../../shared/errors';
import type { ArchiveCounts } from '../../shared/archive';
import './database';
import type { ReadableDB } from './database';

export interface BackupProgress {
  readonly done: number;
  readonly total: number;
}

export interface BackupOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BackupProgress) => void;
  /** Pages per step (the store's pages are 64 KiB): each step is one short read, so writers never wait long. */
  readonly pagesPerStep?: number;
  /**
   * After this many restarts (another connection wrote between two steps, so SQLite began again), the rest
   * is copied in one step: one read transaction, which a WAL store's writers do not wait for.
   */
  readonly restartsBeforeOneStep?: number;
}

export interface BackupOutcome {
  readonly pages: number;
  readonly restarts: number;
}

const PAGES_PER_STEP = 64;
const RESTARTS_BEFORE_ONE_STEP = 3;
const ALL_PAGES = 0x7fffffff;

/** Copies the store `db` reads into a new file `to` (it must not exist) with SQLite's online backup, in steps. */
export async function backupStore(db: ReadableDB, to: string, options: BackupOptions = {}): Promise<BackupOutcome> {
  if (options.signal?.aborted === true) throw new CancelledError();
  const step = options.pagesPerStep ?? PAGES_PER_STEP;
  const patience = options.restartsBeforeOneStep ?? RESTARTS_BEFORE_ONE_STEP;
  let restarts = 0;
  let previous = Number.POSITIVE_INFINITY;
  const outcome = await db.backup(to, {
    progress: ({ totalPages, remainingPages }) => {
      // Thrown here, the backup is closed and its promise rejected with it.
      if (options.signal?.aborted === true) throw new CancelledError();
      if (remainingPages > previous) restarts++;
      previous = remainingPages;
      options.onProgress?.({ done: totalPages - remainingPages, total: totalPages });
      return restarts >= patience ? ALL_PAGES : step;
    },
  });
  options.onProgress?.({ done: outcome.totalPages, total: outcome.totalPages });
  return { pages: outcome.totalPages, restarts };
}

export interface StoreFileFacts {
  readonly schemaVersion: number;
  readonly counts: Omit<ArchiveCounts, 'refs'>;
  /** Every object the store's rows name in the snapshot repository (snapshot trees and commits, safety commits). */
  readonly objectIds: readonly string[];
  /** SQLite's own check of the file ("ok" when sound). */
  readonly check: string;
}

/** What a store file (an archive's copy) holds, read without changing a byte of it or creating a -wal beside it. */
export function readStoreFileFacts(path: string): StoreFileFacts {
  const uri = `file:${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}?immutable=1`;
  const db = new Database(uri, { readonly: true, fileMustExist: true });
  try {
    const check = (db.pragma('quick_check', { simple: true }) as string) ?? 'no answer';
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    const count = (table: string): number => (tables.has(table) ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0);
    const oids = (sql: string, table: string): string[] => (tables.has(table) ? (db.prepare(sql).pluck().all() as string[]) : []);
    const objectIds = [
      ...oids('SELECT tree_oid FROM snapshots', 'snapshots'),
      ...oids('SELECT commit_oid FROM snapshots WHERE commit_oid IS NOT NULL', 'snapshots'),
      ...oids('SELECT safety_commit FROM operations WHERE safety_commit IS NOT NULL', 'operations'),
    ];
    return {
      schemaVersion: db.pragma('user_version', { simple: true }) as number,
      counts: { sessions: count('sessions'), nodes: count('nodes'), snapshots: count('snapshots'), operations: count('operations'), forks: count('forks') },
      objectIds: [...new Set(objectIds)],
      check,
    };
  } finally {
    db.close();
  }
}

/**
 * Readies a store file to be moved: true when no other connection has it open (the app, `arbor serve`,
 * `arbor watch`), and it is then folded into one self-contained file (its WAL written back); false when
 * one has, and nothing changed. Leaving WAL mode needs every other connection gone, which is the test.
 */
export function releaseStoreFile(path: string): boolean {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    try {
      return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
    } catch (error) {
      if (String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')) return false;
      throw error;
    }
  } finally {
    db.close();
  }
}
