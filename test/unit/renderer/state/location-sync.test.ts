import { describe, expect, it, vi } from 'vitest';
import { ArborError } from '../../../../shared/errors';
import { formatHash, parseHash, syncSelectionWithHash } from '../../../../renderer/src/state/location-sync';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, graphFor, nodeDetail } from '../fake-client';

function fakeWindow(hash: string) {
  const listeners = new Set<() => void>();
  const win = {
    location: { hash, pathname: '/', search: '?token=t' },
    history: {
      replaceState: vi.fn((_s: unknown, _t: string, url: string) => {
        win.location.hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
      }),
    },
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    fireHashChange: () => listeners.forEach((fn) => fn()),
    listeners,
  };
  return win;
}

describe('hash location', () => {
  it('round-trips session and node ids, including awkward characters', () => {
    const loc = { sessionId: 'a b&c', nodeId: 'n/1#' };
    expect(parseHash(formatHash(loc))).toEqual(loc);
    expect(formatHash({ sessionId: null, nodeId: 'x' })).toBe('');
    expect(parseHash('')).toEqual({ sessionId: null, nodeId: null });
  });

  it('opens the session in the hash and writes selection changes back (keeping the token)', async () => {
    const client = createFakeClient({ 'sessions.graph': ({ sessionId }) => graphFor(sessionId), 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
    const store = createAppStore(client);
    const win = fakeWindow('#session=s5&node=n9');
    const dispose = syncSelectionWithHash(store, win as never);
    await vi.waitFor(() => expect(store.getState().nodeDetail?.node.id).toBe('n9'));
    expect(store.getState().selectedSessionId).toBe('s5');
    await store.getState().selectNode('n2');
    expect(win.history.replaceState).toHaveBeenLastCalledWith(null, '', '/?token=t#session=s5&node=n2');
    win.location.hash = '#session=s6&node=n3';
    win.fireHashChange();
    await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('s6'));
    dispose();
    expect(win.listeners.size).toBe(0);
  });

  it('a stale hash naming a missing session closes it so another can open', async () => {
    const client = createFakeClient({
      'sessions.graph': () => Promise.reject(new ArborError('NOT_FOUND', 'gone')),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    syncSelectionWithHash(store, fakeWindow('#session=gone') as never);
    await vi.waitFor(() => expect(store.getState().notices).toHaveLength(1));
    expect(store.getState().selectedSessionId).toBeNull();
    expect(store.getState().notices[0]?.code).toBe('NOT_FOUND');
  });
});
