import { describe, expect, it, vi } from 'vitest';
import { ArborError } from '../../../../shared/errors';
import { formatHash, HASH_WRITE_DELAY_MS, parseHash, syncSelectionWithHash } from '../../../../renderer/src/state/location-sync';
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
    await vi.waitFor(() => expect(win.history.replaceState).toHaveBeenLastCalledWith(null, '', '/?token=t#session=s5&node=n2'));
    win.location.hash = '#session=s6&node=n3';
    win.fireHashChange();
    await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('s6'));
    dispose();
    expect(win.listeners.size).toBe(0);
  });

  it('writes the hash later, once for a burst of selections, and flushes a pending write on dispose', async () => {
    vi.useFakeTimers();
    try {
      const client = createFakeClient({ 'sessions.graph': ({ sessionId }) => graphFor(sessionId), 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
      const store = createAppStore(client);
      const win = fakeWindow('');
      const dispose = syncSelectionWithHash(store, win as never);
      await store.getState().openSession('s1', 'n1');
      for (const id of ['n2', 'n3', 'n4']) await store.getState().selectNode(id);
      // Nothing yet: replaceState stays off the path of opening a session and of arrow-key bursts.
      expect(win.history.replaceState).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(HASH_WRITE_DELAY_MS);
      expect(win.history.replaceState).toHaveBeenCalledTimes(1);
      expect(win.location.hash).toBe('#session=s1&node=n4');
      await store.getState().selectNode('n5');
      dispose();
      expect(win.history.replaceState).toHaveBeenCalledTimes(2);
      expect(win.location.hash).toBe('#session=s1&node=n5');
      await vi.advanceTimersByTimeAsync(HASH_WRITE_DELAY_MS);
      expect(win.history.replaceState).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
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
