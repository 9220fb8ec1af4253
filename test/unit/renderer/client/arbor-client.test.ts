import { describe, expect, it, vi } from 'vitest';
import type { ArborBridge } from '../../../../shared/bridge';
import { ArborError, CancelledError } from '../../../../shared/errors';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { encodeSessionGraph } from '../../../../shared/session-graph-wire';
import type { ClientMessage } from '../../../../shared/wire';
import { createArborClient, createBridgeClient, createSocketClient, socketUrlFor } from '../../../../renderer/src/client/arbor-client';

/** Just enough of a browser WebSocket for the client: records what was sent, lets the test play the server. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: ClientMessage[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientMessage);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  reply(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

function socketClient() {
  FakeSocket.instances = [];
  const timers: Array<() => void> = [];
  const client = createSocketClient({
    url: 'ws://127.0.0.1:1234/ws?token=t',
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
  });
  const socket = () => FakeSocket.instances.at(-1)!;
  return { client, socket, timers };
}

/** A chain of nodes in session S1. */
function graphOf(ids: readonly string[]): SessionGraph {
  const nodes: NodeSummary[] = ids.map((id, i) => ({
    id,
    sessionId: 'S1',
    sourceId: id,
    parentSourceId: i === 0 ? null : ids[i - 1]!,
    parentId: i === 0 ? null : ids[i - 1]!,
    extraEdges: [],
    kind: i === 0 ? 'user' : 'tool_call',
    timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
    label: `step ${id}`,
    toolCalls: i === 0 ? [] : [{ id: `toolu_${id}`, name: 'Bash', outcome: 'ok' }],
    sidechain: false,
    agentId: null,
    model: 'claude-opus-4-6',
  }));
  const session = { id: 'S1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: ids.length, fileCount: 1, branchCount: 0 } as const;
  return { session, nodes };
}

describe('socket client', () => {
  it('queues calls until the socket opens, then resolves on the matching response', async () => {
    const { client, socket } = socketClient();
    const result = client.call('sessions.list', { limit: 5 });
    expect(socket().sent).toEqual([]);
    socket().open();
    expect(socket().sent).toEqual([{ t: 'req', id: 1, method: 'sessions.list', params: { limit: 5 } }]);
    socket().reply({ t: 'res', id: 1, ok: true, result: { sessions: [], total: 0 } });
    await expect(result).resolves.toEqual({ sessions: [], total: 0 });
    expect(client.host).toBe('web');
  });

  it('decodes a session graph sent in its compact form, and fails the call on a malformed one', async () => {
    const { client, socket } = socketClient();
    socket().open();
    const graph = graphOf(['u1', 'a1', 'c1']);
    const first = client.call('sessions.graph', { sessionId: 'S1' });
    socket().reply({ t: 'res', id: 1, ok: true, result: encodeSessionGraph(graph) });
    await expect(first).resolves.toEqual(graph);
    // A graph a host sent plain still arrives as it was.
    const plain = client.call('sessions.graph', { sessionId: 'S1' });
    socket().reply({ t: 'res', id: 2, ok: true, result: graph });
    await expect(plain).resolves.toEqual(graph);
    const broken = client.call('sessions.graph', { sessionId: 'S1' });
    socket().reply({ t: 'res', id: 3, ok: true, result: { ...encodeSessionGraph(graph), labels: [] } });
    await expect(broken).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('rebuilds ArborError with its code and data from an error response', async () => {
    const { client, socket } = socketClient();
    socket().open();
    const result = client.call('nodes.get', { nodeId: 'n1' });
    socket().reply({ t: 'res', id: 1, ok: false, error: { code: 'NOT_FOUND', message: 'no node', data: { nodeId: 'n1' } } });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArborError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', data: { nodeId: 'n1' } });
  });

  it('turns malformed error data into INTERNAL and CANCELLED into CancelledError', async () => {
    const { client, socket } = socketClient();
    socket().open();
    const a = client.call('app.info', {});
    const b = client.call('app.info', {});
    socket().reply({ t: 'res', id: 1, ok: false, error: { code: 'NOPE', message: 1 } });
    socket().reply({ t: 'res', id: 2, ok: false, error: { code: 'CANCELLED', message: 'stop' } });
    await expect(a).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(b).rejects.toBeInstanceOf(CancelledError);
  });

  it('sends cancel for an aborted call and rejects it with CANCELLED', async () => {
    const { client, socket } = socketClient();
    socket().open();
    const controller = new AbortController();
    const result = client.call('import.run', {}, { signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(socket().sent.at(-1)).toEqual({ t: 'cancel', id: 1 });
    // A late response for the cancelled call is ignored.
    socket().reply({ t: 'res', id: 1, ok: true, result: { sessions: [], problems: [] } });
  });

  it('rejects at once when the signal is already aborted, sending nothing', async () => {
    const { client, socket } = socketClient();
    socket().open();
    const controller = new AbortController();
    controller.abort();
    await expect(client.call('app.info', {}, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(socket().sent).toEqual([]);
  });

  it('delivers pushed events to subscribers until they unsubscribe', () => {
    const { client, socket } = socketClient();
    socket().open();
    const seen: string[][] = [];
    const off = client.on('sessions.changed', (p) => seen.push(p.sessionIds));
    socket().reply({ t: 'evt', event: 'sessions.changed', payload: { sessionIds: ['a'] } });
    off();
    socket().reply({ t: 'evt', event: 'sessions.changed', payload: { sessionIds: ['b'] } });
    expect(seen).toEqual([['a']]);
  });

  it('fails in-flight calls with IO on disconnect, reports the state, and reconnects with backoff', async () => {
    const { client, socket, timers } = socketClient();
    const states: string[] = [];
    client.onConnection((s) => states.push(s));
    socket().open();
    const inFlight = client.call('sessions.list', {});
    socket().drop();
    await expect(inFlight).rejects.toMatchObject({ code: 'IO' });
    expect(client.connection()).toBe('disconnected');
    expect(timers).toHaveLength(1);
    // A call made while disconnected waits for the new socket.
    const later = client.call('app.info', {});
    timers[0]!();
    expect(FakeSocket.instances).toHaveLength(2);
    socket().open();
    expect(states).toEqual(['connected', 'disconnected', 'connecting', 'connected']);
    expect(socket().sent).toEqual([{ t: 'req', id: 2, method: 'app.info', params: {} }]);
    socket().reply({ t: 'res', id: 2, ok: true, result: { version: '1', dataDir: '/d', platform: 'linux', host: 'web' } });
    await expect(later).resolves.toMatchObject({ version: '1' });
  });

  it('stops reconnecting after close()', async () => {
    const { client, socket, timers } = socketClient();
    socket().open();
    const pending = client.call('app.info', {});
    client.close();
    await expect(pending).rejects.toMatchObject({ code: 'IO' });
    expect(timers).toHaveLength(0);
    await expect(client.call('app.info', {})).rejects.toMatchObject({ code: 'IO' });
  });
});

describe('socketUrlFor', () => {
  it('carries the page token to the WebSocket URL', () => {
    expect(socketUrlFor({ protocol: 'http:', host: '127.0.0.1:5000', search: '?token=a%2Bb' })).toBe('ws://127.0.0.1:5000/ws?token=a%2Bb');
    expect(socketUrlFor({ protocol: 'https:', host: 'h', search: '' })).toBe('wss://h/ws?token=');
  });
});

function fakeBridge(invoke: Partial<Record<string, (req: unknown, id: number) => Promise<unknown>>>) {
  const cancelled: number[] = [];
  const bridge = {
    invoke,
    cancel: (id: number) => cancelled.push(id),
    on: vi.fn(() => () => undefined),
  } as unknown as ArborBridge;
  return { bridge, cancelled };
}

describe('bridge client', () => {
  it('unwraps ok envelopes and passes a call id', async () => {
    const seen: Array<[unknown, number]> = [];
    const { bridge } = fakeBridge({
      'sessions.list': async (req, id) => {
        seen.push([req, id]);
        return { ok: true, result: { sessions: [], total: 3 } };
      },
    });
    const client = createBridgeClient(bridge);
    await expect(client.call('sessions.list', { query: 'x' })).resolves.toEqual({ sessions: [], total: 3 });
    await client.call('sessions.list', {});
    expect(seen.map(([, id]) => id)).toEqual([1, 2]);
    expect(client.host).toBe('electron');
    expect(client.connection()).toBe('connected');
  });

  it('decodes a compact session graph from the bridge too', async () => {
    const graph = graphOf(['u1', 'a1']);
    const { bridge } = fakeBridge({ 'sessions.graph': async () => ({ ok: true, result: encodeSessionGraph(graph) }) });
    await expect(createBridgeClient(bridge).call('sessions.graph', { sessionId: 'S1' })).resolves.toEqual(graph);
  });

  it('throws ArborError with the code from an error envelope', async () => {
    const { bridge } = fakeBridge({ 'nodes.get': async () => ({ ok: false, error: { code: 'BAD_REQUEST', message: 'bad' } }) });
    await expect(createBridgeClient(bridge).call('nodes.get', { nodeId: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST', name: 'ArborError' });
  });

  it('cancels through the bridge when the signal aborts', async () => {
    let finish!: (v: unknown) => void;
    const { bridge, cancelled } = fakeBridge({ 'import.run': () => new Promise((r) => (finish = r)) });
    const controller = new AbortController();
    const result = createBridgeClient(bridge).call('import.run', {}, { signal: controller.signal });
    controller.abort();
    expect(cancelled).toEqual([1]);
    finish({ ok: false, error: { code: 'CANCELLED', message: 'cancelled' } });
    await expect(result).rejects.toBeInstanceOf(CancelledError);
  });

  it('createArborClient prefers window.arbor when present', () => {
    const { bridge } = fakeBridge({});
    (window as unknown as { arbor?: unknown }).arbor = bridge;
    try {
      expect(createArborClient().host).toBe('electron');
    } finally {
      delete (window as unknown as { arbor?: unknown }).arbor;
    }
  });
});
