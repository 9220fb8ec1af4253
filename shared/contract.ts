/**
 * The one contract between the renderer and the main side: method → request → result, and events.
 * Both transports (Electron IPC, `arbor serve` WebSocket) carry exactly this; main validates every request.
 * To add a method: add it to ArborMethods and to requestValidators (the compiler insists), then implement
 * it in the service (electron/service/). See CONTRIBUTING.md "Add an IPC method".
 */
import type { ProjectLineage } from './project-lineage';
import type { CleanupNotice } from './archive';
import type { SideEffectLedger } from './side-effect-ledger';
import { GC_SCHEDULES, type GcReport, type GcSchedule, type GcScheduleState, type SessionDeleteOutcome } from './forget';
import type {
  ImportProgress,
  ImportReport,
  NodeDetail,
  NodeDiff,
  NodeFileContent,
  NodeFiles,
  NodeId,
  SearchFilters,
  SearchHit,
  SearchIndexProgress,
  SessionGraph,
  SessionId,
  SessionSummary,
  SnapshotCaptured,
  SourceLocation,
  WorkspaceStateKnown,
} from './model';
import type {
  ForkCreated,
  ForkSummary,
  MergeFileSides,
  MergeContinued,
  MergeOutcome,
  MergePreview,
  MergeResolution,
  OperationOutcome,
  OperationSummary,
  RewindPreview,
} from './operations';
import { ArborError } from './errors';
import type { SessionGraphPage } from './session-graph-chunks';
import type { FormatReport } from './format-report';
import type { ArchiveExported, ArchiveExportRequest } from './archive';
import { EXPORT_FORMATS, type ExportPreview, type ExportProgress, type ExportWriteRequest, type ExportWritten } from './export';
import { NODE_KINDS } from './model';
import { v, type Validator } from './validate';
import { isValidPrice, STATS_GROUPINGS, type AgentPlan, type BranchUsage, type ModelPrice, type SessionUsage, type StatsFilters, type StatsGrouping, type StatsReport } from './usage';

export interface AppInfo {
  readonly version: string;
  readonly dataDir: string;
  readonly platform: string;
  /** Which host serves the renderer; some capabilities exist only in the desktop app. */
  readonly host: 'electron' | 'web';
}

/** What a PostToolUse hook says about the tool call its snapshot follows. */
export interface HookCapture {
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly transcriptPath?: string;
}

