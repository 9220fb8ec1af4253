import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSessionStructure, type SessionStructure } from '../../../../shared/graph/session-structure';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { conversationMode } from '../../../../renderer/src/conversation/conversation-mode';
import { computeLayout, openStructure } from '../../../../renderer/src/graph/layout-compute';
import { requestNodes, type LayoutRequest, type LayoutResponse, type WarmupRequest } from '../../../../renderer/src/graph/layout-protocol';
import { GraphPane } from '../../../../renderer/src/session/GraphPane';
import { createSessionTrees, sessionTrees } from '../../../../renderer/src/state/session-trees';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';

/** A session with a fork (two replies to one prompt) after a chain of turns. */
function graphOf(sessionId: string, turns: number): SessionGraph {
  const nodes: NodeSummary[] = [];
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    for (const kind of ['user', 'assistant'] as const) {
      const id = `${sessionId}-${kind[0]}${t}`;
      nodes.push(nodeSummary(id, { sessionId, kind, parentId: parent, parentSourceId: parent, timestamp: new Date(Date.UTC(2025, 0, 1, 10, 0, nodes.length)).toISOString() }));
      parent = id;
    }
  }
  const prompt = `${sessionId}-u0`;
  nodes.push(nodeSummary(`${sessionId}-retry`, { sessionId, kind: 'assistant', parentId: prompt, parentSourceId: prompt, timestamp: new Date(Date.UTC(2025, 0, 1, 11)).toISOString() }));
  return { session: session(sessionId, { nodeCount: nodes.length }), nodes };
}

function countingStore() {
  const built: SessionGraph[] = [];
  const store = createSessionTrees((graph) => {
    built.push(graph);
    return buildSessionStructure(graph.nodes);
  });
  return { store, built };
}

describe('the session trees store', () => {
  it('builds a version nobody claimed once, however often it is asked for', () => {
    const { store, built } = countingStore();
    const graph = graphOf('a', 3);
    store.getState().ensure(graph);
    store.getState().ensure(graph);
    store.getState().ensure({ ...graph }); // the same nodes in a new graph object: the same version
    expect(built).toHaveLength(1);
    expect(store.getState().builds).toBe(1);
    expect(store.getState().entries.get('a')?.shown?.nodes).toBe(graph.nodes);
  });

  it('builds nothing for a version the graph view claimed; its published tree is what readers get', () => {
    const { store, built } = countingStore();
    const graph = graphOf('a', 3);
    store.getState().claim(graph);
    store.getState().ensure(graph);
    expect(built).toHaveLength(0);
    expect(store.getState().entries.get('a')?.shown).toBeNull();
    const tree = buildSessionStructure(graph.nodes);
    store.getState().publish(graph, tree);
    expect(store.getState().entries.get('a')?.shown).toBe(tree);
    expect(store.getState().builds).toBe(1);
  });

  it('keeps showing the last tree while a refresh is laid out, and drops a tree of a version already replaced', () => {
    const { store } = countingStore();
    const first = graphOf('a', 3);
    const firstTree = buildSessionStructure(first.nodes);
    store.getState().claim(first);
    store.getState().publish(first, firstTree);
    const second = graphOf('a', 4);
    store.getState().claim(second);
    expect(store.getState().entries.get('a')?.shown).toBe(firstTree);
    // A late answer for the first version does not replace the second's claim.
    store.getState().publish(first, buildSessionStructure(first.nodes));
    expect(store.getState().entries.get('a')?.version).toBe(second.nodes);
    expect(store.getState().entries.get('a')?.shown).toBe(firstTree);
  });

  it('a released claim (the layout failed) leaves the version to whoever needs it', () => {
    const { store, built } = countingStore();
    const graph = graphOf('a', 3);
    store.getState().claim(graph);
    store.getState().release(graph);
    expect(store.getState().entries.has('a')).toBe(false);
    store.getState().ensure(graph);
    expect(built).toEqual([graph]);
  });

  it('keeps the trees of the open session and the one before only', () => {
    const { store } = countingStore();
    for (const id of ['a', 'b', 'c']) store.getState().ensure(graphOf(id, 2));
    expect([...store.getState().entries.keys()]).toEqual(['b', 'c']);
  });
});

