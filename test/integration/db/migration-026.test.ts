/**
 * Migration 026 drops the stored graph's insert triggers on nodes, tool_calls and tool_results (their cost was most of an
 * import's store time); the import writer drops the segments from a batch's first new node itself. A store made
 * by the previous schema loses the triggers and keeps its segments; a node stored inside a stored segment's range
 * (a line read again that was missing) still drops that segment, so the graph an open reads equals the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { createStoredGraphs } from '../../../electron/db/session-graph-store';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { decodeSessionGraphChunk, type SessionGraphChunk } from '../../../shared/session-graph-chunks';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-26-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage', 'node_renames', 'session_graph_segments'];
const FILE = transcriptFile('/t/a.jsonl', { sessionHint: 'S1' });

/** Turns of a user prompt, a tool call and its result, numbered from `from`; lines as their index + 1. */
function turns(from: number, count: number): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  for (let k = from; k < from + count; k++) {
    nodes.push(parsedNode(`t${k}-u`, k === 0 ? null : `t${k - 1}-r`, { kind: 'user', timestamp: `2026-01-05T09:00:${String(k % 60).padStart(2, '0')}.000Z` }));
    nodes.push(parsedNode(`t${k}-c`, `t${k}-u`, { kind: 'tool_call', toolUses: [{ id: `tu-${k}`, name: 'Bash' }] }));
    nodes.push(parsedNode(`t${k}-r`, `t${k}-c`, { kind: 'tool_result', toolResults: [{ toolUseId: `tu-${k}`, isError: false }] }));
  }
  return inOrder(nodes, from * 3 + 1);
}

function store(store: SessionStore, nodes: readonly ParsedNode[]): void {
  const writer = store.beginFile(FILE);
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 100 });
  store.linkChangedSessions();
}

const triggers = (db: { prepare: WritableDB['prepare'] }): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'session_graph_%' ORDER BY name").all() as { name: string }[]).map((row) => row.name);

it('migration 026 moves a store made by the previous schema: the insert triggers go, and a node stored inside a stored segment still drops it', async () => {
  // Turns 0–4 and 7–9: lines 16–21 (turns 5 and 6) are missing when the graph is stored.
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  store(current, [...turns(0, 5), ...turns(7, 3)]);
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 26));
  expect(triggers(old)).toContain('session_graph_node_added');
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(triggers(migrated.handles.read)).not.toContain('session_graph_node_added');
    expect(triggers(migrated.handles.read)).not.toContain('session_graph_call_added');
    expect(triggers(migrated.handles.read)).not.toContain('session_graph_result_added');
    const graphs = createStoredGraphs(migrated.handles);
    const decode = () => graphs.texts('S1')!.texts.flatMap((text) => decodeSessionGraphChunk('S1', JSON.parse(text) as SessionGraphChunk));
    expect(await graphs.ensure('S1')).toMatchObject({ segments: 1, nodes: 24 });
    const stored = migrated.handles.read.prepare('SELECT id FROM session_graph_segments').all();

    // The missing turns arrive (a line read again): they land before the stored segment's last node. A prompt and
    // a reply with no tool result: no trigger left on their rows would drop the segment.
    store(migrated, inOrder([parsedNode('t5-u', 't4-r', { kind: 'user' }), parsedNode('t5-a', 't5-u', { toolUses: [{ id: 'tu-5', name: 'Read' }] })], 16));
    expect(migrated.handles.read.prepare('SELECT id FROM session_graph_segments').all()).not.toEqual(stored);
    await graphs.ensure('S1');
    expect(decode()).toHaveLength(26);
    expect(decode()).toEqual(migrated.getSessionNodes('S1'));
    expect(decode().map((node) => node.id)).toContain('t5-a');
  } finally {
    migrated.close();
  }
});
