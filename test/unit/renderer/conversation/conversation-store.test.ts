import { describe, expect, it } from 'vitest';
import { NODE_DETAILS_MAX } from '../../../../shared/contract';
import { createConversationStore } from '../../../../renderer/src/conversation/conversation-store';
import { createFakeClient, nodeDetail, nodeSummary } from '../fake-client';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const settle = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

describe('the conversation store', () => {
  it('asks for details in batches of at most NODE_DETAILS_MAX, once per node, and lists the missing ones', async () => {
    const client = createFakeClient({
      'nodes.details': ({ nodeIds }) => ({
        details: nodeIds.filter((id) => id !== 'gone').map((id) => nodeDetail(id, { node: nodeSummary(id) })),
        missing: nodeIds.filter((id) => id === 'gone'),
      }),
    });
    const store = createConversationStore(client);
    const ids = Array.from({ length: 450 }, (_, i) => `n${i}`);
    store.getState().request(ids);
    store.getState().request(ids.slice(0, 10)); // already on their way
    await settle();
    const batches = client.calls.filter((c) => c.method === 'nodes.details').map((c) => (c.request as { nodeIds: string[] }).nodeIds.length);
    expect(batches).toEqual([NODE_DETAILS_MAX, NODE_DETAILS_MAX, 50]);
    expect(store.getState().details.size).toBe(450);
    store.getState().request([...ids.slice(0, 5), 'gone']);
    await settle();
    store.getState().request(['gone']);
    await settle();
    const asked = client.calls.filter((c) => c.method === 'nodes.details').map((c) => (c.request as { nodeIds: string[] }).nodeIds);
    expect(asked.slice(3)).toEqual([['gone']]);
    expect(store.getState().missing.has('gone')).toBe(true);
    store.getState().dispose();
  });

  it('says a batch failed, and asks again for its nodes later', async () => {
    let fail = true;
    const client = createFakeClient({
      'nodes.details': ({ nodeIds }) => {
        if (fail) throw new Error('offline');
        return { details: nodeIds.map((id) => nodeDetail(id, { node: nodeSummary(id) })), missing: [] };
      },
    });
    const store = createConversationStore(client);
    store.getState().request(['a']);
    await settle();
    expect(store.getState().failed).toBe(true);
    fail = false;
    store.getState().request(['a']);
    await settle();
    expect(store.getState().details.has('a')).toBe(true);
  });

  it('opens and folds rows', () => {
    const store = createConversationStore(createFakeClient());
    store.getState().toggle('t1');
    expect(store.getState().open.has('t1')).toBe(true);
    store.getState().setOpen('t1', false);
    expect(store.getState().open.has('t1')).toBe(false);
  });

  it('sends each ask as its own call in the order asked, so the rows on screen are not held back by the prefetch around them', async () => {
    const client = createFakeClient({ 'nodes.details': ({ nodeIds }) => ({ details: nodeIds.map((id) => nodeDetail(id, { node: nodeSummary(id) })), missing: [] }) });
    const store = createConversationStore(client);
    store.getState().request(['s1', 's2']); // on screen
    store.getState().request(['p1', 's1', 'p2', 's2', 'p3']); // the window around them: only the new ones
    await settle();
    const asked = client.calls.filter((c) => c.method === 'nodes.details').map((c) => (c.request as { nodeIds: string[] }).nodeIds);
    expect(asked).toEqual([
      ['s1', 's2'],
      ['p1', 'p2', 'p3'],
    ]);
  });

  it('starts with the details it is given and never asks for them (the inspector already fetched the selected node)', async () => {
    const client = createFakeClient({ 'nodes.details': ({ nodeIds }) => ({ details: nodeIds.map((id) => nodeDetail(id, { node: nodeSummary(id) })), missing: [] }) });
    const known = nodeDetail('sel', { node: nodeSummary('sel'), blocks: [{ type: 'text', text: 'already here' }] });
    const store = createConversationStore(client, [known]);
    expect(store.getState().details.get('sel')).toBe(known);
    store.getState().request(['sel', 'next']);
    await settle();
    expect(client.calls.map((c) => (c.request as { nodeIds: string[] }).nodeIds)).toEqual([['next']]);
    // A later seed adds a node not fetched yet, and never replaces one that is.
    const later = nodeDetail('other', { node: nodeSummary('other') });
    store.getState().seed(later);
    store.getState().seed(nodeDetail('sel', { node: nodeSummary('sel') }));
    expect(store.getState().details.get('other')).toBe(later);
    expect(store.getState().details.get('sel')).toBe(known);
    store.getState().dispose();
  });
});
