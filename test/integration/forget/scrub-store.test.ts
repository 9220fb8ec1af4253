/**
 * scrubStore without a whole-store VACUUM (issue 15): a store written with secure_delete FAST from its first
 * page is marked and gets its free pages zeroed instead (what pages freed before the deletion held is gone from
 * the file); a store with no mark (written by an older Arbor) is VACUUMed once and marked.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandles } from '../../../electron/db/database';
import { scrubStore } from '../../../electron/db/session-delete';
import { mayHoldStaleBytes } from '../../../electron/db/store-scrub-state';

let root: string;
let handles: DatabaseHandles;
const file = (): string => join(root, 'arbor.sqlite');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-scrub-'));
  handles = openDatabase(file());
});
afterEach(() => {
  handles.close();
  rmSync(root, { recursive: true, force: true });
});

/** Rows holding `marker`, deleted with secure_delete OFF (as an older writer did), folded into the file. */
function leaveFreedPages(marker: string): void {
  const db = handles.write;
  db.pragma('secure_delete = OFF');
  db.exec('CREATE TABLE scratch (text TEXT)');
  const insert = db.prepare<[string]>('INSERT INTO scratch (text) VALUES (?)');
  for (let i = 0; i < 40; i++) insert.run(`${marker} ${'x'.repeat(30_000)} ${i}`);
  db.exec('DROP TABLE scratch');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('secure_delete = FAST');
}

const fileHolds = (marker: string): boolean => readFileSync(file()).includes(marker);

describe('scrubStore', () => {
  it('zeroes the free pages of a marked store and does not VACUUM it', () => {
    const marker = `freed${randomBytes(8).toString('hex')}`;
    expect(mayHoldStaleBytes(handles.write)).toBe(false);
    leaveFreedPages(marker);
    expect(fileHolds(marker)).toBe(true);
    const free = handles.write.pragma('freelist_count', { simple: true }) as number;
    expect(free).toBeGreaterThan(0);

    const outcome = scrubStore(handles.write);
    expect(outcome.vacuumed).toBe(false);
    expect(outcome.zeroedFreePages).toBe(free);
    expect(outcome.walTruncated).toBe(true);
    // The pages stay free (the file keeps its size) but hold nothing of what they held.
    expect(handles.write.pragma('freelist_count', { simple: true })).toBeGreaterThanOrEqual(free);
    expect(fileHolds(marker)).toBe(false);
    expect(handles.write.prepare(`SELECT name FROM sqlite_master WHERE name = 'arbor_zero_fill'`).get()).toBeUndefined();
  });

  it('VACUUMs a store with no mark once, then marks it', () => {
    const marker = `stale${randomBytes(8).toString('hex')}`;
    leaveFreedPages(marker);
    handles.write.prepare(`DELETE FROM meta WHERE key = 'secure_delete_since'`).run();
    expect(mayHoldStaleBytes(handles.write)).toBe(true);

    const first = scrubStore(handles.write);
    expect(first.vacuumed).toBe(true);
    expect(fileHolds(marker)).toBe(false);
    expect(mayHoldStaleBytes(handles.write)).toBe(false);
    expect(first.bytesAfter).toBeLessThan(first.bytesBefore);
    expect(scrubStore(handles.write).vacuumed).toBe(false);
  });
});
