/**
 * Migration 042 replaces the twelve-column covering index nodes_by_session_graph (migration 003) with the narrow
 * nodes_by_session (session_id, file_id, line): a store made by the previous schema keeps every row and its stored
 * graph, reads the same graph and pages in transcript order through the narrow index with no sort, and takes an
 * append afterwards. Nothing is read from a transcript: the test's store has none on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ReadableDB, WritableDB } from '../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { createStoredGraphs } from '../../../electron/db/session-graph-store';
import { FIRST_PAGE, prepareSessionQueries } from '../../../electron/db/session-queries';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { decodeSessionGraphChunk, type SessionGraphChunk } from '../../../shared/session-graph-chunks';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-42-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage', 'node_renames', 'session_graph_segments'];

/** Turns of a user prompt, a tool call and its result, numbered from `from`; lines as their index + 1. */
function turns(prefix: string, from: number, count: number, firstParent: string | null): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  for (let k = from; k < from + count; k++) {
    nodes.push(parsedNode(`${prefix}${k}-u`, k === from ? firstParent : `${prefix}${k - 1}-r`, { kind: 'user', timestamp: `2026-01-05T09:00:${String(k % 60).padStart(2, '0')}.000Z` }));
    nodes.push(parsedNode(`${prefix}${k}-c`, `${prefix}${k}-u`, { kind: 'tool_call', toolUses: [{ id: `${prefix}tu-${k}`, name: 'Bash' }] }));
    nodes.push(parsedNode(`${prefix}${k}-r`, `${prefix}${k}-c`, { kind: 'tool_result', toolResults: [{ toolUseId: `${prefix}tu-${k}`, isError: k % 4 === 0 }] }));
  }
  return inOrder(nodes, from * 3 + 1);
}

function store(store: SessionStore, path: string, nodes: readonly ParsedNode[]): void {
  const writer = store.beginFile(transcriptFile(path, { sessionHint: 'S1' }));
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 100 });
  store.linkChangedSessions();
}

const indexesOnNodes = (db: ReadableDB | Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'nodes' AND sql IS NOT NULL ORDER BY name").all() as { name: string }[]).map((row) => row.name);

const planOf = (db: ReadableDB, sql: string, ...args: unknown[]): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((row) => row.detail).join('\n');

it('migration 042 moves a store made by the previous schema to the narrow index: same rows, same graph and pages, no sort, and an append after it', async () => {
  // Two files of one session, so the (file_id, line) order is not the insert order of a single file.
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  store(current, '/t/a.jsonl', turns('a', 0, 12, null));
  store(current, '/t/b.jsonl', turns('b', 0, 5, 'a11-r'));
  const expected = current.getSessionNodes('S1');
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 42));
  expect(indexesOnNodes(old)).toContain('nodes_by_session_graph');
  expect(indexesOnNodes(old)).not.toContain('nodes_by_session');
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  // The old store has its graph stored as segments (the link run's); a segment of 16 nodes and a short rest.
  const oldRows = (old.prepare('SELECT count(*) AS n FROM nodes').get() as { n: number }).n;
  old.close();
  expect(oldRows).toBe(51);

  const migrated = openSessionStore(oldPath);
  try {
    const db = migrated.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    expect(indexesOnNodes(db)).toContain('nodes_by_session');
    expect(indexesOnNodes(db)).not.toContain('nodes_by_session_graph');
    expect((db.prepare('SELECT count(*) AS n FROM nodes').get() as { n: number }).n).toBe(oldRows);

    expect(migrated.getSessionNodes('S1')).toEqual(expected);
    const pages: unknown[] = [];
    for (let after = FIRST_PAGE, page = migrated.getSessionNodesPage('S1', after, 7); ; page = migrated.getSessionNodesPage('S1', after, 7)) {
      pages.push(...page.nodes);
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages).toEqual(expected);

    const queries = prepareSessionQueries(db);
    const nodesPlan = planOf(db, queries.nodes.source, 'S1');
    const pagePlan = planOf(db, queries.nodesPage.source, 'S1', -1, -1, 10);
    expect(nodesPlan).toContain('USING INDEX nodes_by_session (session_id=?)');
    expect(pagePlan).toContain('USING INDEX nodes_by_session (session_id=? AND (file_id,line)>(?,?))');
    expect(`${nodesPlan}\n${pagePlan}`).not.toContain('TEMP B-TREE');

    const graphs = createStoredGraphs(migrated.handles);
    const decode = () => graphs.texts('S1')!.texts.flatMap((text) => decodeSessionGraphChunk('S1', JSON.parse(text) as SessionGraphChunk));
    await graphs.ensure('S1');
    expect(decode()).toEqual(expected);

    // An append after the migration: its rows join the narrow index, and the graph and pages follow.
    store(migrated, '/t/b.jsonl', turns('b', 5, 2, 'b4-r'));
    await graphs.ensure('S1');
    const grown = migrated.getSessionNodes('S1');
    expect(grown).toHaveLength(oldRows + 6);
    expect(grown.at(-1)!.id).toBe('b6-r');
    expect(decode()).toEqual(grown);
  } finally {
    migrated.close();
  }
});
