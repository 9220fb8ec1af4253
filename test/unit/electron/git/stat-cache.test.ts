import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { StatCache, type StatCacheEntry } from '../../../../electron/git/stat-cache';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-stat-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (n: number): StatCacheEntry => ({ size: n, mtimeMs: 1_700_000_000_000 + n / 7, ino: 1000 + n, mode: n % 2 ? '100755' : '100644', oid: n.toString(16).padStart(40, '0') });

it('saves flat arrays and loads back every entry and tree', async () => {
  const file = join(dir, 'cache.json');
  const cache = new StatCache(file);
  const entries = new Map([
    ['a.txt', entry(1)],
    ['dir/b "quoted".txt', entry(2)],
  ]);
  cache.replace(entries, new Map([['dir', { entries: 1, oid: 'f'.repeat(40) }]]));
  await cache.save();
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { version: number; entries: unknown[] };
  expect(stored.version).toBe(2);
  expect(stored.entries).toHaveLength(12);
  const loaded = await StatCache.load(file);
  expect(loaded.size).toBe(2);
  expect(loaded.get('dir/b "quoted".txt')).toEqual(entry(2));
  expect(loaded.tree('dir')).toEqual({ entries: 1, oid: 'f'.repeat(40) });
});

it('still reads the first version’s objects, and treats anything else as empty', async () => {
  const file = join(dir, 'old.json');
  const e = entry(3);
  writeFileSync(file, JSON.stringify({ version: 1, removals: 2, entries: { 'x.ts': [e.size, e.mtimeMs, e.ino, e.mode, e.oid] }, trees: { '': [1, 'a'.repeat(40)] } }));
  const loaded = await StatCache.load(file);
  expect(loaded.get('x.ts')).toEqual(e);
  expect(loaded.tree('')).toEqual({ entries: 1, oid: 'a'.repeat(40) });
  expect(loaded.removals).toBe(2);
  writeFileSync(file, JSON.stringify({ version: 3, entries: [] }));
  expect((await StatCache.load(file)).size).toBe(0);
  writeFileSync(file, '{"version":2,"entries":[');
  expect((await StatCache.load(file)).size).toBe(0);
});
