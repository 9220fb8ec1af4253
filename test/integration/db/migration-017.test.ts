/**
 * Migration 017 keeps the sessions list's columns on the session row (sessions.list summed every session's files
 * and probed its nodes per request: 1.4 s on 20k sessions). A store made by the previous schema (011) is filled
 * from its rows alone and lists exactly what a store built by the new code lists, before and after its
 * transcripts grow; and what the list reads equals what the per-request subqueries computed.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { appendTranscript, jsonl, prompt, reply, writeTranscript } from '../service/claude-lines';
import { copyRows } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-17-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every table of the schema before 017 that an import fills, with the columns it had. */
const PREVIOUS_TABLES: Record<string, string> = {
  sessions: 'id, source, title, project, started_at, updated_at, node_count, file_count, branch_count, dirty, summary_title, summary_stale, forward_min_seq',
  session_aliases: 'alias, session_id',
  files: 'id, path, format, role, agent_id, session_id, size, mtime_ms, end_offset, end_line, first_cwd',
  nodes: `seq, id, session_id, file_id, line, offset, parent_source_id, parent_id, logical_parent_source_id, kind, timestamp,
          label, sidechain, agent_id, model, spawned_agent_id, spawned_by_tool_use_id, raw_bytes, raw, text`,
  edges: 'node_seq, kind, other_id',
  tool_calls: 'node_seq, ordinal, tool_use_id, name',
  tool_results: 'tool_use_id, node_seq, is_error',
  agent_spawns: 'agent_id, tool_use_id',
  records: 'id, file_id, offset, line, type, ref_source_id, ref_by_key, summary, raw, raw_bytes',
  link_waiting: 'ref, kind, item',
  link_cycle_checks: 'node_seq',
  prompt_times: 'parent_seq, time, children',
};

/** What sessions.list computed per request before 017, as the reference the stored columns must equal. */
const PER_REQUEST = `SELECT s.id,
  (SELECT coalesce(sum(f.size), 0) FROM files f WHERE f.session_id = s.id) AS bytes,
  (SELECT max(f.mtime_ms) FROM files f WHERE f.session_id = s.id) AS newest_mtime_ms,
  (SELECT f.path FROM files f WHERE f.session_id = s.id ORDER BY f.role != 'main', f.id LIMIT 1) AS first_file,
  (NOT EXISTS (SELECT 1 FROM files f WHERE f.session_id = s.id AND f.role = 'main')
    OR NOT EXISTS (SELECT 1 FROM nodes n WHERE n.session_id = s.id AND n.sidechain = 0)) AS orphan_subagent
  FROM sessions s WHERE s.file_count > 0 ORDER BY s.id`;

const sidechain = (line: Record<string, unknown>, agentId: string) => ({ ...line, isSidechain: true, agentId });

/** A session with a subagent file, an orphan subagent (its session file never imported), a plain session. */
function writeProjects(projects: string): { main: string; orphan: string } {
  const main = join(projects, '-home-dev-app', 'S-main.jsonl');
  writeTranscript(main, [prompt('m1', null, 'Fix the parser', 'S-main'), reply('m2', 'm1', 'Fixed', 'S-main')]);
  writeTranscript(join(projects, '-home-dev-app', 'S-main', 'subagents', 'agent-a1.jsonl'), [
    sidechain(prompt('a1-1', null, 'Look for callers', 'S-main'), 'a1'),
    sidechain(reply('a1-2', 'a1-1', 'Two callers', 'S-main'), 'a1'),
  ]);
  const orphan = join(projects, '-home-dev-app', 'S-gone', 'subagents', 'agent-b1.jsonl');
  writeTranscript(orphan, [sidechain(prompt('b1-1', null, 'Search the logs', 'S-gone'), 'b1')]);
  writeTranscript(join(projects, '-home-dev-web', 'S-web.jsonl'), [prompt('w1', null, 'Add a dark theme', 'S-web')]);
  return { main, orphan };
}

async function importInto(store: SessionStore, projects: string) {
  return importSessions(store, transcriptReader, [projects], { jobId: 'm17', workerFromBytes: Infinity });
}

const listed = (store: SessionStore) => store.listSessions({}).sessions.sort((a, b) => (a.id < b.id ? -1 : 1));

function perRequest(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], { id: string; bytes: number; newest_mtime_ms: number | null; first_file: string | null; orphan_subagent: number }>(PER_REQUEST).all();
  } finally {
    db.close();
  }
}

