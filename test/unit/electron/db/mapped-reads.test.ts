import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, READER_MMAP_BYTES } from '../../../../electron/db/database';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-mapped-reads-'));
  path = join(dir, 'store.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mapped = (db: ReturnType<typeof openDatabase>): number => db.read.pragma('mmap_size', { simple: true }) as number;

it('the read connection maps the store by default, for searches', () => {
  const db = openDatabase(path);
  try {
    expect(mapped(db)).toBe(READER_MMAP_BYTES);
  } finally {
    db.close();
  }
});

it("a read connection opened without mapped reads (the write worker's) maps nothing: pages its reads touched stayed in RSS", () => {
  const db = openDatabase(path, { mappedReads: false });
  try {
    expect(mapped(db)).toBe(0);
    // It still reads what the writer committed.
    db.write.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect(db.read.prepare('SELECT x FROM t').get()).toEqual({ x: 1 });
  } finally {
    db.close();
  }
  const readOnly = openDatabase(path, { readOnly: true, mappedReads: false });
  try {
    expect(mapped(readOnly)).toBe(0);
  } finally {
    readOnly.close();
  }
});
