/**
 * The one contract between the renderer and the main side: method → request → result, and events.
 * Both transports (Electron IPC, `arbor serve` WebSocket) carry exactly this; main validates every request.
 * To add a method: add it to ArborMethods and to requestValidators (the compiler insists), then implement
 * it in the service (electron/service/). See CONTRIBUTING.md "Add an IPC method".
 */
import type {
  ImportProgress,
  ImportReport,
  NodeDetail,
  NodeDiff,
  NodeFileContent,
  NodeFiles,
  NodeId,
  SearchHit,
  SessionGraph,
  SessionId,
  SessionSummary,
  SnapshotCaptured,
  SourceLocation,
} from './model';
import { v, type Validator } from './validate';

export interface AppInfo {
  readonly version: string;
  readonly dataDir: string;
  readonly platform: string;
  /** Which host serves the renderer; some capabilities exist only in the desktop app. */
  readonly host: 'electron' | 'web';
}

export interface ArborMethods {
  'app.info': { request: Record<string, never>; result: AppInfo };
  'sessions.list': {
    request: { query?: string; limit?: number; offset?: number };
    result: { sessions: SessionSummary[]; total: number };
  };
  'sessions.graph': { request: { sessionId: SessionId }; result: SessionGraph };
  'nodes.get': { request: { nodeId: NodeId }; result: NodeDetail };
  /** The workspace state at a node: how it is known, what the node changed, the files present. */
  'nodes.files': { request: { nodeId: NodeId }; result: NodeFiles };
  /** One file's content at a node (path as `nodes.files` lists it). */
  'nodes.file': { request: { nodeId: NodeId; path: string }; result: NodeFileContent };
  /** The files that differ between two nodes' states. */
  'nodes.diff': { request: { nodeIdA: NodeId; nodeIdB: NodeId }; result: NodeDiff };
  /** Captures a folder exactly into the snapshot store and records it as a node of its workspace's session. */
  'snapshots.capture': { request: { dir: string }; result: SnapshotCaptured };
  'search.query': {
    request: { query: string; limit?: number };
    result: { hits: SearchHit[]; indexing: boolean };
  };
  'import.locations': { request: Record<string, never>; result: { locations: SourceLocation[] } };
  /** Imports the given files/folders, or the default locations when `paths` is absent. Reports progress. */
  'import.run': { request: { paths?: string[] }; result: ImportReport };
  /** Writes the demo workspace and transcript (into `dir`, or a folder in the data dir) and imports it. */
  'demo.create': { request: { dir?: string }; result: { sessionId: SessionId; dir: string } };
}

export type MethodName = keyof ArborMethods;
export type RequestOf<M extends MethodName> = ArborMethods[M]['request'];
export type ResultOf<M extends MethodName> = ArborMethods[M]['result'];

export interface ArborEvents {
  'import.progress': ImportProgress;
  /** Sessions were added or changed (import, live tail, demo). */
  'sessions.changed': { sessionIds: SessionId[] };
  /** Background full-text indexing. */
  'index.progress': { done: number; total: number };
}
export type EventName = keyof ArborEvents;

const path = v.string({ min: 1, max: 4096 });
const empty = v.object({});

export const requestValidators: { [M in MethodName]: Validator<RequestOf<M>> } = {
  'app.info': empty,
  'sessions.list': v.object({
    query: v.optional(v.string({ max: 1000 })),
    limit: v.optional(v.int({ min: 1, max: 100_000 })),
    offset: v.optional(v.int({ min: 0 })),
  }),
  'sessions.graph': v.object({ sessionId: v.string({ min: 1, max: 200 }) }),
  'nodes.get': v.object({ nodeId: v.string({ min: 1, max: 200 }) }),
  'nodes.files': v.object({ nodeId: v.string({ min: 1, max: 200 }) }),
  'nodes.file': v.object({ nodeId: v.string({ min: 1, max: 200 }), path }),
  'nodes.diff': v.object({ nodeIdA: v.string({ min: 1, max: 200 }), nodeIdB: v.string({ min: 1, max: 200 }) }),
  'snapshots.capture': v.object({ dir: path }),
  'search.query': v.object({ query: v.string({ min: 1, max: 1000 }), limit: v.optional(v.int({ min: 1, max: 1000 })) }),
  'import.locations': empty,
  'import.run': v.object({ paths: v.optional(v.array(path, { max: 1000 })) }),
  'demo.create': v.object({ dir: v.optional(path) }),
};

export const METHOD_NAMES = Object.keys(requestValidators) as MethodName[];
export const EVENT_NAMES: readonly EventName[] = ['import.progress', 'sessions.changed', 'index.progress'];

export function isMethodName(value: unknown): value is MethodName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(requestValidators, value);
}

/** What a long call receives besides its request. */
export interface CallContext {
  readonly signal?: AbortSignal;
}

/** The service: one function per method. Implemented in electron/service, bound by IPC, the web host and the CLI. */
export type ArborApi = {
  [M in MethodName]: (request: RequestOf<M>, context?: CallContext) => Promise<ResultOf<M>>;
};

/** Subscribing returns its disposer (STYLE.md principle 4). */
export interface EventSource {
  on<E extends EventName>(event: E, listener: (payload: ArborEvents[E]) => void): () => void;
}

/** Channel name of a method over Electron IPC. */
export const ipcChannel = (method: MethodName): string => `arbor:${method}`;
export const IPC_EVENT_CHANNEL = 'arbor:event';
export const IPC_CANCEL_CHANNEL = 'arbor:cancel';
