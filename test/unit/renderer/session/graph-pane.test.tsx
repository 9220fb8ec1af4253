import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { computeLayout, openStructure } from '../../../../renderer/src/graph/layout-compute';
import { requestNodes, type LayoutRequest, type LayoutResponse } from '../../../../renderer/src/graph/layout-protocol';
import { GraphPane } from '../../../../renderer/src/session/GraphPane';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';

/** Stands in for the layout worker (happy-dom has none): answers like layout.worker.ts, on a later turn. */
class FakeLayoutWorker {
  static created = 0;
  static terminated = 0;
  onmessage: ((event: { data: LayoutResponse }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  private structure: ReturnType<typeof openStructure>['structure'] | null = null;
  constructor() {
    FakeLayoutWorker.created++;
  }
  postMessage(request: LayoutRequest): void {
    setTimeout(() => {
      let response: LayoutResponse;
      if (request.type === 'open') {
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
    expect(FakeLayoutWorker.created).toBe(1);
    expect(FakeLayoutWorker.terminated).toBe(0);
  });
});
