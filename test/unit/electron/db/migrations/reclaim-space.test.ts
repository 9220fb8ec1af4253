/**
 * A migration that rewrites big tables left the store at its old size (issue 13): the old rows' pages stayed
 * on SQLite's free list. Here a store made by an older migration (a big table) is moved by a later one that
 * rewrites it smaller, through the real runner, and the file must end at its live data plus a little slack.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../../../../electron/db/database';
import { migrate, type Migration } from '../../../../../electron/db/migrations';

const ROWS = 6000;
const SLACK = 256 * 1024;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-reclaim-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The older layout: a row of 4 kB per line (like raw lines stored uncompressed). */
const older: Migration = {
  version: 1,
  name: 'older layout',
  up: (db) => {
    db.exec('CREATE TABLE lines (id INTEGER PRIMARY KEY, raw BLOB)');
    const insert = db.prepare('INSERT INTO lines (raw) VALUES (?)');
    for (let i = 0; i < ROWS; i++) insert.run(Buffer.alloc(4096, i % 251));
  },
};
/** The newer one rewrites the table a tenth of the size (like 013's compact store). */
const rewrite: Migration = {
  version: 2,
  name: 'compact layout',
  up: (db) => {
    db.exec('CREATE TABLE lines_new (id INTEGER PRIMARY KEY, raw BLOB)');
    db.exec('INSERT INTO lines_new (id, raw) SELECT id, substr(raw, 1, 400) FROM lines');
    db.exec('DROP TABLE lines');
    db.exec('ALTER TABLE lines_new RENAME TO lines');
  },
};

function openStore(file: string, autoVacuum = 'NONE'): WritableDB {
  const db = new Database(file);
  db.pragma(`auto_vacuum = ${autoVacuum}`);
  db.pragma('journal_mode = WAL');
  return db as unknown as WritableDB;
}

function liveBytes(db: WritableDB): number {
  const size = db.pragma('page_size', { simple: true }) as number;
  return ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * size;
}

const fileBytes = (file: string): number => statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);

describe('space after a migration', () => {
  it('a migration that rewrites a big table leaves the file at its live data plus slack, not at its old size', () => {
    const file = join(dir, 'arbor.sqlite');
    const db = openStore(file);
    migrate(db, [older]);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const oldSize = fileBytes(file);
    expect(oldSize).toBeGreaterThan(ROWS * 4096);
    const progress: string[] = [];
    const outcome = migrate(db, [older, rewrite], { onProgress: (message) => progress.push(message) });
    expect(outcome).toMatchObject({ action: 'vacuum' });
    expect(progress[0]).toMatch(/^reclaiming [\d.]+ MB after the migration \(VACUUM\)…$/);
    expect(fileBytes(file)).toBeLessThanOrEqual(liveBytes(db) + SLACK);
    expect(fileBytes(file)).toBeLessThan(oldSize / 4);
    expect(db.prepare('SELECT count(*) AS n, sum(length(raw)) AS bytes FROM lines').get()).toEqual({ n: ROWS, bytes: ROWS * 400 });
    db.close();
  });

  it('without disk room for the copy, gives the pages back in incremental steps where the store allows it', () => {
    const file = join(dir, 'arbor.sqlite');
    const db = openStore(file, 'INCREMENTAL');
    migrate(db, [older]);
    const outcome = migrate(db, [older, rewrite], { freeDiskBytes: () => 0 });
    expect(outcome).toMatchObject({ action: 'incremental' });
    expect(fileBytes(file)).toBeLessThanOrEqual(liveBytes(db) + SLACK);
    db.close();
  });

  it('without disk room and without incremental vacuum, leaves the store as it is and says why', () => {
    const file = join(dir, 'arbor.sqlite');
    const db = openStore(file);
    migrate(db, [older]);
    const said: string[] = [];
    const outcome = migrate(db, [older, rewrite], { freeDiskBytes: () => 0, onSkipped: (reason) => said.push(reason) });
    expect(outcome).toMatchObject({ action: 'skipped' });
    expect(said).toEqual([expect.stringMatching(/^not enough disk for VACUUM's copy \(0\.0 MB free, [\d.]+ MB needed\): [\d.]+ MB of free pages stay in the store$/)]);
    expect(db.prepare('SELECT count(*) AS n FROM lines').get()).toEqual({ n: ROWS });
    db.close();
  });

  it('does nothing when no migration ran', () => {
    const db = openStore(join(dir, 'arbor.sqlite'));
    migrate(db, [older]);
    expect(migrate(db, [older])).toBeNull();
    db.close();
  });
});
