/**
 * The renderer's one way to reach the main side. The same interface runs over the Electron preload
 * (`window.arbor`) or the WebSocket of `arbor serve`; nothing else in the renderer knows which.
 */
import type { ArborEvents, EventName, MethodName, RequestOf, ResultOf } from '../../../shared/contract';
import { ArborError, CancelledError, isArborErrorData, type ArborErrorData } from '../../../shared/errors';
import type { ArborBridge } from '../../../shared/bridge';
import { BRIDGE_GLOBAL } from '../../../shared/bridge';
import { packEncodedNodes, rememberPackedNodes } from '../../../shared/graph/packed-nodes';
import type { SessionGraph } from '../../../shared/model';
import { decodeSessionGraph, isEncodedSessionGraph } from '../../../shared/session-graph-wire';
import { TOKEN_PARAM, WS_PATH, type ClientMessage, type Envelope, type ServerMessage } from '../../../shared/wire';
import { markGraphStage, timingNow } from './graph-timing';
import { withGraphPages } from './session-graph-pages';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface CallOptions {
  readonly signal?: AbortSignal;
  /**
   * `sessions.graph` of a big session only: its start (the first page of nodes, what the view shows as it
   * opens), while the rest is still on its way; the answer is the whole graph, with the same first nodes.
   */
  readonly onPartialGraph?: (graph: SessionGraph) => void;
}

export interface ArborClient {
  call<M extends MethodName>(method: M, request: RequestOf<M>, options?: CallOptions): Promise<ResultOf<M>>;
  on<E extends EventName>(event: E, fn: (payload: ArborEvents[E]) => void): () => void;
  readonly host: 'electron' | 'web';
  /** Transport health, for the "disconnected" banner. The bridge is always connected. */
  connection(): ConnectionState;
  onConnection(fn: (state: ConnectionState) => void): () => void;
  /** Stops reconnecting and fails pending calls (tests, teardown). */
  close(): void;
}

/** Rebuilds a thrown error from wire data; anything malformed is a bug on the other side. */
export function errorFromData(data: unknown): ArborError {
  if (!isArborErrorData(data)) return new ArborError('INTERNAL', 'Malformed error from Arbor');
  if (data.code === 'CANCELLED') return new CancelledError(data.message);
  return new ArborError(data.code, data.message, data.data);
}

function unwrap<T>(method: MethodName, envelope: Envelope<T>): T {
  if (envelope.ok) return fromTransport(method, envelope.result) as T;
  throw errorFromData(envelope.error);
}

/** Undoes a transport encoding of a result (a host may send a session graph compactly); throws on bad data. */
export function fromTransport(method: MethodName, result: unknown): unknown {
  if (method !== 'sessions.graph' || !isEncodedSessionGraph(result)) return result;
  const graph = decodeSessionGraph(result);
  // The wire's columns already say the graph's shape by index: kept beside the nodes for the layout worker.
  const packed = packEncodedNodes(result, graph.nodes);
  if (packed !== null) rememberPackedNodes(graph.nodes, packed);
  return graph;
}

type Listener = (payload: never) => void;

class ListenerSet {
  private readonly byEvent = new Map<EventName, Set<Listener>>();
  add<E extends EventName>(event: E, fn: (payload: ArborEvents[E]) => void): () => void {
    let set = this.byEvent.get(event);
    if (!set) this.byEvent.set(event, (set = new Set()));
    const listener = fn as Listener;
    set.add(listener);
    return () => set.delete(listener);
  }
  emit(event: EventName, payload: unknown): void {
    for (const fn of [...(this.byEvent.get(event) ?? [])]) {
      try {
        (fn as (p: unknown) => void)(payload);
      } catch (error) {
        // One broken listener must not starve the others.
        console.error(`Arbor event listener for ${event} failed`, error);
      }
    }
  }
}

