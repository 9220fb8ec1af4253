/**
 * Space after a migration: one that rewrites big tables (013's compact store, 015, 017) leaves the pages the
 * old rows filled on SQLite's free list, so the file kept its old size (issue 13) however much smaller the
 * new layout is. After the migrations ran, the free pages are given back: VACUUM when they are a large share
 * of the file and the disk has room for the copy it writes, else `incremental_vacuum` in short steps (only a
 * store with auto_vacuum = INCREMENTAL can), else nothing, saying why. A read-only folder is left alone.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { WritableDB } from '../database';

/** Below this share of free pages the file is left as it is: SQLite reuses them for the next writes. */
export const RECLAIM_FROM_SHARE = 0.25;
/** Nor is a file whose free pages are fewer bytes than this. */
export const RECLAIM_FROM_BYTES = 4 * 1024 * 1024;
/** Pages given back per incremental step: each is one short write, so a reader never waits long. */
const INCREMENTAL_STEP_PAGES = 2048;
/** VACUUM writes a copy of the live pages (and as much WAL): room for both, and some to spare. */
const VACUUM_ROOM_FACTOR = 2.2;

export type ReclaimOutcome =
  | { readonly action: 'none'; readonly freeBytes: number }
  | { readonly action: 'vacuum' | 'incremental'; readonly freedBytes: number }
  | { readonly action: 'skipped'; readonly reason: string };

export interface ReclaimOptions {
  /** Told before and during the work ("reclaiming 1.2 GB after the migration…"). */
  readonly onProgress?: (message: string, fraction: number) => void;
  /** Injected by tests: free bytes on the store's disk. */
  readonly freeDiskBytes?: (dir: string) => number;
}

interface Pages {
  readonly size: number;
  readonly count: number;
  readonly free: number;
}

function pagesOf(db: WritableDB): Pages {
  return {
    size: db.pragma('page_size', { simple: true }) as number,
    count: db.pragma('page_count', { simple: true }) as number,
    free: db.pragma('freelist_count', { simple: true }) as number,
  };
}

export function reclaimSpace(db: WritableDB, options: ReclaimOptions = {}): ReclaimOutcome {
  const before = pagesOf(db);
  const freeBytes = before.free * before.size;
  if (before.count === 0 || before.free / before.count < RECLAIM_FROM_SHARE || freeBytes < RECLAIM_FROM_BYTES) return { action: 'none', freeBytes };
  const file = db.name;
  if (file === ':memory:' || file === '') return { action: 'none', freeBytes };
  const dir = dirname(file);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return { action: 'skipped', reason: `the data folder ${dir} is read-only: ${megabytes(freeBytes)} of free pages stay in the store` };
  }
  const liveBytes = (before.count - before.free) * before.size;
  const room = (options.freeDiskBytes ?? diskRoom)(dir);
  const report = (message: string, fraction: number): void => options.onProgress?.(message, fraction);
  if (room >= liveBytes * VACUUM_ROOM_FACTOR) {
    report(`reclaiming ${megabytes(freeBytes)} after the migration (VACUUM)…`, 0);
    db.exec('VACUUM');
    // The copy went through the WAL: fold it back and cut it, or the space only moved to the -wal file.
    db.pragma('wal_checkpoint(TRUNCATE)');
    report('reclaimed', 1);
    return { action: 'vacuum', freedBytes: freeBytes - pagesOf(db).free * before.size };
  }
  const autoVacuum = db.pragma('auto_vacuum', { simple: true }) as number;
  if (autoVacuum !== 2) {
    return { action: 'skipped', reason: `not enough disk for VACUUM's copy (${megabytes(room)} free, ${megabytes(liveBytes * VACUUM_ROOM_FACTOR)} needed): ${megabytes(freeBytes)} of free pages stay in the store` };
  }
  for (let left = before.free; left > 0; ) {
    report(`reclaiming ${megabytes(freeBytes)} after the migration…`, 1 - left / before.free);
    db.pragma(`incremental_vacuum(${INCREMENTAL_STEP_PAGES})`);
    const now = pagesOf(db).free;
    if (now >= left) break; // nothing more it can give back
    left = now;
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  report('reclaimed', 1);
  return { action: 'incremental', freedBytes: freeBytes - pagesOf(db).free * before.size };
}

function diskRoom(dir: string): number {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
