import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArborError, CancelledError } from '../../../../shared/errors';
import type { ImportReport, SessionGraph } from '../../../../shared/model';
import { createAppStore } from '../../../../renderer/src/state/store';
import { filterSessions, newestFirst } from '../../../../renderer/src/state/sessions-slice';
import { startApp, SESSIONS_REFRESH_MS } from '../../../../renderer/src/state/app-start';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session } from '../fake-client';

const graphOf = (id: string): SessionGraph => ({ session: session(id), nodes: [nodeSummary('n1', { sessionId: id })] });
const emptyReport: ImportReport = { sessions: [], problems: [] };

afterEach(() => vi.useRealTimers());

describe('sessions slice', () => {
  it('loads sessions newest first', async () => {
    const client = createFakeClient({
      'sessions.list': () => ({
        sessions: [session('old', { updatedAt: '2024-01-01T00:00:00Z' }), session('new', { updatedAt: '2025-06-01T00:00:00Z' }), session('nodate', { updatedAt: null, startedAt: null })],
        total: 3,
      }),
    });
    const store = createAppStore(client);
    await store.getState().loadSessions();
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['new', 'old', 'nodate']);
    expect(store.getState().sessionsStatus).toBe('ready');
  });

  it('reports a failed load in the notices with its code', async () => {
    const client = createFakeClient({ 'sessions.list': () => Promise.reject(new ArborError('IO', 'disk gone')) });
    const store = createAppStore(client);
    await store.getState().loadSessions();
    expect(store.getState().sessionsStatus).toBe('error');
    expect(store.getState().notices).toMatchObject([{ code: 'IO' }]);
  });

  it('filters by every word over title, project and id', () => {
    const list = [session('a', { title: 'Fix the parser', project: '/src/arbor' }), session('b', { title: 'Write docs', project: '/src/other' })];
    expect(filterSessions(list, 'parser').map((s) => s.id)).toEqual(['a']);
    expect(filterSessions(list, 'SRC docs').map((s) => s.id)).toEqual(['b']);
    expect(filterSessions(list, 'src')).toHaveLength(2);
    expect(filterSessions(list, '  ')).toBe(list);
    expect(filterSessions(list, 'nothing-like-this')).toEqual([]);
    expect(newestFirst([])).toEqual([]);
  });
});

