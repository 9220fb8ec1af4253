/**
 * A session holding Arbor's nodes (snapshots, hook snapshots, forks, a forked run that went on, merges) is sent
 * in `sessions.graphPage` pages like a stored-only one (electron/service/arbor-node-pages.ts): page 0 no longer
 * carries the whole graph, and the pages decode to exactly the graph built whole from the rows, its branch
 * count included; the sessions list counts the same branch points.
 */
import { describe, expect, it } from 'vitest';
import { createForkRecords } from '../../../electron/db/fork-records';
import type { SnapshotRecord } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { createSessionGraphs } from '../../../electron/service/session-graphs';
import { readGraphPages } from '../../../renderer/src/client/session-graph-pages';
import type { SessionGraph } from '../../../shared/model';
import { GRAPH_PAGE_NODES, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import { isEncodedSessionGraph, rememberedEncodedGraph } from '../../../shared/session-graph-wire';
import { parsedNode, storeParsedFile } from '../db/parsed-fixtures';
import { useStoreWorkspace } from './store-workspace';

const fixture = useStoreWorkspace('arbor-node-pages-');

const at = (k: number): string => `2026-01-05T${String(9 + Math.floor(k / 3600) % 10).padStart(2, '0')}:${String(Math.floor(k / 60) % 60).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}.000Z`;

/** A chain of turns (prompt, tool call, result, answer), the first prompt under `parent`. */
function turns(prefix: string, count: number, parent: string | null, from = 0): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  for (let k = from; k < from + count; k++) {
    const id = `${prefix}${k}`;
    nodes.push(parsedNode(`${id}-u`, parent, { kind: 'user', timestamp: at(k * 4) }));
    nodes.push(parsedNode(`${id}-c`, `${id}-u`, { kind: 'tool_call', timestamp: at(k * 4 + 1), toolUses: [{ id: `tu-${id}`, name: 'Bash' }] }));
    nodes.push(parsedNode(`${id}-r`, `${id}-c`, { kind: 'tool_result', timestamp: at(k * 4 + 2), toolResults: [{ toolUseId: `tu-${id}`, isError: false }] }));
    nodes.push(parsedNode(`${id}-a`, `${id}-r`, { timestamp: at(k * 4 + 3) }));
    parent = `${id}-a`;
  }
  return nodes;
}

const importFile = (path: string, nodes: readonly ParsedNode[]): void => storeParsedFile(fixture.store, path, nodes, 'S1');

function snapshot(id: string, parentId: string | null, extra: Partial<SnapshotRecord> = {}): SnapshotRecord {
  return { id, nodeId: `snapshot-${id}`, sessionId: 'S1', parentId, dir: '/w', treeOid: 'a'.repeat(40), commitOid: null, files: 2, createdAt: `2026-03-01T12:00:${id.length.toString().padStart(2, '0')}.000Z`, ...extra };
}

/**
 * The graph built whole from the rows (the path every Arbor-node session took before), the one the pages give,
 * and `sessions.graph`'s answer (assembled from the same pages, in compact form).
 */
async function wholeAndPaged(): Promise<{ whole: SessionGraph; paged: SessionGraph; compact: SessionGraph; first: SessionGraphPage }> {
  const whole = await createSessionGraphs(fixture.workspace, { pageRows: 8192 })['sessions.graph']({ sessionId: 'S1' });
  const graphs = createSessionGraphs(fixture.workspace);
  const first = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 0 });
  const paged = (await readGraphPages((method, request) => graphs[method as 'sessions.graphPage'](request as never) as never, 'S1', undefined, 2))!;
  const compact = await createSessionGraphs(fixture.workspace)['sessions.graph']({ sessionId: 'S1' });
  return { whole, paged, compact, first };
}

describe('a session with Arbor nodes in pages', () => {
  it('decodes to the whole graph (forks, a continued fork, merges, snapshots, hook snapshots), branch count included', async () => {
    // Three pages of the transcript, a rewind at t10-a (two prompts), and a fork's run that went on from t20-a.
    const main = turns('t', 2 * Math.ceil(GRAPH_PAGE_NODES / 4) + 100, null);
    importFile('/t/main.jsonl', [...main, ...turns('rewound', 3, 't10-a', 5000)]);
    importFile('/t/fork.jsonl', turns('f', 4, 't20-a', 6000));
    const forks = createForkRecords(fixture.store.handles);
    const branch = snapshot('fork1', 't20-a', { kind: 'fork' });
    forks.add({ id: 'fork1', nodeId: 't20-a', sessionId: 'S1', branchNodeId: branch.nodeId, dir: '/w-fork', dirCreated: true, resumeSessionId: null, transcript: '/t/fork.jsonl', createdAt: branch.createdAt }, branch);
    const store = fixture.store;
    store.recordSnapshot(snapshot('plain', 't30-a'));
    store.recordSnapshot(snapshot('under-rewind', 't10-a'));
    store.recordSnapshot(snapshot('on-snapshot', 'snapshot-plain'));
    store.recordSnapshot(snapshot('merge1', 't9000-a', { kind: 'merge', secondParentId: 'f6003-a' }));
    store.recordSnapshot(snapshot('hook1', 't40-c', { kind: 'hook', toolUseId: 'tu-t41' }));
    store.recordSnapshot(snapshot('lost', 'not-in-the-session'));

    const { whole, paged, compact, first } = await wholeAndPaged();
    expect(first.graph).toBeUndefined();
    expect(first.pages).toBe(4);
    expect(paged).toEqual(whole);
    expect(JSON.stringify(paged)).toBe(JSON.stringify(whole));
    expect(isEncodedSessionGraph(rememberedEncodedGraph(compact))).toBe(true);
    expect(JSON.stringify(compact)).toBe(JSON.stringify(whole));
    // What the whole graph says, so the comparison is of something: the fork's run hangs under the fork node,
    // the hook snapshot under its call's result, and Arbor's nodes add branch points.
    const byId = new Map(whole.nodes.map((node) => [node.id, node]));
    expect(byId.get('f6000-u')?.parentId).toBe(branch.nodeId);
    expect(byId.get('snapshot-hook1')?.parentId).toBe('t41-r');
    // Two of them: the fork beside t21-u (its run moved under it) and the snapshot beside t31-u; the snapshot under
    // the rewind widens that fork, the hook snapshot stays in the line, the lost one is a root.
    expect(whole.session.branchCount).toBe(store.getSession('S1')!.branchCount + 2);
    const listed = (await createSessionGraphs(fixture.workspace)['sessions.list']({})).sessions.find((session) => session.id === 'S1');
    expect(listed?.branchCount).toBe(whole.session.branchCount);
  });

  it('a snapshot added between two pages answers with another version, and the client reads it again', async () => {
    importFile('/t/main.jsonl', turns('t', Math.ceil(GRAPH_PAGE_NODES / 4) + 10, null));
    fixture.store.recordSnapshot(snapshot('one', 't3-a'));
    const graphs = createSessionGraphs(fixture.workspace);
    const first = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 0 });
    expect(first.pages).toBe(3);
    fixture.store.recordSnapshot(snapshot('two', 't4-a'));
    expect((await graphs['sessions.graphPage']({ sessionId: 'S1', page: 1 })).version).not.toBe(first.version);
    const paged = await readGraphPages((method, request) => graphs[method as 'sessions.graphPage'](request as never) as never, 'S1');
    const whole = await createSessionGraphs(fixture.workspace, { pageRows: 8192 })['sessions.graph']({ sessionId: 'S1' });
    expect(paged).toEqual(whole);
    expect(whole.workspaceNodes).toHaveLength(2);
  });
});
