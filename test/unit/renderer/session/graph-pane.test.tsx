import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { computeLayout, openStructure } from '../../../../renderer/src/graph/layout-compute';
import { requestNodes, type LayoutRequest, type LayoutResponse, type WarmupRequest } from '../../../../renderer/src/graph/layout-protocol';
import { GraphPane } from '../../../../renderer/src/session/GraphPane';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';

/** Stands in for the layout worker (happy-dom has none): answers like layout.worker.ts, on a later turn. */
class FakeLayoutWorker {
  static created = 0;
  static terminated = 0;
  static instances: FakeLayoutWorker[] = [];
  /** The worker each open request went to. */
  static opens: FakeLayoutWorker[] = [];
  onmessage: ((event: { data: LayoutResponse }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  private structure: ReturnType<typeof openStructure>['structure'] | null = null;
  constructor() {
    FakeLayoutWorker.created++;
    FakeLayoutWorker.instances.push(this);
  }
  postMessage(request: LayoutRequest | WarmupRequest): void {
    // The spare worker's warm-up gets no answer, as in layout.worker.ts.
    if (request.type === 'warm') return;
    setTimeout(() => {
      let response: LayoutResponse;
      if (request.type === 'open') {
        FakeLayoutWorker.opens.push(this);
        const opened = openStructure(requestNodes(request.nodes), request.expanded);
        this.structure = opened.structure;
        response = { id: request.id, ok: true, structure: opened.arrays, layout: opened.layout };
      } else {
        response = { id: request.id, ok: true, structure: null, layout: computeLayout(this.structure!, request.expanded) };
      }
      this.onmessage?.({ data: response });
    }, 0);
  }
  terminate(): void {
    FakeLayoutWorker.terminated++;
  }
}

function chain(sessionId: string, count: number): SessionGraph {
  const nodes: NodeSummary[] = [];
  for (let i = 0; i < count; i++) {
    const parent = i === 0 ? null : `n${i - 1}`;
    nodes.push(nodeSummary(`n${i}`, { sessionId, parentId: parent, parentSourceId: parent, kind: i % 2 === 0 ? 'user' : 'assistant' }));
  }
  return { session: session(sessionId, { nodeCount: count }), nodes };
}

beforeEach(() => {
  FakeLayoutWorker.created = 0;
  FakeLayoutWorker.terminated = 0;
  FakeLayoutWorker.instances = [];
  FakeLayoutWorker.opens = [];
  vi.stubGlobal('Worker', FakeLayoutWorker);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('GraphPane', () => {
  it('starts the layout worker before a session opens, and lays the session out with that one worker', async () => {
    const graph = deferred<SessionGraph>();
    const client = createFakeClient({ 'sessions.graph': () => graph.promise, 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
    const view = renderWithStore(
      <div style={{ width: 900, height: 600 }}>
        <GraphPane />
      </div>,
      client,
    );
    // Started before any session is chosen, so its script loads while the list and the nodes do.
    await waitFor(() => expect(FakeLayoutWorker.created).toBe(1));
    act(() => void view.store.getState().openSession('s1'));
    expect(view.container.textContent).toContain('Opening session');

    await act(async () => graph.resolve(chain('s1', 6)));
    await waitFor(() => expect(view.container.querySelectorAll('[data-testid="graph-node"]').length).toBeGreaterThan(0));
    // Let React Flow finish initializing its viewport: that must not start the layout over in a new worker.
    await act(() => new Promise((done) => setTimeout(done, 50)));
    expect(FakeLayoutWorker.opens).toEqual([FakeLayoutWorker.instances[0]]);
    expect(FakeLayoutWorker.terminated).toBe(0);
    // Once laid out, a spare worker waits for the next session (it was started after the layout, not during it).
    expect(FakeLayoutWorker.created).toBe(2);
  });

  it('opens the next session in the spare worker started after the last layout (no script to load then)', async () => {
    const client = createFakeClient({ 'sessions.graph': ({ sessionId }) => chain(sessionId, 6), 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
    const view = renderWithStore(
      <div style={{ width: 900, height: 600 }}>
        <GraphPane />
      </div>,
      client,
    );
    await act(async () => view.store.getState().openSession('s1'));
    await waitFor(() => expect(FakeLayoutWorker.opens).toHaveLength(1));
    // The spare is started once s1 is laid out.
    await waitFor(() => expect(FakeLayoutWorker.instances.at(-1)).not.toBe(FakeLayoutWorker.opens[0]));
    const spare = FakeLayoutWorker.instances.at(-1);
    await act(async () => view.store.getState().openSession('s2'));
    await waitFor(() => expect(FakeLayoutWorker.opens).toHaveLength(2));
    expect(FakeLayoutWorker.opens[1]).toBe(spare);
    await waitFor(() => expect(view.container.querySelector('[data-testid="graph-node"]')).not.toBeNull());
    expect(FakeLayoutWorker.terminated).toBe(1);
  });
  it("draws a big session's start before the rest is in, and asks for the workspace states only once the whole graph is drawn", async () => {
    const whole = deferred<SessionGraph>();
    const all = chain('s1', 12);
    const start: SessionGraph = { session: all.session, nodes: all.nodes.slice(0, 4) };
    const client = createFakeClient({
      'sessions.graph': (_request, _signal, options) => {
        options?.onPartialGraph?.(start);
        return whole.promise;
      },
      'sessions.states': () => ({ known: {} }),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const view = renderWithStore(
      <div style={{ width: 900, height: 600 }}>
        <GraphPane />
      </div>,
      client,
    );
    act(() => void view.store.getState().openSession('s1'));
    await waitFor(() => expect(view.container.querySelector('[data-testid="graph-node"]')).not.toBeNull());
    expect(view.container.querySelector('[data-testid="graph-arriving"]')?.textContent).toContain('first 4 of 12 nodes');
    await act(() => new Promise((done) => setTimeout(done, 50)));
    const statesAsked = () => client.calls.filter((call) => call.method === 'sessions.states').length;
    // Asked now, the query of every node's state would hold the host while it still sends the rest.
    expect(statesAsked()).toBe(0);

    await act(async () => whole.resolve(all));
    await waitFor(() => expect(view.container.querySelector('[data-testid="graph-arriving"]')).toBeNull());
    await waitFor(() => expect(statesAsked()).toBe(1));
    expect(FakeLayoutWorker.opens).toHaveLength(2);
  });
});
