/**
 * sessions.graph reads a session's nodes in pages (electron/service/session-nodes-reader.ts) and keeps the
 * built graph per version of the session: the pages add up to exactly the store's one-query answer, an
 * import that lands between two pages is never half-seen, a cancelled open stops between pages, and a
 * reopened session is the same graph until something changes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_PAGE } from '../../../electron/db/session-queries';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, TranscriptFile } from '../../../electron/importers/transcript';
import { createEventHub, type EventHub } from '../../../electron/service/event-hub';
import { createSessionGraphs } from '../../../electron/service/session-graphs';
import { readSessionNodes } from '../../../electron/service/session-nodes-reader';
import { createWorkspaceContext, type OwnedWorkspaceContext } from '../../../electron/service/workspace-context';
import { CancelledError } from '../../../shared/errors';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';

let dir: string;
let store: SessionStore;
let events: EventHub;
let lifetime: AbortController;
let workspace: OwnedWorkspaceContext | null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-graph-pages-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
  events = createEventHub();
  lifetime = new AbortController();
  workspace = null;
});
afterEach(async () => {
  lifetime.abort();
  await workspace?.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: TranscriptFile, nodes: readonly ParsedNode[]): string[] {
  const writer = store.beginFile(file);
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: file.size, endLine: nodes.length + 1 });
  return store.linkChangedSessions().sessionIds;
}

/** A chain of `count` turns, each a prompt, a tool call with its result, and an answer; the first prompt's parent is `firstParent`. */
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

function graphsOver(target: SessionStore, pageRows: number) {
  workspace = createWorkspaceContext(target, { dataDir: join(dir, 'data'), homeDir: join(dir, 'home'), env: {}, now: () => new Date('2026-03-01T12:00:00Z'), lifetime: lifetime.signal, events });
  return createSessionGraphs(workspace, { pageRows });
}

