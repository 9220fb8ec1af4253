import { describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../../../../shared/model';
import { sessionToOpenAtStart, startApp } from '../../../../renderer/src/state/app-start';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, deferred, nodeSummary, session } from '../fake-client';

describe('sessionToOpenAtStart', () => {
  const orphan = session('orphan', { orphanSubagent: true, updatedAt: '2026-03-01T00:00:00Z' });
  const empty = session('empty', { nodeCount: 0, updatedAt: '2026-02-01T00:00:00Z' });
  const real = session('real', { updatedAt: '2026-01-01T00:00:00Z' });

  it('skips newer orphan subagents and sessions with no node for the newest real session', () => {
    expect(sessionToOpenAtStart([orphan, empty, real], 'running')?.id).toBe('real');
    expect(sessionToOpenAtStart([orphan, empty, real], 'done')?.id).toBe('real');
  });

  it('opens nothing while the list fills with only orphans, and the newest with nodes once the import is over', () => {
    expect(sessionToOpenAtStart([orphan, empty], 'idle')).toBeNull();
    expect(sessionToOpenAtStart([orphan, empty], 'running')).toBeNull();
    expect(sessionToOpenAtStart([empty, orphan], 'done')?.id).toBe('orphan');
    expect(sessionToOpenAtStart([empty], 'failed')).toBeNull();
  });
});

describe('startApp', () => {
  it('opened an orphan subagent session first while the list filled: it waits for the newest real session', async () => {
    const run = deferred<ImportReport>();
    let listed = 0;
    const orphan = session('orphan', { orphanSubagent: true, updatedAt: '2026-03-01T00:00:00Z' });
    const client = createFakeClient({
      // The first list (before the import) holds only an orphan subagent; the import then stores a real session.
      'sessions.list': () => {
        const sessions = listed++ === 0 ? [orphan] : [orphan, session('real', { updatedAt: '2026-01-01T00:00:00Z' })];
        return { sessions, total: sessions.length };
      },
      'import.locations': () => ({ locations: [{ format: 'claude-code', path: '/home/u/.claude/projects', exists: true }] }),
      'import.run': () => run.promise,
      'sessions.graph': ({ sessionId }) => ({ session: session(sessionId), nodes: [nodeSummary('n1', { sessionId })] }),
    });
    const store = createAppStore(client);
    const dispose = startApp(store, client);
    try {
      await vi.waitFor(() => expect(store.getState().importPhase).toBe('running'));
      expect(store.getState().sessions.map((s) => s.id)).toEqual(['orphan']);
      expect(store.getState().selectedSessionId).toBeNull();
      client.emit('sessions.changed', { sessionIds: ['real'] });
      await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('real'));
      run.resolve({ sessions: [], problems: [] });
      await vi.waitFor(() => expect(store.getState().importPhase).toBe('done'));
      expect(store.getState().selectedSessionId).toBe('real');
      expect(client.calls.some((call) => call.method === 'sessions.graph' && (call.request as { sessionId: string }).sessionId === 'orphan')).toBe(false);
    } finally {
      dispose();
    }
  });

  it('reloaded the open graph once per sessions.changed while each reload was still running: one at a time, the changes in between coalesced into one more', async () => {
    const run = deferred<ImportReport>();
    const answers: Array<ReturnType<typeof deferred<{ session: ReturnType<typeof session>; nodes: ReturnType<typeof nodeSummary>[] }>>> = [];
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: [session('big')], total: 1 }),
      'import.locations': () => ({ locations: [{ format: 'claude-code', path: '/home/u/.claude/projects', exists: true }] }),
      'import.run': () => run.promise,
      'sessions.graph': ({ sessionId }) => {
        const answer = deferred<{ session: ReturnType<typeof session>; nodes: ReturnType<typeof nodeSummary>[] }>();
        answers.push(answer);
        return answer.promise.then(() => ({ session: session(sessionId), nodes: [nodeSummary('n1', { sessionId })] }));
      },
    });
    const graphCalls = (): number => client.calls.filter((call) => call.method === 'sessions.graph').length;
    const store = createAppStore(client);
    const dispose = startApp(store, client);
    try {
      await vi.waitFor(() => expect(graphCalls()).toBe(1));
      answers[0]!.resolve({ session: session('big'), nodes: [] });
      await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('big'));
      client.emit('sessions.changed', { sessionIds: ['big'] });
      await vi.waitFor(() => expect(graphCalls()).toBe(2));
      // Five more changes while that reload runs: none asks for the graph yet.
      for (let i = 0; i < 5; i++) client.emit('sessions.changed', { sessionIds: ['big'] });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(graphCalls()).toBe(2);
      answers[1]!.resolve({ session: session('big'), nodes: [] });
      // Then exactly one more, for all five.
      await vi.waitFor(() => expect(graphCalls()).toBe(3));
      answers[2]!.resolve({ session: session('big'), nodes: [] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(graphCalls()).toBe(3);
    } finally {
      run.resolve({ sessions: [], problems: [] });
      dispose();
    }
  });
});
