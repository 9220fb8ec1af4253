/**
 * Migration 022 adds the stored graph (session_graph_segments and the triggers that keep it). A store made by
 * the previous schema has no stored graph: the first open builds it from the rows (no transcript is read
 * again), equal to them, and the link runs after it keep it as later imports change the session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { createStoredGraphs } from '../../../electron/db/session-graph-store';
import { openSessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { decodeSessionGraphChunk, type SessionGraphChunk } from '../../../shared/session-graph-chunks';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-22-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage', 'node_renames'];

function turns(prefix: string, count: number, parent: string | null): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  for (let k = 0; k < count; k++) {
    nodes.push(parsedNode(`${prefix}${k}-u`, parent, { kind: 'user', timestamp: `2026-01-05T09:00:${String(k % 60).padStart(2, '0')}.000Z` }));
    nodes.push(parsedNode(`${prefix}${k}-c`, `${prefix}${k}-u`, { kind: 'tool_call', toolUses: [{ id: `tu-${prefix}${k}`, name: 'Bash' }] }));
    nodes.push(parsedNode(`${prefix}${k}-r`, `${prefix}${k}-c`, { kind: 'tool_result', toolResults: [{ toolUseId: `tu-${prefix}${k}`, isError: k % 3 === 0 }] }));
    parent = `${prefix}${k}-r`;
  }
  return nodes;
}

it('migration 022 moves a store made by the previous schema: its sessions get a stored graph equal to their rows on first open', async () => {
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  const writer = current.beginFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }));
  for (const node of inOrder(turns('t', 20, null))) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 61 });
  current.linkChangedSessions();
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 22));
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  expect(old.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'session_graph_segments'").get()).toEqual({ n: 0 });
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    const graphs = createStoredGraphs(migrated.handles);
    expect(graphs.state('S1')).toMatchObject({ segments: 0, sessionNodes: 60 });
    expect(await graphs.ensure('S1')).toMatchObject({ segments: 1, nodes: 60 });
    const decode = () => graphs.texts('S1')!.texts.flatMap((text) => decodeSessionGraphChunk('S1', JSON.parse(text) as SessionGraphChunk));
    expect(decode()).toEqual(migrated.getSessionNodes('S1'));
    // The triggers, the link runs and the opens keep it from here: an append is in it.
    const more = migrated.beginFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }));
    for (const node of inOrder(turns('n', 2, 't19-r'), 61)) more.node(node);
    more.finish({ endOffset: 200, endLine: 67 });
    migrated.linkChangedSessions();
    await graphs.ensure('S1'); // the open writes the short rest the link run left
    expect(decode()).toHaveLength(66);
    expect(decode()).toEqual(migrated.getSessionNodes('S1'));
  } finally {
    migrated.close();
  }
});
