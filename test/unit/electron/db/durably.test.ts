import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { durably, openDatabase, setBulkMode, type DatabaseHandles } from '../../../../electron/db/database';

let dir: string;
let db: DatabaseHandles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-durably-'));
  db = openDatabase(join(dir, 'store.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const synchronous = (): unknown => db.write.pragma('synchronous', { simple: true });

it('commits with synchronous = FULL inside, and puts the previous setting back after, even on a throw', () => {
  expect(synchronous()).toBe(1);
  expect(durably(db.write, () => synchronous())).toBe(2);
  expect(synchronous()).toBe(1);
  expect(() =>
    durably(db.write, () => {
      throw new Error('boom');
    }),
  ).toThrow('boom');
  expect(synchronous()).toBe(1);
  // An import's bulk mode (OFF) is left as it was.
  setBulkMode(db.write, true);
  durably(db.write, () => undefined);
  expect(synchronous()).toBe(0);
});