/** Every method; the tokens and cost ones (issue 15) are declared in their own block, UsageMethods. */
export interface ArborMethods extends UsageMethods {
  'app.info': { request: Record<string, never>; result: AppInfo };
  'sessions.list': {
    request: { query?: string; limit?: number; offset?: number };
    result: { sessions: SessionSummary[]; total: number };
  };
  'sessions.graph': { request: { sessionId: SessionId }; result: SessionGraph };
  /**
   * `sessions.graph` in pages (shared/session-graph-chunks.ts): page 0 says how many there are and the version
   * they belong to; a page of another version means the session changed between two pages (ask again from 0).
   */
  'sessions.graphPage': { request: { sessionId: SessionId; page: number }; result: SessionGraphPage };
  'nodes.get': { request: { nodeId: NodeId }; result: NodeDetail };
  /**
   * The folder in force at the node: the session's own folder, unless a record above it moved the session
   * (a Codex `turn_context` naming another cwd, a relocation, a worktree). The session header shows it.
   */
  'nodes.folder': { request: { nodeId: NodeId }; result: { folder: string | null } };
  /**
   * Several nodes' details at once (at most NODE_DETAILS_MAX ids), in the order asked, duplicates once; ids
   * that name no node are listed in `missing` (the conversation view reads a branch a screenful at a time).
   */
  'nodes.details': { request: { nodeIds: NodeId[] }; result: { details: NodeDetail[]; missing: NodeId[] } };
  /** The workspace state at a node: how it is known, what the node changed, the files present. */
  'nodes.files': { request: { nodeId: NodeId }; result: NodeFiles };
  /**
   * One file's content at a node (path as `nodes.files` lists it, or relative to the node's folder: the
   * snapshot's, else the session's project; the result's path is absolute). `bytes`: also its exact bytes (base64);
   * `replayed`: for a file whose content is not known, also the transcript's unverified replay of it.
   */
  'nodes.file': { request: { nodeId: NodeId; path: string; bytes?: boolean; replayed?: boolean }; result: NodeFileContent };
  /** The files that differ between two nodes' states. */
  'nodes.diff': { request: { nodeIdA: NodeId; nodeIdB: NodeId }; result: NodeDiff };
  /**
   * Captures a folder exactly into the snapshot store and records it as a node of its workspace's session.
   * With `hook`, the capture follows a tool call (Claude Code PostToolUse, FORMATS.md §1.9) and is linked to it.
   */
  'snapshots.capture': { request: { dir: string; hook?: HookCapture }; result: SnapshotCaptured };
  /** How each node's workspace state is known (exact / reconstructed / unknown), for the graph's markers. */
  'sessions.states': { request: { sessionId: SessionId }; result: { known: Record<NodeId, WorkspaceStateKnown> } };
  /** What of the session's stored lines Arbor does not model yet (`arbor doctor` for one session). */
  'sessions.formatReport': { request: { sessionId: SessionId }; result: FormatReport };
  /** Every session of one project (the list's project key) with the links between them: the project view's graph. */
  'sessions.projectLineage': { request: { project: string }; result: ProjectLineage };
  /** What rewinding `workspace` (default: the session's folder) to the node would write, create and delete. */
  'rewind.preview': { request: { nodeId: NodeId; workspace?: string }; result: RewindPreview };
  /** Applies a previewed rewind (journaled, undoable); stops if the workspace changed since `token`. */
  'rewind.apply': { request: { nodeId: NodeId; workspace?: string; token: string }; result: OperationOutcome };
  /** Restores the state before an operation, byte for byte (itself an undoable operation). */
  'operations.undo': { request: { operationId: string }; result: OperationOutcome };
  'operations.list': { request: { workspace?: string; limit?: number }; result: { operations: OperationSummary[] } };
  /** A new branch from the node: a new workspace folder with its state and a resumable transcript. */
  /** `temporaryMs`: a temporary fork, removed by gc that long after it was made (issue 15). */
  'fork.create': { request: { nodeId: NodeId; dir?: string; temporaryMs?: number }; result: ForkCreated };
  'forks.list': { request: Record<string, never>; result: { forks: ForkSummary[] } };
  /** Removes forks: their folder, resumable transcript and branch node. */
  'forks.remove': {
    request: { forkIds: string[] };
    result: { removed: string[]; problems: { fork: string; message: string }[] };
  };
  /** Deletes every trace of sessions (issue 15); `dryRun` lists what would go, `withForks` takes dependants and fork folders too. */
  'sessions.delete': { request: { sessionIds: string[]; withForks?: boolean; dryRun?: boolean }; result: SessionDeleteOutcome };
  /**
   * Prunes unreachable snapshot objects, removes expired temporary forks, finds (`orphans`: removes) orphan forks.
   * `forkIds` (the app's Clean up): only these expired or orphan forks are removed, the others stay listed.
   */
  'store.gc': { request: { dryRun?: boolean; orphans?: boolean; forkIds?: string[] }; result: GcReport };
  /** The background gc's schedule (default weekly); `schedule` changes it. */
  'store.gcSchedule': { request: { schedule?: GcSchedule }; result: GcScheduleState };
  /**
   * The archive's notice (issue 15): Claude Code's settings leave its transcript cleanup at the default, and the
   * user has not dismissed this yet; null otherwise (set explicitly, dismissed, no Claude Code here).
   */
  'archive.notice': { request: Record<string, never>; result: { notice: CleanupNotice | null } };
  /** Remembers (in the store) that the user read the notice: it is not shown again. */
  'archive.dismissNotice': { request: Record<string, never>; result: { notice: null } };
  /** Three-way merge of two nodes' states (or their live workspaces) over their lowest common ancestor. */
  'merge.preview': { request: { nodeIdA: NodeId; nodeIdB: NodeId; into?: string }; result: MergePreview };
  'merge.file': { request: { token: string; path: string }; result: MergeFileSides };
  /** Writes the merge result into the target (journaled, undoable) and records a merge node with two parents. */
  'merge.apply': {
    request: { token: string; resolutions: MergeResolution[]; conflictSide?: 'ours' | 'theirs' };
    result: MergeOutcome;
  };
  /**
   * "Continue from the merge": a resumable transcript for the merged folder (ours' path, then one merge-summary
   * block of theirs since the fork point), recorded as a branch below the merge node. `operation`: merge.apply's.
   */
  'merge.continue': { request: { operation: string }; result: MergeContinued };
  /**
   * The best of the newest matches first, `limit` of them from `offset` ("load more" asks again with offset =
   * hits so far). Words match anywhere in a node, text in double quotes as a phrase; `filters` narrow it.
   * `total` counts matches up to a cap; `totalCapped` says there are more than that. While the full-text
   * index is unfinished the answer covers the nodes indexed so far: `indexing`, and `index` says how many
   * (the service always sends it; absent reads as complete).
   */
  'search.query': {
    request: { query: string; limit?: number; offset?: number; filters?: SearchFilters };
    result: { hits: SearchHit[]; indexing: boolean; index?: SearchIndexProgress; total: number; totalCapped: boolean };
  };
  'import.locations': { request: Record<string, never>; result: { locations: SourceLocation[] } };
  /** Imports the given files/folders, or the default locations when `paths` is absent. Reports progress. */
  /** `includeDeleted`: deleted sessions' transcripts (their tombstones, issue 15) are imported again. */
  'import.run': { request: { paths?: string[]; includeDeleted?: boolean }; result: ImportReport };
  /** Writes the demo workspace and transcript (into `dir`, or a folder in the data dir) and imports it. */
  'demo.create': { request: { dir?: string }; result: { sessionId: SessionId; dir: string } };
  /**
   * What exporting a session, or the branch through a node, would hold: its size and every secret found in it
   * (masked), each with an id the write takes back (electron/export/). Progress is `export.progress`.
   */
  'export.preview': { request: { target: string }; result: ExportPreview };
  /** Writes the export, redacted except for the findings in `keep`; `EXISTS` unless `overwrite`. */
  'export.write': { request: ExportWriteRequest; result: ExportWritten };
  /**
   * Writes the whole store to a folder another machine installs (`arbor import-archive`): the SQLite file by
   * online backup, the snapshot repository, a manifest. `EXISTS` for a non-empty `dir` unless `force`.
   * Progress is `operation.progress` with operation `archive-export`.
   */
  'archive.export': { request: ArchiveExportRequest; result: ArchiveExported };
  /**
   * The side-effect ledger (issue 15): a session's steps (target: its id, every branch) or the branch through a
   * node (target: a node id) that reached outside the workspace, with outcomes and possible double effects;
   * `since` lists only the steps after that node of the walk (a merge's base).
   */
  'effects.ledger': { request: { target: string; since?: NodeId }; result: SideEffectLedger };
}

