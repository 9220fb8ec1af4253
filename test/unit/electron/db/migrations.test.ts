import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/db/database';
import { MIGRATIONS } from '../../../../electron/db/migrations';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('migrates a new store to the latest version once, with WAL and foreign keys on', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-'));
  const path = join(dir, 'arbor.sqlite');
  const first = openDatabase(path);
  const latest = MIGRATIONS.at(-1)?.version;
  expect(first.write.pragma('user_version', { simple: true })).toBe(latest);
  expect(first.write.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(first.write.pragma('foreign_keys', { simple: true })).toBe(1);
  first.close();
  // Re-opening runs nothing again (it would fail on CREATE TABLE otherwise).
  const second = openDatabase(path);
  expect(second.read.pragma('user_version', { simple: true })).toBe(latest);
  expect(() => second.read.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('x', 1)).toThrow(/readonly/i);
  second.close();
});

it('numbers migrations from 1 upwards, in order', () => {
  // Numbers are handed out to parallel branches, so one may land before its predecessor does (010 before 009).
  const versions = MIGRATIONS.map((migration) => migration.version);
  expect(versions[0]).toBe(1);
  expect(versions.every((version, index) => index === 0 || version > (versions[index - 1] ?? 0))).toBe(true);
});
