/**
 * Migration 045 keeps a rollout parser's calls by key beside its state (issue 12: the state held every call and
 * an append read and wrote all of it). On a store made by the previous schema, whose states hold their calls
 * inline (version 1): its rows stay as they were, no key is kept, the next append reads that rollout from its
 * start once (a version-1 state is not given to the new parser), and the one after reads only what it appends.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { importSessions } from '../../../electron/service/import-sessions';
import { copyRows, sharedColumns } from './previous-schema';
import { countingReader, previousRolloutStore, turns } from './previous-rollout-store';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-45-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000c5';
it('migration 045 keeps calls by key on a store made by the previous schema; a version-1 state is read from the start once, then appends read only theirs', async () => {
  const { folder, file, builder, currentPath, old, oldPath, tables } = await previousRolloutStore(root, ID, 45);
  expect(old.prepare("SELECT 1 FROM sqlite_master WHERE name = 'parse_state_keys'").get()).toBeUndefined();
  copyRows(old, currentPath, sharedColumns(old, currentPath, tables), () => {
    // The state as the previous version kept it: version 1, every call seen inline.
    const kept = old.prepare<[], { key: string; value: string }>('SELECT key, value FROM source.parse_state_keys').all();
    const row = old.prepare<[], { parse_state: string }>('SELECT parse_state FROM main.files').get()!;
    const calls = kept.map(({ key, value }) => [key.replace(/^call:/, ''), ...(JSON.parse(value) as [number, string | null])]);
    expect(calls.length).toBeGreaterThan(5);
    old.prepare('UPDATE main.files SET parse_state = ?').run(JSON.stringify({ ...JSON.parse(row.parse_state), v: 1, calls }));
  });
  const nodesBefore = old.prepare('SELECT id, parent_id, label FROM nodes ORDER BY seq').all();
  old.close();

  const migrated = openSessionStore(oldPath);
  const reads: number[] = [];
  const counting = countingReader(reads);
  try {
    const db = migrated.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare('SELECT id, parent_id, label FROM nodes ORDER BY seq').all()).toEqual(nodesBefore);
    const keys = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM parse_state_keys');
    expect(keys.get()!.n).toBe(0);
    const size = db.prepare<[], { end_offset: number }>('SELECT end_offset FROM files').get()!.end_offset;

    const appended = turns(builder, 10, 2);
    appendFileSync(file, appended);
    const outcome = await importSessions(migrated, counting, [folder], { jobId: 'append' });
    expect(outcome.sessions[0]!.nodes).toBeGreaterThan(4);
    expect(reads.at(-1)).toBe(size + Buffer.byteLength(appended));
    // Read whole: every call of the rollout is kept by key, none in the state.
    expect(keys.get()!.n).toBe(12);
    expect(JSON.parse(db.prepare<[], { parse_state: string }>('SELECT parse_state FROM files').get()!.parse_state)).toMatchObject({ v: 2 });

    const again = turns(builder, 12, 2);
    appendFileSync(file, again);
    await importSessions(migrated, counting, [folder], { jobId: 'again' });
    expect(reads.at(-1)).toBe(Buffer.byteLength(again));
    expect(keys.get()!.n).toBe(14);
    const chain = db.prepare<[], { id: string; parent_id: string | null }>('SELECT id, parent_id FROM nodes ORDER BY seq').all();
    for (let index = 1; index < chain.length; index++) expect(chain[index]!.parent_id).toBe(chain[index - 1]!.id);
  } finally {
    migrated.close();
  }
});
