/**
 * Migration 014 (session lineage) moves a store made by the previous migrations without re-reading
 * transcripts: the `continued-in` records it already kept become links, so a chain stored before is drawn
 * as one line of work after; and it keeps linking as the transcripts grow.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { appendLines, builder, random, talkTurn, writeLines } from '../import/lineage-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

const A = '7a000000-0000-4000-8000-00000000000a';
const B = '8b000000-0000-4000-8000-00000000000b';
const C = '9c000000-0000-4000-8000-00000000000c';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-14-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every table of schema 011, copied as the previous code stored it (continued-in lines were plain records). */
const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times'];

it('migration 014 moves a store made by the previous migrations: its continued-in records become links', async () => {
  const r = random(31);
  const a = builder(r, A);
  talkTurn(a, 'first part', 'ok');
  a.continuedIn(B);
  const b = builder(r, B, { startMinutes: 5 });
  const b1 = talkTurn(b, 'second part', 'ok');
  const projects = join(root, 'projects');
  writeLines(join(projects, 'p', `${A}.jsonl`), a.take());
  writeLines(join(projects, 'p', `${B}.jsonl`), b.take());

  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  await importSessions(current, transcriptReader, [projects], { jobId: 'j' });
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 14));
  expect(old.pragma('user_version', { simple: true })).toBe(Math.max(...MIGRATIONS.filter((m) => m.version < 14).map((m) => m.version)));
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  expect(old.prepare("SELECT count(*) AS n FROM records WHERE type = 'continued-in'").get()).toEqual({ n: 1 });
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(migrated.lineageLinks()).toEqual([{ kind: 'continues', laterId: B, earlierId: A, nodeId: null }]);
    // Nothing is read again, and the next continuation links as it lands.
    expect((await importSessions(migrated, transcriptReader, [projects], { jobId: 'k' })).sessions).toEqual([]);
    const more = builder(r, B, { startMinutes: 9 });
    more.last = b1.reply;
    more.continuedIn(C);
    appendLines(join(projects, 'p', `${B}.jsonl`), more.take());
    const report = await importSessions(migrated, transcriptReader, [projects], { jobId: 'l' });
    expect(report.problems).toEqual([{ file: join(projects, 'p', `${B}.jsonl`), line: 0, reason: expect.stringContaining(`continues in session ${C}`) }]);
    expect(migrated.lineageLinks().sort((x, y) => (x.laterId < y.laterId ? -1 : 1))).toEqual([
      { kind: 'continues', laterId: B, earlierId: A, nodeId: null },
      { kind: 'continues', laterId: C, earlierId: B, nodeId: null },
    ]);
  } finally {
    migrated.close();
  }
});
