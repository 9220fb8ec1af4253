import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { foldLargeWal, foldWal, openDatabase, setBulkMode, type DatabaseHandles } from '../../../../electron/db/database';

let dir: string;
let path: string;
let db: DatabaseHandles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-bulk-wal-'));
  path = join(dir, 'store.sqlite');
  db = openDatabase(path);
  db.write.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  // The store's own migrations wrote the WAL's first pages at open: start from an empty WAL so the bound below
  // measures the batches, not how many migrations the schema has (it failed when three were added).
  db.write.pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const walBytes = (): number => statSync(`${path}-wal`).size;

/** One import batch: ~1 MiB of rows in one transaction. */
function writeBatch(): void {
  const insert = db.write.prepare('INSERT INTO blobs (body) VALUES (?)');
  db.write.transaction(() => {
    for (let row = 0; row < 16; row++) insert.run(Buffer.alloc(64 * 1024, row));
  })();
}

it('the WAL of a bulk import stays bounded when folded between batches (it grew to 22 GB on a 1 GB transcript)', () => {
  setBulkMode(db.write, true);
  const limit = 4 * MiB;
  let folds = 0;
  let largest = 0;
  for (let batch = 0; batch < 40; batch++) {
    writeBatch();
    largest = Math.max(largest, walBytes());
    if (foldLargeWal(db.write, limit)) folds++;
  }
  // 40 MiB were written; without folding the WAL would hold all of it.
  expect(folds).toBeGreaterThan(3);
  expect(largest).toBeLessThan(limit + 4 * MiB);
  // The reader sees every row: folding moved pages, it lost none.
  expect(db.read.prepare('SELECT count(*) AS rows FROM blobs').get()).toEqual({ rows: 40 * 16 });
});

it('leaves a small WAL alone', () => {
  setBulkMode(db.write, true);
  writeBatch();
  const before = walBytes();
  expect(foldLargeWal(db.write, 64 * MiB)).toBe(false);
  expect(walBytes()).toBe(before);
});

it('without folding, bulk mode lets the WAL grow (what the fold is for)', () => {
  setBulkMode(db.write, true);
  for (let batch = 0; batch < 12; batch++) writeBatch();
  expect(walBytes()).toBeGreaterThan(12 * MiB);
});

it('a fold cuts a WAL past journal_size_limit itself, so the next commit (an append\'s) does not cut it back (issue 12)', () => {
  setBulkMode(db.write, true);
  for (let batch = 0; batch < 12; batch++) writeBatch();
  expect(walBytes()).toBeGreaterThan(12 * MiB);
  // Past the 64 MB kept (the bytes after the last frame are never read): as a big import or the index merge leaves it.
  truncateSync(`${path}-wal`, 80 * MiB);
  foldWal(db.write);
  // Left at its size by a PASSIVE fold, the file was cut back to journal_size_limit by the next write transaction.
  expect(walBytes()).toBe(0);
  setBulkMode(db.write, false);
  writeBatch();
  expect(walBytes()).toBeLessThan(2 * MiB);
  expect(db.read.prepare('SELECT count(*) AS rows FROM blobs').get()).toEqual({ rows: 13 * 16 });
});

it('a fold leaves a WAL within journal_size_limit at its size, for the next commits to write over', () => {
  setBulkMode(db.write, true);
  for (let batch = 0; batch < 4; batch++) writeBatch();
  const before = walBytes();
  foldWal(db.write);
  expect(walBytes()).toBe(before);
  writeBatch();
  // Written from the start of the kept file again: it did not grow.
  expect(walBytes()).toBe(before);
});

it('a fold does not wait for a reader on an older snapshot: it copies what it can and leaves the file to a later fold', () => {
  setBulkMode(db.write, true);
  writeBatch();
  db.read.prepare('BEGIN').run();
  try {
    expect(db.read.prepare('SELECT count(*) AS rows FROM blobs').get()).toEqual({ rows: 16 });
    writeBatch();
    const timeout = db.write.pragma('busy_timeout', { simple: true });
    truncateSync(`${path}-wal`, 80 * MiB);
    expect(foldLargeWal(db.write, 0)).toBe(true);
    expect(walBytes()).toBeGreaterThan(0);
    expect(db.write.pragma('busy_timeout', { simple: true })).toBe(timeout);
    // The reader's snapshot is whole.
    expect(db.read.prepare('SELECT count(*) AS rows FROM blobs').get()).toEqual({ rows: 16 });
  } finally {
    db.read.prepare('COMMIT').run();
  }
  foldWal(db.write);
  expect(walBytes()).toBe(0);
});
