/**
 * Migration 040 gives files a parser state (issue 12: a Codex append goes on from it) on a store made by the
 * previous schema: its rows stay as they were, no file has a state, and the next append of a rollout reads that
 * rollout from its start once, as before, then keeps a state for the one after.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { importSessions, type TranscriptReader } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-40-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000c4';
const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'records', 'link_waiting', 'prompt_times', 'node_usage'];

function turns(builder: RolloutBuilder, from: number, count: number): string {
  for (let turn = from; turn < from + count; turn++) {
    builder.user(`Turn ${turn}`).command(`npm test -- ${turn}`, { exitCode: 0, output: `ok ${turn}\n` }).agent(`Done ${turn}`).complete();
  }
  return builder.drain().map((line) => `${line}\n`).join('');
}

it('migration 040 adds the parser state to a store made by the previous schema; the next append reads the rollout whole once, then keeps one', async () => {
  const folder = join(root, 'sessions');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl`);
  const builder = new RolloutBuilder({ id: ID, cwd: '/work/app' });
  writeFileSync(file, turns(builder, 0, 10));
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  try {
    await importSessions(current, transcriptReader, [folder], { jobId: 'first' });
  } finally {
    current.close();
  }

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 40));
  expect((old.prepare("SELECT name FROM pragma_table_info('files') WHERE name LIKE 'parse_state%'").all() as unknown[]).length).toBe(0);
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  const nodesBefore = old.prepare('SELECT id, parent_id, label FROM nodes ORDER BY seq').all();
  old.close();

  const migrated = openSessionStore(oldPath);
  const reads: number[] = [];
  const counting: TranscriptReader = {
    ...transcriptReader,
    parse: (transcript, sink, options) => transcriptReader.parse(transcript, sink, { ...options, onBytes: (bytes) => reads.push(bytes) }),
  };
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
