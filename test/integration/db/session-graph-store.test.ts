/**
 * The stored graph (migration 022, electron/db/session-graph-store.ts) decodes equal to the graph built from
 * the rows after everything that writes a session's nodes: an import, an append (which writes the last
 * segment again and keeps the others), a result that lands after its call's segment was stored, a parent the
 * linker resolves later, a compaction's logical edge, and an import that stopped between a batch and its link.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStoredGraphs, prepareSessionGraphWrites, storeSessionGraph, type StoredGraphs } from '../../../electron/db/session-graph-store';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, TranscriptFile } from '../../../electron/importers/transcript';
import type { NodeSummary } from '../../../shared/model';
import { decodeSessionGraphChunk, type SessionGraphChunk } from '../../../shared/session-graph-chunks';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';

let dir: string;
let store: SessionStore;
let graphs: StoredGraphs;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-stored-graph-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
  graphs = createStoredGraphs(store.handles);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: TranscriptFile, nodes: readonly ParsedNode[], link = true): void {
  const writer = store.beginFile(file);
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: file.size, endLine: nodes.length + 1 });
  if (link) store.linkChangedSessions();
}

function chain(prefix: string, count: number, firstParent: string | null): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  let parent = firstParent;
  for (let k = 0; k < count; k++) {
    const id = `${prefix}${k}`;
    nodes.push(parsedNode(`${id}-u`, parent, { kind: 'user', timestamp: `2026-01-05T09:${String(k % 60).padStart(2, '0')}:00.000Z` }));
    nodes.push(parsedNode(`${id}-c`, `${id}-u`, { kind: 'tool_call', toolUses: [{ id: `tu-${id}`, name: 'Read' }] }));
    nodes.push(parsedNode(`${id}-r`, `${id}-c`, { kind: 'tool_result', toolResults: [{ toolUseId: `tu-${id}`, isError: k % 7 === 0 }] }));
    nodes.push(parsedNode(`${id}-a`, `${id}-r`));
    parent = `${id}-a`;
  }
  return nodes;
}

/** The stored graph as an open decodes it (which first writes the short rest the link runs leave). */
async function storedNodes(sessionId: string): Promise<NodeSummary[] | null> {
  await graphs.ensure(sessionId);
  const texts = graphs.texts(sessionId);
  return texts === null ? null : texts.texts.flatMap((text) => decodeSessionGraphChunk(sessionId, JSON.parse(text) as SessionGraphChunk));
}

function segmentIds(sessionId: string): number[] {
  return (store.handles.read.prepare('SELECT id FROM session_graph_segments WHERE session_id = ? ORDER BY last_file, last_line').all(sessionId) as { id: number }[]).map((row) => row.id);
}

/** Stores the session's graph again in segments of `size` nodes, as the linker would with that size. */
function restore(sessionId: string, size: number): void {
  const writes = prepareSessionGraphWrites(store.handles.write);
  store.handles.write.transaction(() => {
    writes.dropSession.run(sessionId);
    expect(storeSessionGraph(writes, sessionId, size)).toBe(true);
  })();
}

function extend(sessionId: string, size: number): void {
  const writes = prepareSessionGraphWrites(store.handles.write);
  store.handles.write.transaction(() => expect(storeSessionGraph(writes, sessionId, size)).toBe(true))();
}

