/**
 * A small in-memory ArborService for host tests (web host, IPC): records calls, emits events on demand,
 * and has one slow method ('import.run') that waits for its AbortSignal, to test cancellation.
 */
import { EVENT_NAMES, type ArborApi, type ArborEvents, type CallContext, type EventName, type MethodName } from '../../shared/contract';
import { ArborError, CancelledError } from '../../shared/errors';
import type { SessionGraph, SessionSummary } from '../../shared/model';
import type { SessionGraphPage } from '../../shared/session-graph-chunks';
import type { ArborService } from '../../electron/service/service-types';

export interface FakeService extends ArborService {
  readonly calls: { method: string; request: unknown }[];
  emit<E extends EventName>(event: E, payload: ArborEvents[E]): void;
  /** Resolves when 'import.run' has started waiting. */
  importStarted: Promise<void>;
  /** Set once 'import.run' saw its signal abort. */
  importAborted: boolean;
  closed: boolean;
  listenerCount(): number;
}

export const FAKE_SESSION: SessionSummary = {
  id: 'aaaa1111-0000-4000-8000-000000000001',
  source: 'claude-code',
  title: 'Fix the login bug',
  project: '/work/app',
  startedAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T04:00:00.000Z',
  nodeCount: 2,
  fileCount: 1,
  branchCount: 0,
};

export function createFakeService(): FakeService {
  const listeners = new Map<EventName, Set<(payload: never) => void>>(EVENT_NAMES.map((e) => [e, new Set()]));
  const calls: { method: string; request: unknown }[] = [];
  let markStarted: () => void = () => undefined;
  const service: FakeService = {
    calls,
    importAborted: false,
    closed: false,
    importStarted: new Promise<void>((resolve) => (markStarted = resolve)),
    api: {} as ArborApi,
    events: {
      on(event, listener) {
        const set = listeners.get(event) as Set<(payload: never) => void>;
        set.add(listener as (payload: never) => void);
        return () => set.delete(listener as (payload: never) => void);
      },
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) (listener as (p: typeof payload) => void)(payload);
    },
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
    idle: () => Promise.resolve(),
    tail: () => ({ ready: Promise.resolve(), stop: () => Promise.resolve() }),
    listenForHooks: () => Promise.resolve({ path: null, stop: () => Promise.resolve() }),
    close: async () => {
      service.closed = true;
    },
  };
  const record = (method: string, request: unknown): void => void calls.push({ method, request });
  const graph: SessionGraph = { session: FAKE_SESSION, nodes: [] };
  const api: ArborApi = {
    'app.info': async (request) => (record('app.info', request), { version: '0.0.0', dataDir: '/fake', platform: 'linux', host: 'web' }),
    'sessions.list': async (request) => (record('sessions.list', request), { sessions: [FAKE_SESSION], total: 1 }),
    'archive.notice': async (request) => (record('archive.notice', request), { notice: null }),
    'archive.dismissNotice': async (request) => (record('archive.dismissNotice', request), { notice: null }),
    'sessions.projectLineage': async (request) => (record('sessions.projectLineage', request), { project: request.project, sessions: [FAKE_SESSION], edges: [] }),
    'sessions.graph': async (request) => {
      record('sessions.graph', request);
      if (request.sessionId !== FAKE_SESSION.id) throw new ArborError('NOT_FOUND', `no session ${request.sessionId}`);
      return graph;
    },
    // The whole graph on page 0, as a host answers for a session with Arbor's nodes.
    'sessions.graphPage': async (request) => {
      record('sessions.graphPage', request);
      if (request.sessionId !== FAKE_SESSION.id) throw new ArborError('NOT_FOUND', `no session ${request.sessionId}`);
      return { version: 'whole', page: 0, pages: 1, chunk: '', graph };
    },
    'nodes.get': async (request) => {
      record('nodes.get', request);
      throw new ArborError('NOT_FOUND', 'no such node');
    },
    'nodes.details': async (request) => (record('nodes.details', request), { details: [], missing: [...request.nodeIds] }),
    'nodes.folder': async (request) => (record('nodes.folder', request), { folder: null }),
    'nodes.files': async (request) => {
      record('nodes.files', request);
      throw new ArborError('NOT_FOUND', 'no such node');
    },
    'nodes.file': async (request) => {
      record('nodes.file', request);
      throw new ArborError('NOT_FOUND', 'no such node');
    },
    'nodes.diff': async (request) => {
      record('nodes.diff', request);
      throw new ArborError('NOT_FOUND', 'no such node');
    },
    'snapshots.capture': async (request) => {
      record('snapshots.capture', request);
      throw new ArborError('UNSUPPORTED', 'no snapshots in this fake');
    },
    'sessions.states': async (request) => (record('sessions.states', request), { known: {} }),
    'sessions.formatReport': async (request) => (
      record('sessions.formatReport', request),
      { files: 1, lines: 0, bytes: 0, unmodelled: [], unreadable: { count: 0, examples: [] }, tooLarge: 0 }
    ),
    ...unsupported(record, [
      'rewind.preview',
      'rewind.apply',
      'operations.undo',
      'fork.create',
      'forks.remove',
      'merge.preview',
      'merge.file',
      'merge.apply',
      'merge.continue',
      'stats.get',
      'stats.session',
      'stats.branches',
      'prices.list',
      'prices.set',
      'prices.remove',
      'prices.reset',
      'prices.setPlan',
      'export.preview',
      'export.write',
      'effects.ledger',
      'sessions.delete',
      'store.gc',
      'store.gcSchedule',
      'archive.export',
    ]),
    'operations.list': async (request) => (record('operations.list', request), { operations: [] }),
    'forks.list': async (request) => (record('forks.list', request), { forks: [] }),
    'search.query': async (request) => (record('search.query', request), { hits: [], indexing: false, total: 0, totalCapped: false }),
    'import.locations': async (request) => (record('import.locations', request), { locations: [] }),
    'import.run': (request, context?: CallContext) => {
      record('import.run', request);
      return new Promise((_resolve, reject) => {
        markStarted();
        const signal = context?.signal;
        if (signal === undefined) return reject(new Error('import.run needs a signal in this fake'));
        signal.addEventListener('abort', () => {
          service.importAborted = true;
          reject(new CancelledError());
        });
      });
    },
    'demo.create': async (request) => {
      record('demo.create', request);
      throw new Error('boom: a bug');
    },
  };
  (service as { api: ArborApi }).api = api;
  return service;
}

/** Methods this fake does not model: each records its call and refuses with UNSUPPORTED. */
function unsupported<M extends MethodName>(record: (method: string, request: unknown) => void, names: readonly M[]): Pick<ArborApi, M> {
  const methods = {} as Record<M, (request: unknown) => Promise<never>>;
  for (const name of names) {
    methods[name] = async (request) => {
      record(name, request);
      throw new ArborError('UNSUPPORTED', `${name} is not modelled by this fake`);
    };
  }
  return methods as unknown as Pick<ArborApi, M>;
}

/**
 * Gives the fake a paged `sessions.graphPage` that answers with `answer(page)` and records each page it reads, in
 * the order read (the pages a host reads are what its slots limit). Returns that record.
 */
export function answerGraphPages(service: FakeService, answer: (page: number) => SessionGraphPage | Promise<SessionGraphPage>): number[] {
  const read: number[] = [];
  Object.assign(service.api, {
    'sessions.graphPage': async ({ page }: { readonly page: number }): Promise<SessionGraphPage> => (read.push(page), answer(page)),
  });
  return read;
}