/** A session among the costliest of a Statistics answer. */
export interface TopSession {
  readonly sessionId: SessionId;
  readonly title: string;
  readonly project: string | null;
  readonly agent: string;
  readonly figure: StatsReport['total'];
}

/** `stats.get`: the figures grouped as asked, the costliest sessions, and what the filters can choose from. */
export interface StatsAnswer extends StatsReport {
  readonly topSessions: readonly TopSession[];
  readonly projects: readonly string[];
  readonly agents: readonly string[];
  readonly plans: readonly AgentPlan[];
}

/** A price as the user sets it; cache prices default to 0 (a model without caching). */
export interface PriceInput {
  readonly pattern: string;
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly effectiveDate?: string;
}

/** Tokens and cost methods (issue 15), merged into ArborMethods. */
export interface UsageMethods {
  /** Tokens and cost grouped `by` (default day), narrowed by `filters`; `top` costliest sessions (default 10). */
  'stats.get': { request: { by?: StatsGrouping; filters?: StatsFilters; top?: number }; result: StatsAnswer };
  /** One session's tokens and cost (its own replies: a fork's copied prefix counts in its source). */
  'stats.session': { request: { sessionId: SessionId }; result: SessionUsage };
  /** Each branch's tokens and cost, root → head (the graph's tooltip: which attempt was cheaper). */
  'stats.branches': { request: { headIds: NodeId[] }; result: { branches: BranchUsage[] } };
  'prices.list': { request: Record<string, never>; result: { prices: ModelPrice[]; plans: AgentPlan[]; defaultsDate: string } };
  'prices.set': { request: { price: PriceInput }; result: { prices: ModelPrice[] } };
  'prices.remove': { request: { pattern: string }; result: { removed: boolean; prices: ModelPrice[] } };
  /** The shipped price table again (the user's rows are dropped). */
  'prices.reset': { request: Record<string, never>; result: { prices: ModelPrice[] } };
  /** Whether an agent runs on a subscription plan (its tokens then cost nothing per token). */
  'prices.setPlan': { request: AgentPlan; result: { plans: AgentPlan[] } };
}

/** The most branch heads one `stats.branches` call takes. */
export const STATS_BRANCHES_MAX = 200;

