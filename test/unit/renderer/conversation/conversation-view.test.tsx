import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { ConversationView } from '../../../../renderer/src/conversation/ConversationView';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session } from '../fake-client';

afterEach(cleanup);

/** A long linear session: prompt, reply, prompt, reply… */
function longSession(turns: number): SessionGraph {
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

describe('the conversation view on a long branch', () => {
  it('asks for the rows around a deep selected node as it opens, before any row is mounted or measured, and not for the branch’s first rows', async () => {
    const graph = longSession(2_000);
    const deep = graph.nodes.find((n) => n.id === 'u1500')!;
    const client = createFakeClient({ 'nodes.details': () => deferred<never>().promise });
    const store = createAppStore(client);
    // The inspector fetched the selected node's details (nodes.get) before the graph arrived.
    store.setState({ selectedSessionId: 's1', selectedNodeId: deep.id, nodeDetail: nodeDetail(deep.id, { node: deep, blocks: [{ type: 'text', text: 'The deep prompt.' }] }) });
    render(
      <AppProvider store={store} client={client}>
        <ConversationView graph={graph} />
      </AppProvider>,
    );
    await tick();
    const asks = client.calls.filter((c) => c.method === 'nodes.details').map((c) => (c.request as { nodeIds: string[] }).nodeIds);
    // One row per node here: the four rows before the selected one and sixteen after, the selected one aside.
    const around = graph.nodes.slice(3000 - 4, 3000 + 17).map((n) => n.id).filter((id) => id !== deep.id);
    expect(asks[0]).toEqual(around);
    // The selected node itself is never asked for: the inspector's details are used.
    expect(asks.flat()).not.toContain('u1500');
    expect(asks.flat()).not.toContain('u0');
  });
});