/** The stored columns, in the reference's shape. */
function stored(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[], { id: string; bytes: number; newest_mtime_ms: number | null; first_file: string | null; orphan_subagent: number }>(
        'SELECT id, bytes, newest_mtime_ms, first_file, (main_file = 0 OR main_line = 0) AS orphan_subagent FROM sessions WHERE file_count > 0 ORDER BY id',
      )
      .all();
  } finally {
    db.close();
  }
}

/** A store in the schema before 017 holding the same rows as `from`. */
function previousSchemaCopy(from: string, to: string): void {
  const old = new Database(to) as WritableDB;
  try {
    migrate(old, MIGRATIONS.filter((migration) => migration.version < 17));
    expect(old.pragma('user_version', { simple: true })).toBe(Math.max(...MIGRATIONS.filter((m) => m.version < 17).map((m) => m.version)));
    copyRows(old, from, PREVIOUS_TABLES);
  } finally {
    old.close();
  }
}

it('moves a store made by the previous schema to stored list columns without re-reading transcripts, and appends after it match', async () => {
  const projects = join(root, 'projects');
  const { main, orphan } = writeProjects(projects);
  const currentPath = join(root, 'current.sqlite');
  let current = openSessionStore(currentPath);
  await importInto(current, projects);
  current.close();
  const migratedPath = join(root, 'migrated.sqlite');
  previousSchemaCopy(currentPath, migratedPath);

  current = openSessionStore(currentPath);
  const migrated = openSessionStore(migratedPath);
  try {
    const before = listed(current);
    expect(before.map((session) => [session.id, session.orphanSubagent])).toEqual([
      ['S-gone', true],
      ['S-main', false],
      ['S-web', false],
    ]);
    expect(before.find((session) => session.id === 'S-main')?.bytes).toBe(
      statSync(main).size + statSync(join(projects, '-home-dev-app', 'S-main', 'subagents', 'agent-a1.jsonl')).size,
    );
    expect((await importInto(migrated, projects)).sessions).toEqual([]); // every file unchanged: nothing read
    expect(listed(migrated)).toEqual(before);

    // Growing files: the main session gets bigger, the orphan's own session file finally arrives.
    appendTranscript(main, jsonl([prompt('m3', 'm2', 'And the tests', 'S-main', 5)]));
    writeTranscript(join(projects, '-home-dev-app', 'S-gone.jsonl'), [prompt('g1', null, 'Find the crash', 'S-gone')]);
    await importInto(current, projects);
    await importInto(migrated, projects);
    const after = listed(current);
    expect(after.find((session) => session.id === 'S-gone')?.orphanSubagent).toBe(false);
    expect(after.find((session) => session.id === 'S-main')?.bytes ?? 0).toBeGreaterThan(before.find((session) => session.id === 'S-main')?.bytes ?? 0);
    expect(after.find((session) => session.id === 'S-gone')?.bytes).toBe(statSync(orphan).size + statSync(join(projects, '-home-dev-app', 'S-gone.jsonl')).size);
    expect(listed(migrated)).toEqual(after);
  } finally {
    current.close();
    migrated.close();
  }
  // The stored columns are what the per-request subqueries gave, on both stores.
  for (const path of [currentPath, migratedPath]) expect(stored(path)).toEqual(perRequest(path));
});

it('a file that grows by lines that add no node (a file-history snapshot) still updates the listed size', async () => {
  const projects = join(root, 'projects');
  const { main } = writeProjects(projects);
  mkdirSync(join(root, 'data'));
  const path = join(root, 'data', 'arbor.sqlite');
  const store = openSessionStore(path);
  try {
    await importInto(store, projects);
    appendTranscript(main, jsonl([{ type: 'file-history-snapshot', messageId: 'm2', snapshot: { messageId: 'm2', trackedFileBackups: {}, timestamp: '2026-01-01T00:00:09Z' }, isSnapshotUpdate: false }]));
    await importInto(store, projects);
    expect(listed(store).find((session) => session.id === 'S-main')?.bytes).toBe(
      statSync(main).size + statSync(join(projects, '-home-dev-app', 'S-main', 'subagents', 'agent-a1.jsonl')).size,
    );
  } finally {
    store.close();
  }
  copyFileSync(path, join(root, 'copy.sqlite'));
  expect(stored(join(root, 'copy.sqlite'))).toEqual(perRequest(join(root, 'copy.sqlite')));
});