/** Stands in for the layout worker (happy-dom has none), answering like layout.worker.ts; counts the trees it builds. */
class CountingLayoutWorker {
  static opens = 0;
  /** Answers wait for this when set (a slow layout). */
  static hold: Promise<void> | null = null;
  onmessage: ((event: { data: LayoutResponse }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  private structure: SessionStructure | null = null;
  postMessage(request: LayoutRequest | WarmupRequest): void {
    // The spare worker's warm-up gets no answer, as in layout.worker.ts (answered as a relayout, it threw).
    if (request.type === 'warm') return;
    if (CountingLayoutWorker.hold !== null) {
      void CountingLayoutWorker.hold.then(() => this.answer(request));
      return;
    }
    this.answer(request);
  }
  private answer(request: LayoutRequest): void {
    setTimeout(() => {
      let response: LayoutResponse;
      if (request.type === 'open') {
        CountingLayoutWorker.opens++;
        const opened = openStructure(requestNodes(request.nodes), request.expanded, request.workspaceNodes, request.hide);
        this.structure = opened.structure;
        response = { id: request.id, ok: true, structure: opened.arrays, layout: opened.layout };
      } else {
        response = { id: request.id, ok: true, structure: null, layout: computeLayout(this.structure!, request.expanded, request.hide) };
      }
      this.onmessage?.({ data: response });
    }, 0);
  }
  terminate(): void {}
}

describe('one session tree for the graph and the conversation', () => {
  beforeEach(() => {
    CountingLayoutWorker.opens = 0;
    CountingLayoutWorker.hold = null;
    vi.stubGlobal('Worker', CountingLayoutWorker);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    act(() => conversationMode.getState().setMode('split'));
  });

  it('the conversation built its own session tree beside the graph’s: switching Graph → Both → Conversation builds none, a new version builds one', async () => {
    const first = graphOf('shared-1', 30);
    let graph = first;
    const client = createFakeClient({
      'sessions.graph': () => graph,
      'sessions.states': () => ({ known: {} }),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
      'nodes.details': ({ nodeIds }) => ({ details: nodeIds.map((id) => nodeDetail(id, { node: graph.nodes.find((n) => n.id === id)! })), missing: [] }),
    });
    act(() => conversationMode.getState().setMode('graph'));
    const before = sessionTrees.getState().builds;
    const view = renderWithStore(
      <div style={{ width: 1400, height: 700 }}>
        <GraphPane />
      </div>,
      client,
    );
    await act(async () => view.store.getState().openSession('shared-1'));
    await waitFor(() => expect(view.container.querySelector('[data-testid="graph-node"]')).not.toBeNull());
    expect(sessionTrees.getState().builds - before).toBe(1);

    for (const mode of ['split', 'conversation', 'graph', 'split'] as const) {
      act(() => conversationMode.getState().setMode(mode));
      await act(() => new Promise((done) => setTimeout(done, 10)));
    }
    await waitFor(() => expect(view.container.querySelector('[data-testid="conversation"]')).not.toBeNull());
    // The conversation reads the tree the worker built: nothing built on the UI thread, one tree in all.
    expect(sessionTrees.getState().builds - before).toBe(1);
    expect(CountingLayoutWorker.opens).toBe(1);
    // The conversation is past its "Reading…" placeholder: its rows ask for their details.
    await waitFor(() => expect(client.calls.some((c) => c.method === 'nodes.details')).toBe(true));

    // A refresh (a new version of the session's nodes) builds one more.
    graph = graphOf('shared-1', 31);
    await act(async () => view.store.getState().refreshGraph());
    await waitFor(() => expect(sessionTrees.getState().entries.get('shared-1')?.shown?.nodes).toBe(graph.nodes));
    expect(sessionTrees.getState().builds - before).toBe(2);
  });

  it('asked for the workspace states while the graph was still being laid out: they are asked once its first view is drawn', async () => {
    const graph = graphOf('shared-2', 10);
    const laidOut = deferred<void>();
    const client = createFakeClient({
      'sessions.graph': () => graph,
      'sessions.states': () => ({ known: {} }),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
      'nodes.details': () => ({ details: [], missing: [] }),
    });
    // The worker (and the spare one an earlier open left) answers only when the test says so.
    CountingLayoutWorker.hold = laidOut.promise;
    act(() => conversationMode.getState().setMode('graph'));
    const view = renderWithStore(
      <div style={{ width: 1400, height: 700 }}>
        <GraphPane />
      </div>,
      client,
    );
    await act(async () => view.store.getState().openSession('shared-2'));
    await act(() => new Promise((done) => setTimeout(done, 50)));
    const statesAsked = () => client.calls.filter((c) => c.method === 'sessions.states').length;
    expect(statesAsked()).toBe(0);
    await act(async () => laidOut.resolve());
    await waitFor(() => expect(view.container.querySelector('[data-testid="graph-node"]')).not.toBeNull());
    await waitFor(() => expect(statesAsked()).toBe(1));
  });
});
