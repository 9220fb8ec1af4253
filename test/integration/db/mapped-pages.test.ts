/**
 * releaseMappedPages (mapped-pages.ts): the read connection lets go of the store pages it mapped (they stayed in
 * the RSS: 390 MB of a 1 GB session's states), keeps its mapping size, reads on, and waits while a query runs.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, READER_MMAP_BYTES, type DatabaseHandles } from '../../../electron/db/database';
import { releaseMappedPages } from '../../../electron/db/mapped-pages';

let root: string;
let db: DatabaseHandles;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-mapped-pages-'));
  db = openDatabase(join(root, 'arbor.sqlite'));
  db.write.exec('CREATE TABLE pages_test (id INTEGER PRIMARY KEY, bytes BLOB)');
  const insert = db.write.prepare('INSERT INTO pages_test (bytes) VALUES (?)');
  db.write.transaction(() => {
    for (let k = 0; k < 400; k++) insert.run(Buffer.alloc(64 * 1024, k));
  })();
  db.write.pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

const fileRssKb = (): number | null => {
  const match = /^RssFile:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match === null ? null : Number(match[1]);
};
const readAll = () => db.read.prepare<[], { sum: number }>('SELECT sum(unicode(substr(bytes, 65536, 1))) AS sum FROM pages_test').get()!.sum;

describe('releaseMappedPages', () => {
  it('drops the mapped pages from the RSS and reads on with the same mapping size', () => {
    const sum = readAll();
    const mapped = fileRssKb();
    releaseMappedPages(db.read);
    const released = fileRssKb();
    expect(db.read.pragma('mmap_size', { simple: true })).toBe(READER_MMAP_BYTES);
    expect(readAll()).toBe(sum);
    // Linux tells the mapped pages apart (25 MB were read through the mapping).
    if (mapped !== null && released !== null) expect(mapped - released).toBeGreaterThan(10_000);
  });

  it('does nothing while a query of the connection is being iterated', () => {
    const rows = db.read.prepare<[], { id: number }>('SELECT id FROM pages_test').iterate();
    expect(rows.next().done).toBe(false);
    expect(() => releaseMappedPages(db.read)).not.toThrow();
    let count = 1;
    for (const _row of rows) count++;
    expect(count).toBe(400);
  });
});
