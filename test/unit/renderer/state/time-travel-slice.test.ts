import { describe, expect, it } from 'vitest';
import type { WorkspaceStateKnown } from '../../../../shared/model';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, deferred } from '../fake-client';

describe('time-travel slice', () => {
  it('keeps only the newest states answer, for the session still open', async () => {
    const answers = new Map([
      ['s1', deferred<{ known: Record<string, WorkspaceStateKnown> }>()],
      ['s2', deferred<{ known: Record<string, WorkspaceStateKnown> }>()],
    ]);
    const client = createFakeClient({ 'sessions.states': ({ sessionId }) => answers.get(sessionId)!.promise });
    const store = createAppStore(client);
    store.setState({ selectedSessionId: 's1' });
    const first = store.getState().loadNodeStates('s1');
    store.setState({ selectedSessionId: 's2' });
    const second = store.getState().loadNodeStates('s2');
    answers.get('s2')!.resolve({ known: { b: 'exact' } });
    await second;
    answers.get('s1')!.resolve({ known: { a: 'unknown' } });
    await first;
    expect(store.getState().nodeStates).toEqual({ b: 'exact' });
    expect(store.getState().nodeStatesSession).toBe('s2');
  });

  it('a failure leaves the markers off and says why in the banner', async () => {
    const client = createFakeClient({
      'sessions.states': () => {
        throw new Error('reconstruction failed');
      },
    });
    const store = createAppStore(client);
    store.setState({ selectedSessionId: 's1' });
    await store.getState().loadNodeStates('s1');
    expect(store.getState().nodeStates).toBeNull();
    expect(store.getState().notices.at(-1)?.message).toContain('reconstruction failed');
  });
});
