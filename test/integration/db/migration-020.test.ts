/**
 * Migration 020 keeps a fork's copy → original map (node_renames). A store made by the previous schema that
 * stored a fork's renamed copies as nodes is filled from their raw lines, so the fork's next lines, appended
 * after the move, still hang from the parent's fork point.
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
import { appendLines, builder, editTurn, random, writeLines } from '../import/lineage-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

const PARENT = '3a000000-0000-4000-8000-00000000003a';
const FORK = '4b000000-0000-4000-8000-00000000004b';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-20-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage'];

it('migration 020 moves a store made by the previous schema: the renamed copies it stored keep their originals', async () => {
  const r = random(41);
  const parent = builder(r, PARENT);
  const first = editTurn(parent, 'create a.txt', 'a.txt', 'one\n');
  const parentLines = parent.take();
  const fork = builder(r, FORK, { startMinutes: 30 });
  const copies = fork.forkCopies(parentLines, PARENT, { newUuids: true });
  const forkCopies = fork.take();
  const own = editTurn(fork, 'in the fork, create b.txt', 'b.txt', 'bee\n');
  const projects = join(root, 'projects');
  const forkPath = join(projects, 'p', `${FORK}.jsonl`);
  writeLines(forkPath, forkCopies);

  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  await importSessions(current, transcriptReader, [projects], { jobId: 'j' });
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  const previous = MIGRATIONS.filter((migration) => migration.version < 20);
  migrate(old, previous);
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  expect(old.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'node_renames'").get()).toEqual({ n: 0 });
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    const renames = migrated.handles.read.prepare('SELECT copy_id, node_id FROM node_renames').all() as { copy_id: string; node_id: string }[];
    // Copy i of the fork is line i of the parent: each renamed copy maps to that line's uuid.
    const originals = parentLines.map((line) => (JSON.parse(line) as { uuid?: string }).uuid).filter((uuid): uuid is string => uuid !== undefined);
    expect(originals).toContain(first.reply);
    expect(new Map(renames.map((row) => [row.copy_id, row.node_id]))).toEqual(new Map(copies.map((copy, i) => [copy, originals[i]!])));

    appendLines(forkPath, fork.take());
    writeLines(join(projects, 'p', `${PARENT}.jsonl`), parentLines);
    const report = await importSessions(migrated, transcriptReader, [projects], { jobId: 'k' });
    expect(report.problems).toEqual([]);
    const prompt = migrated.handles.read.prepare('SELECT parent_id FROM nodes WHERE id = ?').get(own.prompt);
    expect(prompt).toEqual({ parent_id: first.reply });
  } finally {
    migrated.close();
  }
});
