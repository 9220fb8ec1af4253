/**
 * Migration 040 gives files a parser state (issue 12: a Codex append goes on from it) on a store made by the
 * previous schema: its rows stay as they were, no file has a state, and the next append of a rollout reads that
 * rollout from its start once, as before, then keeps a state for the one after.
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
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-40-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000c4';
it('migration 040 adds the parser state to a store made by the previous schema; the next append reads the rollout whole once, then keeps one', async () => {
  const { folder, file, builder, currentPath, old, oldPath, tables } = await previousRolloutStore(root, ID, 40);
  expect((old.prepare("SELECT name FROM pragma_table_info('files') WHERE name LIKE 'parse_state%'").all() as unknown[]).length).toBe(0);
  copyRows(old, currentPath, sharedColumns(old, currentPath, tables));
  const nodesBefore = old.prepare('SELECT id, parent_id, label FROM nodes ORDER BY seq').all();
  old.close();

  const migrated = openSessionStore(oldPath);
  const reads: number[] = [];
  const counting = countingReader(reads);
  try {
    const db = migrated.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare('SELECT id, parent_id, label FROM nodes ORDER BY seq').all()).toEqual(nodesBefore);
    const state = db.prepare<[], { parse_state: string | null; parse_state_offset: number | null; end_offset: number }>('SELECT parse_state, parse_state_offset, end_offset FROM files');
    expect(state.all()).toEqual([{ parse_state: null, parse_state_offset: null, end_offset: expect.any(Number) }]);

    const size = state.get()!.end_offset;
    const appended = turns(builder, 10, 2);
    appendFileSync(file, appended);
    const outcome = await importSessions(migrated, counting, [folder], { jobId: 'append' });
    expect(outcome.sessions[0]!.nodes).toBeGreaterThan(4);
    // No state was kept before 040: read from the start, as before.
    expect(reads.at(-1)).toBe(size + Buffer.byteLength(appended));
    expect(state.get()).toEqual({ parse_state: expect.any(String), parse_state_offset: size + Buffer.byteLength(appended), end_offset: size + Buffer.byteLength(appended) });

    const again = turns(builder, 12, 2);
    appendFileSync(file, again);
    await importSessions(migrated, counting, [folder], { jobId: 'again' });
    expect(reads.at(-1)).toBe(Buffer.byteLength(again));
    const chain = db.prepare<[], { id: string; parent_id: string | null }>('SELECT id, parent_id FROM nodes ORDER BY seq').all();
    for (let index = 1; index < chain.length; index++) expect(chain[index]!.parent_id).toBe(chain[index - 1]!.id);
  } finally {
    migrated.close();
  }
});
