/**
 * The bulk read connection (database.ts, DatabaseHandles.bulk): a pass over a whole session reads there and maps
 * nothing, so the store pages it read do not stay in the RSS (the mapped reader kept 390 MB of a 1 GB session's
 * states and 126 MB of a 1M-node session's pages), while the read connection keeps its map for searches.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, READER_MMAP_BYTES, type DatabaseHandles, type ReadableDB } from '../../../electron/db/database';

let root: string;
let db: DatabaseHandles;
const ROWS = 400; // 25 MB of 64 KiB pages
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-bulk-reads-'));
  db = openDatabase(join(root, 'arbor.sqlite'));
  db.write.exec('CREATE TABLE pages_test (id INTEGER PRIMARY KEY, bytes BLOB)');
  const insert = db.write.prepare('INSERT INTO pages_test (bytes) VALUES (?)');
  db.write.transaction(() => {
    for (let k = 0; k < ROWS; k++) insert.run(Buffer.alloc(64 * 1024, k));
  })();
  db.write.pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

/** Pages of files mapped into this process (the store's, through a mapping), in KiB; null off Linux. */
const fileRssKb = (): number | null => {
  const match = /^RssFile:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match === null ? null : Number(match[1]);
};
const readAll = (connection: ReadableDB) => connection.prepare<[], { sum: number }>('SELECT sum(unicode(substr(bytes, 65536, 1))) AS sum FROM pages_test').get()!.sum;

describe('the bulk read connection', () => {
  it('reads a whole pass without keeping the store pages it read in the RSS, where the mapped reader keeps them', () => {
    const before = fileRssKb();
    const sum = readAll(db.bulk);
    const afterBulk = fileRssKb();
    expect(readAll(db.read)).toBe(sum);
    const afterMapped = fileRssKb();
    if (before !== null && afterBulk !== null && afterMapped !== null) {
      expect(afterBulk - before).toBeLessThan(5_000);
      // The control: the same pass through the mapped reader kept its 25 MB of pages.
      expect(afterMapped - afterBulk).toBeGreaterThan(10_000);
    }
    expect(db.bulk.pragma('mmap_size', { simple: true })).toBe(0);
    expect(db.read.pragma('mmap_size', { simple: true })).toBe(READER_MMAP_BYTES);
  });

  it('sees what the writer committed, and is the read connection itself when that maps nothing', () => {
    db.write.prepare('INSERT INTO pages_test (bytes) VALUES (?)').run(Buffer.alloc(64 * 1024, 1));
    expect(db.bulk.prepare<[], { n: number }>('SELECT count(*) AS n FROM pages_test').get()!.n).toBe(ROWS + 1);
    const unmapped = openDatabase(join(root, 'other.sqlite'), { mappedReads: false });
    try {
      expect(unmapped.bulk).toBe(unmapped.read);
    } finally {
      unmapped.close();
    }
    db.close();
    const readOnly = openDatabase(join(root, 'arbor.sqlite'), { readOnly: true });
    try {
      expect(readOnly.bulk).not.toBe(readOnly.read);
      expect(readOnly.bulk.pragma('mmap_size', { simple: true })).toBe(0);
      expect(readAll(readOnly.bulk)).toBe(readAll(readOnly.read));
    } finally {
      readOnly.close();
      db = openDatabase(join(root, 'arbor.sqlite'));
    }
  });
});
