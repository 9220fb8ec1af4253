/** An in-memory ArborClient for renderer tests: each method answered by a handler, events emitted by hand. */
import type { ArborEvents, EventName, MethodName, RequestOf, ResultOf } from '../../../shared/contract';
import { ArborError, CancelledError } from '../../../shared/errors';
import type { NodeDetail, NodeSummary, SessionGraph, SessionSummary } from '../../../shared/model';
import type { ArborClient, CallOptions, ConnectionState } from '../../../renderer/src/client/arbor-client';

export type Handlers = { [M in MethodName]?: (request: RequestOf<M>, signal?: AbortSignal, options?: CallOptions) => Promise<ResultOf<M>> | ResultOf<M> };

export interface FakeClient extends ArborClient {
  readonly calls: Array<{ method: MethodName; request: unknown }>;
  emit<E extends EventName>(event: E, payload: ArborEvents[E]): void;
  setConnection(state: ConnectionState): void;
  handlers: Handlers;
}

export function createFakeClient(handlers: Handlers = {}): FakeClient {
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const connectionListeners = new Set<(s: ConnectionState) => void>();
  let connection: ConnectionState = 'connected';
  const client: FakeClient = {
    host: 'web',
    calls: [],
    handlers,
    async call(method, request, options) {
      client.calls.push({ method, request });
      // Like the real clients: a call made with an aborted signal fails at once.
      if (options?.signal?.aborted) throw new CancelledError();
      const handler = client.handlers[method] as ((r: unknown, s?: AbortSignal, o?: CallOptions) => unknown) | undefined;
      if (!handler) throw new ArborError('NOT_FOUND', `no fake handler for ${method}`);
      return (await handler(request, options?.signal, options)) as never;
    },
    on(event, fn) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn as (p: unknown) => void);
      return () => set.delete(fn as (p: unknown) => void);
    },
    emit(event, payload) {
      for (const fn of listeners.get(event) ?? []) fn(payload);
    },
    connection: () => connection,
    onConnection(fn) {
      connectionListeners.add(fn);
      return () => connectionListeners.delete(fn);
    },
    setConnection(state) {
      connection = state;
      for (const fn of connectionListeners) fn(state);
    },
    close: () => undefined,
  };
  return client;
}

export function session(id: string, over: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    source: 'claude-code',
    title: `Session ${id}`,
    project: '/home/dev/projects/arbor',
    startedAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T11:00:00.000Z',
    nodeCount: 10,
    fileCount: 1,
    branchCount: 0,
    ...over,
  };
}

export function nodeSummary(id: string, over: Partial<NodeSummary> = {}): NodeSummary {
  return {
    id,
    sessionId: 's1',
    sourceId: id,
    parentSourceId: null,
    parentId: null,
    extraEdges: [],
    kind: 'assistant',
    timestamp: '2025-01-01T10:00:00.000Z',
    label: `node ${id}`,
    toolCalls: [],
    sidechain: false,
    agentId: null,
    model: null,
    ...over,
  };
}

export function nodeDetail(id: string, over: Partial<NodeDetail> = {}): NodeDetail {
  return {
    node: nodeSummary(id),
    blocks: [],
    toolCalls: [],
    usage: null,
    cwd: null,
    gitBranch: null,
    version: null,
    file: '/tmp/x.jsonl',
    line: 1,
    raw: '{}',
    rawTruncatedAt: null,
    records: [],
    ...over,
  };
}

/** A promise with its resolve/reject exposed, to hold a fake call open. */
export function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function graphFor(sessionId: string): SessionGraph {
  return { session: session(sessionId), nodes: [nodeSummary('n1', { sessionId })] };
}