export type MethodName = keyof ArborMethods;
export type RequestOf<M extends MethodName> = ArborMethods[M]['request'];
export type ResultOf<M extends MethodName> = ArborMethods[M]['result'];

export interface ArborEvents {
  'import.progress': ImportProgress;
  /** Sessions were added or changed (import, live tail, demo). */
  'sessions.changed': { sessionIds: SessionId[] };
  /** Background full-text indexing. */
  'index.progress': { done: number; total: number };
  /** A long workspace operation (rewind, undo, fork, merge) moved on. */
  'operation.progress': { operation: string; phase: string; done: number; total: number };
  /** An export's preview scan or write moved on. */
  'export.progress': ExportProgress;
}
export type EventName = keyof ArborEvents;

const path = v.string({ min: 1, max: 4096 });
const nodeId = v.string({ min: 1, max: 200 });
const token = v.string({ min: 1, max: 10_000 });
const empty = v.object({});
const isoText = v.string({ min: 4, max: 40 });
/** A date or date-time as ISO-8601 (`2025-06-01`, `2025-06-01T12:00:00Z`). */
const isoTime: Validator<string> = (value, at = '') => {
  const text = isoText(value, at);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(Date.parse(text))) {
    throw new ArborError('BAD_REQUEST', `${at}: expected an ISO-8601 date`, { path: at });
  }
  return text;
};
/** Dollars per million tokens: a finite number, 0 or more (shared/usage.ts PRICE_MAX_PER_MTOK). */
const dollars: Validator<number> = (value, at = '') => {
  if (typeof value !== 'number' || !isValidPrice(value)) throw new ArborError('BAD_REQUEST', `${at}: expected dollars per million tokens, 0 or more`, { path: at });
  return value;
};
const day: Validator<string> = (value, at = '') => {
  const text = isoText(value, at);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !Number.isFinite(Date.parse(text))) throw new ArborError('BAD_REQUEST', `${at}: expected YYYY-MM-DD`, { path: at });
  return text;
};
const agentName = v.string({ min: 1, max: 200 });

/** The most ids one `nodes.details` call takes. */
export const NODE_DETAILS_MAX = 200;