describe('the stored graph of a session', () => {
  it('is written by the link runs in full segments and by the open for the rest, equal to the rows, across files, outcomes and edges', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 30, null)));
    importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder(chain('b', 5, 't29-a')));
    const rows = store.getSessionNodes('S1');
    expect(rows).toHaveLength(140);
    expect(rows.some((node) => node.toolCalls.some((call) => call.outcome === 'error'))).toBe(true);
    // Less than a segment: the link runs leave it to the open.
    expect(graphs.state('S1')).toMatchObject({ nodes: 0, sessionNodes: 140, segments: 0 });
    expect(await storedNodes('S1')).toEqual(rows);
  });

  it('an append writes the last segment again and keeps the others', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 10, null)));
    restore('S1', 8); // 40 nodes: five full segments
    const before = segmentIds('S1');
    expect(before).toHaveLength(5);
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('n', 1, 't9-a'), 41), false);
    extend('S1', 8);
    const after = segmentIds('S1');
    expect(after.slice(0, 5)).toEqual(before);
    expect(after).toHaveLength(6);
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
  });

  it("a call's result stored after its segment changes the outcome the stored graph says", async () => {
    const nodes = inOrder(chain('t', 6, null));
    // The first call's result is left out, then arrives in a later file.
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), nodes.filter((node) => node.sourceId !== 't0-r'));
    restore('S1', 4);
    expect((await storedNodes('S1'))!.find((node) => node.id === 't0-c')!.toolCalls[0]!.outcome).toBe('missing');
    const kept = segmentIds('S1');
    importFile(transcriptFile('/t/late.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('late-r', 't0-c', { kind: 'tool_result', toolResults: [{ toolUseId: 'tu-t0', isError: true }] })]));
    expect((await storedNodes('S1'))!.find((node) => node.id === 't0-c')!.toolCalls[0]!.outcome).toBe('error');
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
    expect(segmentIds('S1')[0]).not.toBe(kept[0]);
  });

  it("a result stored by a batch of new calls and results, for a call of an earlier batch, drops that call's segment", async () => {
    const nodes = inOrder(chain('t', 6, null));
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), nodes.filter((node) => node.sourceId !== 't0-r'));
    restore('S1', 4);
    const kept = segmentIds('S1');
    // The batch's own calls and results come first: the earlier call is looked up below the batch's first node.
    importFile(transcriptFile('/t/late.jsonl', { sessionHint: 'S1' }), inOrder([
      ...chain('n', 2, 't5-a'),
      parsedNode('late-r', 't0-c', { kind: 'tool_result', toolResults: [{ toolUseId: 'tu-t0', isError: true }] }),
    ]));
    expect(segmentIds('S1')[0]).not.toBe(kept[0]);
    expect((await storedNodes('S1'))!.find((node) => node.id === 't0-c')!.toolCalls[0]!.outcome).toBe('error');
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
  });

  it('a parent that arrives later, resolved by the linker, is in the stored graph (the trigger dropped the segment)', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder([...chain('t', 2, null), ...chain('b', 8, 'x')]));
    restore('S1', 4);
    expect((await storedNodes('S1'))!.find((node) => node.id === 'b0-u')!.parentId).toBeNull();
    importFile(transcriptFile('/t/late.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('x', 't1-a')]));
    expect((await storedNodes('S1'))!.find((node) => node.id === 'b0-u')!.parentId).toBe('x');
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
  });

  it("a compaction's logical edge added by the linker is in the stored graph", async () => {
    const nodes = inOrder([...chain('t', 3, null), parsedNode('k', null, { kind: 'compaction', logicalParentSourceId: 't2-a' }), ...chain('after', 2, 'k')]);
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), nodes);
    const rows = store.getSessionNodes('S1');
    expect(rows.find((node) => node.id === 'k')!.extraEdges).toEqual([{ kind: 'logical', nodeId: 't2-a' }]);
    expect(await storedNodes('S1')).toEqual(rows);
  });

  it('an import that stopped between its batch and its link is stored on the next open, equal to the rows', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 10, null)));
    // The crash: a batch committed, its link never ran.
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('n', 3, 't9-a'), 41), false);
    expect(graphs.texts('S1')).toBeNull();
    const state = await graphs.ensure('S1');
    expect(state).toMatchObject({ nodes: 52, sessionNodes: 52 });
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
    // The resumed import's link finds it whole and leaves it.
    const ids = segmentIds('S1');
    store.linkChangedSessions();
    expect(segmentIds('S1')).toEqual(ids);
  });

  it('nodes stored in the middle of the order (another file before the last) are all written again', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 4, null)));
    importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder(chain('b', 4, 't3-a')));
    restore('S1', 5);
    // The first file grows: its new lines come before the second file's in (file, line) order.
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('m', 2, 't3-a'), 17));
    expect(await storedNodes('S1')).toEqual(store.getSessionNodes('S1'));
    expect(graphs.state('S1')).toMatchObject({ nodes: 40, sessionNodes: 40 });
  });

  it('reads a segment with the version it belongs to; the version moves when any segment is written again', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 10, null)));
    restore('S1', 16);
    const first = graphs.segment('S1', 0)!;
    expect(first).toMatchObject({ nodes: 16, segments: 3 });
    expect(graphs.segment('S1', 3)).toBeNull();
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('n', 1, 't9-a'), 41));
    expect(graphs.segment('S1', 0)!.version).not.toBe(first.version);
    expect(graphs.segment('S1', 0)!.text).toBe(first.text);
  });

  it('regression: a page read took the write lock (BEGIN IMMEDIATE on the writer connection) and waited for an import\'s open write transaction; it reads beside it', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 10, null)));
    await graphs.ensure('S1');
    const expected = graphs.segment('S1', 0)!;
    // Another connection (the write worker's, importing) holds a write transaction open.
    const importer = new Database(join(dir, 'arbor.sqlite'));
    importer.prepare('BEGIN IMMEDIATE').run();
    importer.prepare("INSERT INTO meta (key, value) VALUES ('held', 1)").run();
    const timeout = store.handles.write.pragma('busy_timeout', { simple: true }) as number;
    store.handles.write.pragma('busy_timeout = 100');
    try {
      expect(graphs.segment('S1', 0)).toEqual(expected);
    } finally {
      store.handles.write.pragma(`busy_timeout = ${timeout}`);
      importer.prepare('ROLLBACK').run();
      importer.close();
    }
  });
});
