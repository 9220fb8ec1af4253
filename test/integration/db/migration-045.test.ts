/**
 * Migration 045 keeps a rollout parser's calls by key beside its state (issue 12: the state held every call and
 * an append read and wrote all of it). On a store made by the previous schema, whose states hold their calls
 * inline (version 1): its rows stay as they were, no key is kept, the next append reads that rollout from its
 * start once (a version-1 state is not given to the new parser), and the one after reads only what it appends.
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
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-45-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000c5';
const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'records', 'link_waiting', 'prompt_times', 'node_usage'];

function turns(builder: RolloutBuilder, from: number, count: number): string {
  for (let turn = from; turn < from + count; turn++) {
    builder.user(`Turn ${turn}`).command(`npm test -- ${turn}`, { exitCode: 0, output: `ok ${turn}\n` }).agent(`Done ${turn}`).complete();
  }
  return builder.drain().map((line) => `${line}\n`).join('');
}

it('migration 045 keeps calls by key on a store made by the previous schema; a version-1 state is read from the start once, then appends read only theirs', async () => {
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
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 45));
  expect(old.prepare("SELECT 1 FROM sqlite_master WHERE name = 'parse_state_keys'").get()).toBeUndefined();
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES), () => {
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
  const counting: TranscriptReader = {
    ...transcriptReader,
    parse: (transcript, sink, options) => transcriptReader.parse(transcript, sink, { ...options, onBytes: (bytes) => reads.push(bytes) }),
  };
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