/** Over the Electron preload: every call is a named function returning an envelope. */
export function createBridgeClient(bridge: ArborBridge): ArborClient {
  let nextCallId = 1;
  return {
    host: 'electron',
    async call(method, request, options) {
      const signal = options?.signal;
      if (signal?.aborted) throw new CancelledError();
      const callId = nextCallId++;
      const onAbort = () => bridge.cancel(callId);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const invoke = bridge.invoke[method] as (r: typeof request, id: number) => Promise<Envelope<ResultOf<typeof method>>>;
        return unwrap(method, await invoke(request, callId));
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    on: (event, fn) => bridge.on(event, fn),
    connection: () => 'connected',
    onConnection: () => () => undefined,
    close: () => undefined,
  };
}

export interface SocketClientOptions {
  readonly url: string;
  /** Injected for tests; defaults to the browser's WebSocket. */
  readonly createSocket?: (url: string) => WebSocket;
  readonly setTimer?: (fn: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
  /** Backoff before reconnect attempt n (0-based). */
  readonly backoffMs?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number): number => Math.min(10_000, 250 * 2 ** attempt);

interface PendingCall {
  readonly message: ClientMessage & { t: 'req' };
  sent: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
}

/** Over the `arbor serve` WebSocket: numbered requests, pushed events, reconnect with backoff. */
export function createSocketClient(options: SocketClientOptions): ArborClient {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const backoff = options.backoffMs ?? defaultBackoff;
  const listeners = new ListenerSet();
  const connectionListeners = new Set<(s: ConnectionState) => void>();
  const pending = new Map<number, PendingCall>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'connecting';
  let attempt = 0;
  let timer: unknown = null;
  let closed = false;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const fn of [...connectionListeners]) fn(next);
  };

  const send = (message: ClientMessage): boolean => {
    if (!socket || socket.readyState !== 1 /* OPEN */) return false;
    socket.send(JSON.stringify(message));
    return true;
  };

  const onMessage = (raw: unknown) => {
    const receivedAt = timingNow();
    let message: ServerMessage;
    try {
      message = JSON.parse(String(raw)) as ServerMessage;
    } catch {
      return; // Not ours to interpret; the server only sends JSON.
    }
    if (message.t === 'evt') {
      listeners.emit(message.event, message.payload);
      return;
    }
    if (message.t !== 'res') return;
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    call.cleanup();
    if (!message.ok) {
      call.reject(errorFromData((message as { error: ArborErrorData }).error));
      return;
    }
    try {
      const isGraph = call.message.method === 'sessions.graph';
      if (isGraph) markGraphStage('received', receivedAt);
      const result = fromTransport(call.message.method, message.result);
      if (isGraph) markGraphStage('decoded');
      call.resolve(result);
    } catch (error) {
      call.reject(error);
    }
  };

  const connect = () => {
    if (closed) return;
    timer = null;
    setState('connecting');
    const ws = createSocket(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setState('connected');
      for (const call of pending.values()) if (!call.sent) call.sent = send(call.message);
    };
    ws.onmessage = (event: MessageEvent) => onMessage(event.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      // Calls in flight may or may not have run; replaying them could repeat an import, so they fail.
      for (const [id, call] of pending) {
        if (!call.sent) continue;
        pending.delete(id);
        call.cleanup();
        call.reject(new ArborError('IO', 'The connection to Arbor was lost'));
      }
      if (closed) return;
      setState('disconnected');
      timer = setTimer(connect, backoff(attempt++));
    };
    ws.onerror = () => undefined; // onclose follows and does the work.
  };

  connect();

  return {
    host: 'web',
    call(method, request, callOptions) {
      const signal = callOptions?.signal;
      if (closed) return Promise.reject(new ArborError('IO', 'The Arbor client is closed'));
      if (signal?.aborted) return Promise.reject(new CancelledError());
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const call = pending.get(id);
          if (!call) return;
          pending.delete(id);
          if (call.sent) send({ t: 'cancel', id });
          reject(new CancelledError());
        };
        const call: PendingCall = {
          message: { t: 'req', id, method, params: request },
          sent: false,
          resolve: resolve as (value: unknown) => void,
          reject,
          cleanup: () => signal?.removeEventListener('abort', onAbort),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, call);
        call.sent = send(call.message);
        if (method === 'sessions.graph') markGraphStage('sent');
      });
    },
    on: (event, fn) => listeners.add(event, fn),
    connection: () => state,
    onConnection(fn) {
      connectionListeners.add(fn);
      return () => connectionListeners.delete(fn);
    },
    close() {
      closed = true;
      if (timer !== null) clearTimer(timer);
      socket?.close();
      socket = null;
      for (const call of pending.values()) {
        call.cleanup();
        call.reject(new ArborError('IO', 'The Arbor client is closed'));
      }
      pending.clear();
      setState('disconnected');
    },
  };
}

/** The WebSocket URL for a page served by `arbor serve` (token carried over from the page URL). */
export function socketUrlFor(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/** Picks the transport: the Electron preload when present, else the WebSocket of `arbor serve`. */
export function createArborClient(): ArborClient {
  const bridge = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL] as ArborBridge | undefined;
  if (bridge && typeof bridge === 'object' && 'invoke' in bridge) return withGraphPages(createBridgeClient(bridge));
  return withGraphPages(createSocketClient({ url: socketUrlFor(window.location) }));
}
