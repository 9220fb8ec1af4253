/**
 * Migration 011 moves a store made by the previous schema (008) to linking as nodes land, from its rows alone:
 * the migrated store equals one built by the new code, and keeps equal when the transcripts grow afterwards
 * (what was waiting for a later node, a cycle that closes later, a summary naming a node not stored yet).
 * Also a store an interrupted import left unlinked (dirty sessions, no parents or edges set).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { demoTranscript } from '../../../electron/demo/demo-script';
import { INITIAL_FILES } from '../../../electron/demo/demo-files';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { Random } from '../../../shared/random';
import { jsonl, prompt, reply, summary } from '../service/claude-lines';
import { copyRows } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-11-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every table the previous schema holds, with the columns it had. */
const PREVIOUS_TABLES: Record<string, string> = {
  sessions: 'id, source, title, project, started_at, updated_at, node_count, file_count, branch_count, dirty',
  session_aliases: 'alias, session_id',
  files: 'id, path, format, role, agent_id, session_id, size, mtime_ms, end_offset, end_line, first_cwd',
  nodes: `seq, id, session_id, file_id, line, offset, parent_source_id, parent_id, logical_parent_source_id, kind, timestamp,
          label, sidechain, agent_id, model, spawned_agent_id, spawned_by_tool_use_id, raw_bytes, raw, text`,
  edges: 'node_seq, kind, other_id',
  tool_calls: 'node_seq, ordinal, tool_use_id, name',
  tool_results: 'tool_use_id, node_seq, is_error',
  agent_spawns: 'agent_id, tool_use_id',
  records: 'id, file_id, offset, line, type, ref_source_id, ref_by_key, summary, raw, raw_bytes',
};

function transcripts(): { path: string; lines: string[] }[] {
  const random = new Random(5);
  const demo = demoTranscript('/home/dev/tally', INITIAL_FILES, new Date(Date.UTC(2026, 0, 5, 9)), random);
  const odd = jsonl([
    prompt('x', 'z', 'one', 'S-odd'),
    summary('Titled by a later node', 'late'),
    reply('y', 'x', 'two', 'S-odd'),
    prompt('orphan', 'late', 'waits for its parent', 'S-odd'),
    reply('z', 'y', 'three', 'S-odd'),
    prompt('late', null, 'arrives last', 'S-odd', 30),
  ]).trimEnd().split('\n');
  return [
    { path: `-home-dev-tally/${demo.sessionId}.jsonl`, lines: [...demo.lines] },
    { path: `-home-dev-tally/${demo.sessionId}/subagents/agent-${demo.subagent.agentId}.jsonl`, lines: [...demo.subagent.lines] },
    { path: '-home-dev-shapes/shapes.jsonl', lines: [...syntheticSessionLines(700, { seed: 5, shapes: true, sessionId: 'shapes', cwd: '/home/dev/shapes' })] },
    { path: '-home-dev-odd/S-odd.jsonl', lines: odd },
  ];
}

function writeFirstPart(projects: string, files: readonly { path: string; lines: string[] }[], part: number): void {
  for (const file of files) {
    const path = join(projects, file.path);
    mkdirSync(dirname(path), { recursive: true });
    // The first half (at least a line) before the migration, the rest after; the odd file stops before z.
    const lines = part === 2 ? file.lines : file.lines.slice(0, Math.max(1, file.path.includes('odd') ? 4 : Math.floor(file.lines.length / 2)));
    writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  }
}

async function importInto(store: SessionStore, projects: string) {
  return importSessions(store, transcriptReader, [projects], { jobId: 'm', workerFromBytes: Infinity });
}

function snapshot(store: SessionStore) {
  return store
    .listSessions({})
    .sessions.map((session) => ({ session, nodes: store.getSessionNodes(session.id) }))
    .sort((a, b) => (a.session.id < b.session.id ? -1 : 1));
}

/** A store in the previous schema holding the same rows as `from` (what the previous code stored for them). */
function previousSchemaCopy(from: string, to: string, unlinked: boolean): void {
  const old = new Database(to) as WritableDB;
  try {
    migrate(old, MIGRATIONS.filter((migration) => migration.version < 11));
    expect(old.pragma('user_version', { simple: true })).toBe(10); // the schema before 011 (010 is the search's)
    copyRows(old, from, PREVIOUS_TABLES);
    // What an import stopped before its link run left: no parents resolved, no edges, nothing counted.
    if (unlinked) old.exec("UPDATE nodes SET parent_id = NULL; DELETE FROM edges; UPDATE sessions SET dirty = 1, node_count = 0, branch_count = 0, title = 'stale'");
  } finally {
    old.close();
  }
}

for (const unlinked of [false, true]) {
  it(`moves a store made by the previous schema without re-reading transcripts${unlinked ? ' (left unlinked by an interrupted import)' : ''}, and appends after it match`, async () => {
    const files = transcripts();
    const projects = join(root, 'projects');
    writeFirstPart(projects, files, 1);
    const currentPath = join(root, 'current.sqlite');
    let current = openSessionStore(currentPath);
    await importInto(current, projects);
    current.close();
    const migratedPath = join(root, 'migrated.sqlite');
    previousSchemaCopy(currentPath, migratedPath, unlinked);

    current = openSessionStore(currentPath);
    const migrated = openSessionStore(migratedPath);
    try {
      const link = await importInto(migrated, projects); // nothing to read: every file is unchanged
      expect(link.sessions).toEqual([]);
      expect(snapshot(migrated)).toEqual(snapshot(current));
      expect(snapshot(current).find((entry) => entry.session.id === 'S-odd')?.nodes.find((node) => node.id === 'orphan')?.parentId).toBeNull();

      writeFirstPart(projects, files, 2);
      await importInto(current, projects);
      const appended = await importInto(migrated, projects);
      const after = snapshot(current);
      expect(snapshot(migrated)).toEqual(after);
      // What waited across the migration was resolved by the appended lines.
      const odd = after.find((entry) => entry.session.id === 'S-odd');
      expect(odd?.session.title).toBe('Titled by a later node');
      expect(odd?.nodes.find((node) => node.id === 'orphan')?.parentId).toBe('late');
      expect(appended.problems.filter((problem) => problem.reason.startsWith('parent cycle'))).toHaveLength(1);
      expect(after.reduce((sum, entry) => sum + entry.nodes.length, 0)).toBeGreaterThan(700);
    } finally {
      current.close();
      migrated.close();
    }
  });
}
