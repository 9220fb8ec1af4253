import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { ConversationLayout } from '../../../../renderer/src/conversation/ConversationLayout';
import { conversationMode } from '../../../../renderer/src/conversation/conversation-mode';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, nodeDetail, nodeSummary, session } from '../fake-client';

afterEach(() => {
  cleanup();
  act(() => conversationMode.getState().setMode('split'));
});

function graphOf(turns: number): SessionGraph {
  const nodes: NodeSummary[] = [];
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    for (const kind of ['user', 'assistant'] as const) {
      const id = `${kind[0]}${t}`;
      nodes.push(nodeSummary(id, { sessionId: 's1', kind, parentId: parent, parentSourceId: parent, timestamp: new Date(Date.UTC(2025, 0, 1, 10, 0, 0, nodes.length)).toISOString() }));
      parent = id;
    }
  }
  return { session: session('s1'), nodes };
}

const tick = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the conversation beside the graph', () => {
  it('switching Graph → Both remounted the conversation and dropped its fetched details: it is parked instead, and its keys are off meanwhile', async () => {
    const graph = graphOf(40);
    const client = createFakeClient({ 'nodes.details': ({ nodeIds }) => ({ details: nodeIds.map((id) => nodeDetail(id, { node: graph.nodes.find((n) => n.id === id)! })), missing: [] }) });
    const store = createAppStore(client);
    store.setState({ selectedSessionId: 's1', selectedNodeId: 'u10' });
    act(() => conversationMode.getState().setMode('split'));
    render(
      <AppProvider store={store} client={client}>
        <ConversationLayout graph={graph}>
          <div>graph</div>
        </ConversationLayout>
      </AppProvider>,
    );
    await tick();
    const first = screen.getByTestId('conversation');
    const asked = client.calls.filter((c) => c.method === 'nodes.details').length;
    expect(asked).toBeGreaterThan(0);

    act(() => conversationMode.getState().setMode('graph'));
    expect(screen.getByTestId('conversation')).toBe(first);
    expect(first.getAttribute('data-parked')).toBe('true');
    // j while parked does not move the selection behind the user's back.
    fireEvent.keyDown(window, { key: 'j' });
    expect(store.getState().selectedNodeId).toBe('u10');

    act(() => conversationMode.getState().setMode('split'));
    await tick();
    expect(screen.getByTestId('conversation')).toBe(first);
    expect(first.hasAttribute('data-parked')).toBe(false);
    // The same details cache: nothing fetched again for the rows it had.
    expect(client.calls.filter((c) => c.method === 'nodes.details').length).toBe(asked);
    fireEvent.keyDown(window, { key: 'j' });
    expect(store.getState().selectedNodeId).not.toBe('u10');
  });
});