describe('selection slice', () => {
  it('opens a session and selects the given node', async () => {
    const client = createFakeClient({
      'sessions.graph': ({ sessionId }) => graphOf(sessionId),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    await store.getState().openSession('s1', 'n7');
    const s = store.getState();
    expect(s.selectedSessionId).toBe('s1');
    expect(s.graph?.session.id).toBe('s1');
    expect(s.selectedNodeId).toBe('n7');
    expect(s.nodeDetail?.node.id).toBe('n7');
  });

  it('opening a session without a node selects its first prompt', async () => {
    const client = createFakeClient({
      'sessions.graph': ({ sessionId }) => ({
        session: session(sessionId),
        nodes: [nodeSummary('sys', { kind: 'system' }), nodeSummary('p1', { kind: 'user' }), nodeSummary('a1')],
      }),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    await store.getState().openSession('s1');
    await vi.waitFor(() => expect(store.getState().nodeDetail?.node.id).toBe('p1'));
    expect(store.getState().selectedNodeId).toBe('p1');
  });

  it("shows a big session's start while the rest arrives, then the whole graph, selecting the first prompt once", async () => {
    const whole = deferred<SessionGraph>();
    const start: SessionGraph = { session: session('s1'), nodes: [nodeSummary('p1', { kind: 'user' })] };
    const client = createFakeClient({
      'sessions.graph': (_request, _signal, options) => {
        options?.onPartialGraph?.(start);
        return whole.promise;
      },
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    const opening = store.getState().openSession('s1');
    await vi.waitFor(() => expect(store.getState().graph).toBe(start));
    expect(store.getState()).toMatchObject({ graphStatus: 'ready', graphPartial: true, selectedNodeId: 'p1' });
    const all: SessionGraph = { session: session('s1'), nodes: [...start.nodes, nodeSummary('a1')] };
    whole.resolve(all);
    await opening;
    expect(store.getState()).toMatchObject({ graph: all, graphPartial: false, selectedNodeId: 'p1' });
    expect(client.calls.filter((call) => call.method === 'nodes.get')).toHaveLength(1);
  });

  it("a refresh of the open session keeps the whole graph on screen: it asks for no partial one", async () => {
    const offered: boolean[] = [];
    const client = createFakeClient({
      'sessions.graph': ({ sessionId }, _signal, options) => {
        offered.push(options?.onPartialGraph !== undefined);
        return graphOf(sessionId);
      },
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    await store.getState().openSession('s1');
    await store.getState().refreshGraph();
    expect(offered).toEqual([true, false]);
    expect(store.getState().graphPartial).toBe(false);
  });

  it('keeps only the newest node request when the user clicks quickly', async () => {
    const slow = deferred<ReturnType<typeof nodeDetail>>();
    const client = createFakeClient({ 'nodes.get': ({ nodeId }, signal) => (nodeId === 'slow' ? slow.promise.then((d) => (signal?.aborted ? Promise.reject(new CancelledError()) : d)) : nodeDetail(nodeId)) });
    const store = createAppStore(client);
    const first = store.getState().selectNode('slow');
    await store.getState().selectNode('fast');
    slow.resolve(nodeDetail('slow'));
    await first;
    expect(store.getState().selectedNodeId).toBe('fast');
    expect(store.getState().nodeDetail?.node.id).toBe('fast');
    expect(store.getState().notices).toEqual([]);
  });

  it('selecting null clears the inspector', async () => {
    const client = createFakeClient({ 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
    const store = createAppStore(client);
    await store.getState().selectNode('n1');
    await store.getState().selectNode(null);
    expect(store.getState().nodeDetail).toBeNull();
    expect(store.getState().nodeStatus).toBe('idle');
  });
});

describe('search slice', () => {
  it('stores hits and the indexing flag; an empty query clears without calling', async () => {
    const hit = { sessionId: 's1', sessionTitle: 'T', nodeId: 'n1', kind: 'user' as const, timestamp: null, snippet: 'x' };
    const client = createFakeClient({ 'search.query': () => ({ hits: [hit], indexing: true, total: 1, totalCapped: false }) });
    const store = createAppStore(client);
    await store.getState().runSearch('  parser ');
    expect(client.calls).toEqual([{ method: 'search.query', request: { query: 'parser', limit: 50 } }]);
    expect(store.getState().searchHits).toEqual([hit]);
    expect(store.getState().searchIndexing).toBe(true);
    await store.getState().runSearch('');
    expect(store.getState().searchHits).toEqual([]);
    expect(client.calls).toHaveLength(1);
  });
});

describe('import slice and first run', () => {
  it('runs import in the background, applies progress, reloads sessions and opens the newest', async () => {
    const run = deferred<ImportReport>();
    let listed = 0;
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: listed++ === 0 ? [] : [session('s9')], total: listed }),
      'import.locations': () => ({ locations: [{ format: 'claude-code', path: '/home/u/.claude/projects', exists: true }] }),
      'import.run': () => run.promise,
      'sessions.graph': ({ sessionId }) => graphOf(sessionId),
    });
    const store = createAppStore(client);
    const dispose = startApp(store, client);
    await vi.waitFor(() => expect(store.getState().importPhase).toBe('running'));
    client.emit('import.progress', { jobId: 'j', phase: 'import', filesDone: 1, filesTotal: 4, bytesDone: 10, bytesTotal: 40, currentFile: 'a.jsonl' });
    expect(store.getState().importProgress?.filesDone).toBe(1);
    run.resolve({ sessions: [{ id: 's9', source: 'claude-code', files: 1, nodes: 3 }], problems: [] });
    await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('s9'));
    expect(store.getState().importPhase).toBe('done');
    await vi.waitFor(() => expect(store.getState().graph?.session.id).toBe('s9'));
    dispose();
  });

  it('cancelling the import aborts the call and leaves no error notice', async () => {
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: [], total: 0 }),
      'import.locations': () => ({ locations: [] }),
      'import.run': (_r, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new CancelledError()))),
    });
    const store = createAppStore(client);
    const done = store.getState().runImport();
    await vi.waitFor(() => expect(client.calls.some((c) => c.method === 'import.run')).toBe(true));
    store.getState().cancelImport();
    await done;
    expect(store.getState().importPhase).toBe('cancelled');
    expect(store.getState().notices).toEqual([]);
  });

  it('a failed import shows an error notice', async () => {
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: [], total: 0 }),
      'import.locations': () => ({ locations: [] }),
      'import.run': () => Promise.reject(new ArborError('IO', 'permission denied')),
    });
    const store = createAppStore(client);
    await store.getState().runImport();
    expect(store.getState().importPhase).toBe('failed');
    expect(store.getState().notices[0]).toMatchObject({ code: 'IO' });
  });

  it('creating the demo opens the returned session', async () => {
    let created = false;
    const client = createFakeClient({
      'demo.create': () => {
        created = true;
        return { sessionId: 'demo', dir: '/tmp/demo' };
      },
      'sessions.list': () => ({ sessions: created ? [session('demo')] : [], total: 0 }),
      'sessions.graph': ({ sessionId }) => graphOf(sessionId),
    });
    const store = createAppStore(client);
    await store.getState().createDemo();
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['demo']);
    expect(store.getState().selectedSessionId).toBe('demo');
    expect(store.getState().graph?.session.id).toBe('demo');
  });

  it('refreshes the list (the first change at once, the rest coalesced) and the open graph on sessions.changed', async () => {
    vi.useFakeTimers();
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: [session('s1')], total: 1 }),
      'import.locations': () => ({ locations: [] }),
      'import.run': () => emptyReport,
      'sessions.graph': ({ sessionId }) => graphOf(sessionId),
    });
    const store = createAppStore(client);
    const dispose = startApp(store, client);
    await vi.waitFor(() => expect(store.getState().importPhase).toBe('done'));
    await vi.waitFor(() => expect(store.getState().graph?.session.id).toBe('s1'));
    const count = (m: string) => client.calls.filter((c) => c.method === m).length;
    const lists = count('sessions.list');
    const graphs = count('sessions.graph');
    client.emit('sessions.changed', { sessionIds: ['s1'] });
    expect(count('sessions.list')).toBe(lists + 1);
    client.emit('sessions.changed', { sessionIds: ['s2'] });
    client.emit('sessions.changed', { sessionIds: ['s3'] });
    expect(count('sessions.graph')).toBe(graphs + 1);
    expect(count('sessions.list')).toBe(lists + 1);
    await vi.advanceTimersByTimeAsync(SESSIONS_REFRESH_MS + 10);
    expect(count('sessions.list')).toBe(lists + 2);
    dispose();
  });

  it('reloads the list and the open graph after the connection comes back', async () => {
    const client = createFakeClient({
      'sessions.list': () => ({ sessions: [session('s1')], total: 1 }),
      'import.locations': () => ({ locations: [] }),
      'import.run': () => emptyReport,
      'sessions.graph': ({ sessionId }) => graphOf(sessionId),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const store = createAppStore(client);
    const dispose = startApp(store, client);
    await vi.waitFor(() => expect(store.getState().graph?.session.id).toBe('s1'));
    await vi.waitFor(() => expect(store.getState().importPhase).toBe('done'));
    const count = (m: string) => client.calls.filter((c) => c.method === m).length;
    const lists = count('sessions.list');
    const graphs = count('sessions.graph');
    client.setConnection('connected'); // no disconnect yet: nothing to catch up
    expect(count('sessions.list')).toBe(lists);
    client.setConnection('disconnected');
    client.setConnection('connecting');
    client.setConnection('connected');
    expect(count('sessions.list')).toBe(lists + 1);
    expect(count('sessions.graph')).toBe(graphs + 1);
    dispose();
  });
});