export const requestValidators: { [M in MethodName]: Validator<RequestOf<M>> } = {
  'app.info': empty,
  'sessions.list': v.object({
    query: v.optional(v.string({ max: 1000 })),
    limit: v.optional(v.int({ min: 1, max: 100_000 })),
    offset: v.optional(v.int({ min: 0 })),
  }),
  'sessions.graph': v.object({ sessionId: v.string({ min: 1, max: 200 }) }),
  'sessions.graphPage': v.object({ sessionId: v.string({ min: 1, max: 200 }), page: v.int({ min: 0, max: 1_000_000 }) }),
  'nodes.get': v.object({ nodeId: v.string({ min: 1, max: 200 }) }),
  'nodes.folder': v.object({ nodeId: v.string({ min: 1, max: 200 }) }),
  'nodes.details': v.object({ nodeIds: v.array(nodeId, { max: NODE_DETAILS_MAX }) }),
  'nodes.files': v.object({ nodeId: v.string({ min: 1, max: 200 }) }),
  'nodes.file': v.object({ nodeId: v.string({ min: 1, max: 200 }), path, bytes: v.optional(v.boolean()), replayed: v.optional(v.boolean()) }),
  'nodes.diff': v.object({ nodeIdA: v.string({ min: 1, max: 200 }), nodeIdB: v.string({ min: 1, max: 200 }) }),
  'snapshots.capture': v.object({
    dir: path,
    hook: v.optional(
      v.object({ sessionId: v.string({ min: 1, max: 200 }), toolUseId: v.string({ min: 1, max: 200 }), transcriptPath: v.optional(path) }),
    ),
  }),
  'sessions.states': v.object({ sessionId: v.string({ min: 1, max: 200 }) }),
  'sessions.formatReport': v.object({ sessionId: v.string({ min: 1, max: 200 }) }),
  'sessions.projectLineage': v.object({ project: v.string({ min: 1, max: 4096 }) }),
  'rewind.preview': v.object({ nodeId, workspace: v.optional(path) }),
  'rewind.apply': v.object({ nodeId, workspace: v.optional(path), token }),
  'operations.undo': v.object({ operationId: v.string({ min: 1, max: 200 }) }),
  'operations.list': v.object({ workspace: v.optional(path), limit: v.optional(v.int({ min: 1, max: 10_000 })) }),
  'fork.create': v.object({ nodeId, dir: v.optional(path), temporaryMs: v.optional(v.int({ min: 1, max: 10 * 365 * 86_400_000 })) }),
  'forks.list': empty,
  'forks.remove': v.object({ forkIds: v.array(v.string({ min: 1, max: 200 }), { max: 1000 }) }),
  'sessions.delete': v.object({
    sessionIds: v.array(v.string({ min: 1, max: 200 }), { max: 1000 }),
    withForks: v.optional(v.boolean()),
    dryRun: v.optional(v.boolean()),
  }),
  'store.gc': v.object({ dryRun: v.optional(v.boolean()), orphans: v.optional(v.boolean()), forkIds: v.optional(v.array(v.string({ min: 1, max: 200 }), { max: 1000 })) }),
  'store.gcSchedule': v.object({ schedule: v.optional(v.literal(...GC_SCHEDULES)) }),
  'archive.notice': empty,
  'archive.dismissNotice': empty,
  'merge.preview': v.object({ nodeIdA: nodeId, nodeIdB: nodeId, into: v.optional(path) }),
  'merge.file': v.object({ token, path }),
  'merge.apply': v.object({
    token,
    resolutions: v.array(
      v.object({
        path,
        content: v.optional(v.nullable(v.string({ max: 200_000_000 }))),
        take: v.optional(v.literal('ours', 'theirs', 'base')),
      }),
      { max: 100_000 },
    ),
    conflictSide: v.optional(v.literal('ours', 'theirs')),
  }),
  'merge.continue': v.object({ operation: v.string({ min: 1, max: 200 }) }),
  'search.query': v.object({
    // Empty text with filters lists the newest nodes that pass them.
    query: v.string({ max: 1000 }),
    limit: v.optional(v.int({ min: 1, max: 1000 })),
    offset: v.optional(v.int({ min: 0, max: 100_000 })),
    filters: v.optional(
      v.object({
        sessionIds: v.optional(v.array(v.string({ min: 1, max: 200 }), { max: 1000 })),
        projects: v.optional(v.array(path, { max: 100 })),
        agent: v.optional(v.string({ min: 1, max: 200 })),
        kinds: v.optional(v.array(v.literal(...NODE_KINDS), { max: NODE_KINDS.length })),
        from: v.optional(isoTime),
        to: v.optional(isoTime),
      }),
    ),
  }),
  'import.locations': empty,
  'import.run': v.object({ paths: v.optional(v.array(path, { max: 1000 })), includeDeleted: v.optional(v.boolean()) }),
  'demo.create': v.object({ dir: v.optional(path) }),
  'stats.get': v.object({
    by: v.optional(v.literal(...STATS_GROUPINGS)),
    filters: v.optional(
      v.object({
        project: v.optional(path),
        agent: v.optional(agentName),
        from: v.optional(day),
        to: v.optional(day),
        sessionId: v.optional(v.string({ min: 1, max: 200 })),
      }),
    ),
    top: v.optional(v.int({ min: 0, max: 1000 })),
  }),
  'stats.session': v.object({ sessionId: v.string({ min: 1, max: 200 }) }),
  'stats.branches': v.object({ headIds: v.array(nodeId, { max: STATS_BRANCHES_MAX }) }),
  'prices.list': empty,
  'prices.set': v.object({
    price: v.object({
      pattern: v.string({ min: 1, max: 200 }),
      input: dollars,
      output: dollars,
      cacheRead: v.optional(dollars),
      cacheWrite: v.optional(dollars),
      effectiveDate: v.optional(day),
    }),
  }),
  'prices.remove': v.object({ pattern: v.string({ min: 1, max: 200 }) }),
  'prices.reset': empty,
  'prices.setPlan': v.object({ agent: agentName, subscription: v.boolean() }),
  'export.preview': v.object({ target: nodeId }),
  'effects.ledger': v.object({ target: nodeId, since: v.optional(nodeId) }),
  'export.write': v.object({
    target: nodeId,
    format: v.literal(...EXPORT_FORMATS),
    out: path,
    overwrite: v.optional(v.boolean()),
    keep: v.optional(v.array(v.string({ min: 1, max: 100 }), { max: 1_000_000 })),
    noRedact: v.optional(v.boolean()),
  }),
  'archive.export': v.object({ dir: path, force: v.optional(v.boolean()) }),
};

export const METHOD_NAMES = Object.keys(requestValidators) as MethodName[];
export const EVENT_NAMES: readonly EventName[] = ['import.progress', 'sessions.changed', 'index.progress', 'operation.progress', 'export.progress'];

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