describe('reading a session graph in pages', () => {
  it('adds up to the one-query answer, tool calls with outcomes and extra edges included', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 30, null)));
    importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder(chain('b', 5, 't29-a')));
    const whole = store.getSessionNodes('S1');
    expect(whole).toHaveLength(140);
    expect(whole.some((node) => node.toolCalls.some((call) => call.outcome === 'error'))).toBe(true);
    for (const pageRows of [1, 7, 50, 139, 140, 1000]) expect(await readSessionNodes(store, 'S1', undefined, pageRows)).toEqual(whole);
    const first = store.getSessionNodesPage('S1', FIRST_PAGE, 100);
    expect(first.nodes).toEqual(whole.slice(0, 100));
    expect(store.getSessionNodesPage('S1', first.next!, 100)).toEqual({ nodes: whole.slice(100), next: null });
  });

  it('reads pages through the (session, file, line) index, in its order and range, with no sort', () => {
    const plan = store.handles.read
      .prepare(`EXPLAIN QUERY PLAN SELECT n.seq, n.id, n.parent_source_id, n.parent_id, n.kind, n.timestamp, n.label, n.sidechain, n.agent_id, n.model, n.file_id, n.line
         FROM nodes n WHERE n.session_id = ? AND (n.file_id, n.line) > (?, ?) ORDER BY n.session_id, n.file_id, n.line LIMIT ?`)
      .all('S1', -1, -1, 10) as { detail: string }[];
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toContain('USING INDEX nodes_by_session (session_id=? AND (file_id,line)>(?,?))');
    expect(details).not.toContain('TEMP B-TREE');
  });

  it('an import between two pages is read again, not half-seen (a page already read had a parent the import resolved)', async () => {
    // b0-u's parent x is in no file yet: its parentId is null until the second file brings x.
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder([...chain('t', 2, null), ...chain('b', 20, 'x')]));
    let pagesRead = 0;
    const racing: SessionStore = {
      ...store,
      getSessionNodesPage(sessionId, after, limit) {
        if (++pagesRead === 2) importFile(transcriptFile('/t/late.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('x', 't1-a', { sessionSourceId: 'S1' })]));
        return store.getSessionNodesPage(sessionId, after, limit);
      },
    };
    const graphs = graphsOver(racing, 16);
    const graph = await graphs['sessions.graph']({ sessionId: 'S1' });
    expect(pagesRead).toBeGreaterThan(2);
    expect(graph.nodes).toEqual(store.getSessionNodes('S1'));
    expect(graph.nodes.find((node) => node.id === 'b0-u')?.parentId).toBe('x');
  });

  it('a cancelled open stops between pages with CancelledError', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 40, null)));
    const cancel = new AbortController();
    let pagesRead = 0;
    const counting: SessionStore = {
      ...store,
      getSessionNodesPage(sessionId, after, limit) {
        if (++pagesRead === 2) cancel.abort();
        return store.getSessionNodesPage(sessionId, after, limit);
      },
    };
    const graphs = graphsOver(counting, 10);
    await expect(graphs['sessions.graph']({ sessionId: 'S1' }, { signal: cancel.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(pagesRead).toBe(2);
  });

  it('reopening gives the same graph until an import changes the session', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 5, null)));
    importFile(transcriptFile('/t/other.jsonl', { sessionHint: 'S2' }), inOrder(chain('o', 2, null).map((node) => ({ ...node, sessionSourceId: 'S2' }))));
    const graphs = graphsOver(store, 8);
    const first = await graphs['sessions.graph']({ sessionId: 'S1' });
    expect(await graphs['sessions.graph']({ sessionId: 'S1' })).toBe(first);
    // Another session changing leaves this one's graph as it was.
    events.emit('sessions.changed', { sessionIds: ['S2'] });
    expect(await graphs['sessions.graph']({ sessionId: 'S1' })).toBe(first);
    const changed = importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder(chain('n', 1, 't4-a')));
    events.emit('sessions.changed', { sessionIds: changed });
    const after = await graphs['sessions.graph']({ sessionId: 'S1' });
    expect(after).not.toBe(first);
    expect(after.nodes).toHaveLength(24);
    expect(after.nodes).toEqual(store.getSessionNodes('S1'));
  });

  it('sessions.states starts after the graph being read, not beside it (it competed with the open for the cores)', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 40, null)));
    const order: string[] = [];
    const counting: SessionStore = {
      ...store,
      getSessionNodesPage(sessionId, after, limit) {
        order.push(after.fileId === FIRST_PAGE.fileId ? 'first page' : 'page');
        return store.getSessionNodesPage(sessionId, after, limit);
      },
    };
    const graphs = graphsOver(counting, 10);
    const graph = graphs['sessions.graph']({ sessionId: 'S1' }).then((answer) => (order.push('graph'), answer));
    const states = graphs['sessions.states']({ sessionId: 'S1' }).then((answer) => (order.push('states'), answer));
    const [opened, known] = await Promise.all([graph, states]);
    // The graph's 17 pages (160 nodes, 10 a page), then the states' answer, reconstructed from the same nodes.
    expect(order.filter((step) => step === 'first page')).toHaveLength(1);
    expect(order.slice(-2)).toEqual(['graph', 'states']);
    expect(Object.keys(known.known).sort()).toEqual(opened.nodes.map((node) => node.id).sort());
  });

  it('sessions.states reads the nodes again when an import changed the session after its graph was read', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 10, null)));
    let firstPages = 0;
    const counting: SessionStore = {
      ...store,
      getSessionNodesPage(sessionId, after, limit) {
        if (after.fileId === FIRST_PAGE.fileId) firstPages++;
        return store.getSessionNodesPage(sessionId, after, limit);
      },
    };
    const graphs = graphsOver(counting, 10);
    expect((await graphs['sessions.graph']({ sessionId: 'S1' })).nodes).toHaveLength(40);
    // No sessions.changed event: the graph's key (node count, update time) is what sees the change.
    importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder(chain('n', 1, 't9-a')));
    const { known } = await graphs['sessions.states']({ sessionId: 'S1' });
    expect(firstPages).toBe(2);
    expect(Object.keys(known)).toHaveLength(44);
    expect(known['n0-a']).toBeDefined();
  });

  it('sessions.states cancelled while it waits for the graph stops with CancelledError', async () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(chain('t', 40, null)));
    const graphs = graphsOver(store, 10);
    const cancel = new AbortController();
    const graph = graphs['sessions.graph']({ sessionId: 'S1' });
    const states = graphs['sessions.states']({ sessionId: 'S1' }, { signal: cancel.signal });
    cancel.abort();
    await expect(states).rejects.toBeInstanceOf(CancelledError);
    expect((await graph).nodes).toHaveLength(160);
  });
});
