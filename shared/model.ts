/**
 * The product's nouns as data (DESIGN.md "Vocabulary"). Pure types: shared by main, renderer and CLI.
 * Everything here crosses the boundary as JSON, so it holds plain data only.
 */

import type { WorkspaceNodeInfo } from './operations';

export type SessionId = string;
/** A node's id. For Claude Code it is the transcript line's `uuid`, which is globally unique. */
export type NodeId = string;

export type SourceFormat = 'claude-code' | 'codex';

/**
 * What one step is. `user` is a typed prompt only; tool results, meta and hook lines get their own kinds
 * so the graph can tell real branch points from recording artifacts (FORMATS.md §1.5).
 */
export const NODE_KINDS = [
  'user', // a prompt the person typed (string/text content, not isMeta, not a tool result)
  'assistant', // assistant text
  'thinking', // assistant thinking / redacted thinking only
  'tool_call', // an assistant line carrying one or more tool_use blocks
  'tool_result', // a user line carrying tool_result blocks, all ok
  'error', // a failed tool result (is_error), an API error, an assistant error line
  'compaction', // compact_boundary / microcompact_boundary / isCompactSummary
  'merge-summary', // Arbor's block after "Continue from the merge": the other branch's history, not a prompt (shared/merge-summary.ts)
  'system', // other system lines, isMeta user lines, slash-command echoes
  'progress', // progress / attachment / hook lines: streaming side channel
  'unknown', // a line type this version does not know: kept opaque
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export type ToolOutcome = 'ok' | 'error' | 'missing';

export interface ToolCallRef {
  readonly id: string; // tool_use id
  readonly name: string;
  readonly outcome: ToolOutcome;
}

/** How a node hangs in the tree when it is not (only) a plain `parentUuid` child. */
export type ExtraEdgeKind =
  | 'logical' // compact_boundary → logicalParentUuid
  | 'subagent' // a subagent run's root → the Task/Agent call that spawned it
  | 'fork-of' // a forked session's root → the node it was forked from
  | 'continues' // a continuation's first step → the last step of the session it continues (Claude Code `continued-in`)
  | 'follows' // a session's first step → the last step of the one before a cleared context (a plan accepted)
  | 'merge'; // a merge node's second parent

export interface ExtraEdge {
  readonly kind: ExtraEdgeKind;
  readonly nodeId: NodeId; // the other end (the logical parent, spawning call, fork point, second parent)
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheCreationTokens: number;
}

export interface SessionSummary {
  readonly id: SessionId;
  readonly source: SourceFormat;
  /** The transcript's summary, else the first prompt, else the session id. */
  readonly title: string;
  /** The working directory (cwd) the agent ran in, when known. */
  readonly project: string | null;
  readonly startedAt: string | null; // ISO-8601
  readonly updatedAt: string | null; // ISO-8601 of the newest node
  readonly nodeCount: number;
  readonly fileCount: number;
  /** Real branch points (rewinds, edited prompts), not recording artifacts. */
  readonly branchCount: number;
  // What the sessions list groups and sorts by. Optional: summaries made outside the store (a folder that only
  // has Arbor's snapshots, test doubles) leave them out, and the list falls back to project, nodeCount, updatedAt.
  /** The project the list groups it under: its working directory, else the folder holding its transcript. */
  readonly projectKey?: string;
  /** Bytes of its transcript files as last imported. */
  readonly bytes?: number;
  /** Newest activity: the newest node's time, else the newest transcript file's modification time. */
  readonly lastActivityAt?: string | null;
  /**
   * A subagent transcript (or a file of sidechain lines only) whose parent session's transcript is not in the
   * store: listed on its own, marked, rather than passed off as a session the user ran.
   */
  readonly orphanSubagent?: boolean;
  /**
   * None of its transcript files is on disk any more (its agent's cleanup, or the user, removed them): the store
   * still holds every line, so browsing, search, export, fork and rewind work as before. Absent when they exist.
   */
  readonly sourceDeleted?: boolean;
  /** Sessions this one goes on from, or that go on from it (forks, background continuations, a cleared context). */
  readonly links?: readonly SessionLink[];
}

/**
 * One line of work across session ids (Claude Code 2026): `fork` (`/branch`, `--fork-session`), `continues`
 * (`continued-in`: moved to the background, went on under a new id), `follows` (its file opened with the
 * previous session's lines: a plan accepted, the context cleared).
 */
export interface SessionLink {
  readonly kind: 'fork' | 'continues' | 'follows';
  /** 'earlier': this session goes on from `sessionId`; 'later': `sessionId` goes on from this one. */
  readonly direction: 'earlier' | 'later';
  readonly sessionId: SessionId;
  /** The other session's title; null when its transcript is not imported (a missing link). */
  readonly title: string | null;
  /** A fork's fork point, in the earlier session. */
  readonly nodeId: NodeId | null;
}

/** A node as the graph and `arbor show` need it: light, no full content. */
export interface NodeSummary {
  readonly id: NodeId;
  readonly sessionId: SessionId;
  /** The transcript's own id (Claude Code `uuid`). */
  readonly sourceId: string;
  /** The transcript's `parentUuid` exactly as written (null at a root). */
  readonly parentSourceId: string | null;
  /** The parent node in Arbor's DAG: null at roots, for dangling parents and for broken cycles. */
  readonly parentId: NodeId | null;
  readonly extraEdges: readonly ExtraEdge[];
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  /** One line for the graph (≤ 120 chars). */
  readonly label: string;
  readonly toolCalls: readonly ToolCallRef[];
  /** Set on nodes of a subagent run (sidechain), with the agent's id when known. */
  readonly sidechain: boolean;
  readonly agentId: string | null;
  readonly model: string | null;
}

export interface SessionGraph {
  readonly session: SessionSummary;
  /** In transcript order (file order, then line order); nodes Arbor added (snapshots, forks, merges) last. */
  readonly nodes: readonly NodeSummary[];
  /** Which of `nodes` Arbor added, and what they are (absent when none). */
  readonly workspaceNodes?: readonly WorkspaceNodeInfo[];
}

/** A normalized piece of a node's content, as the inspector shows it. */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly text: string; readonly redacted: boolean }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown; readonly shape?: ToolCallShape }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly text: string;
      readonly isError: boolean;
      /** A shell command's exit code, when its output says it. */
      readonly exitCode?: number | null;
      /** True when the command had not ended when this output was recorded (it went on running). */
      readonly running?: boolean;
    }
  | { readonly type: 'image'; readonly mediaType: string; readonly bytes: number }
  | { readonly type: 'other'; readonly blockType: string; readonly json: unknown };

/**
 * What a tool call is, whatever the format's tool is called: a shell command, a patch of files, a plan, or a
 * tool named with its main argument. Importers set it where they know the call; the UI draws it instead of
 * the raw input.
 */
export type ToolCallShape =
  | { readonly kind: 'shell'; readonly command: string }
  | { readonly kind: 'patch'; readonly files: readonly PatchFileChange[] }
  | { readonly kind: 'plan'; readonly explanation: string | null; readonly steps: readonly PlanStep[] }
  | { readonly kind: 'brief'; readonly tool: string; readonly argument: string };

export interface PatchFileChange {
  readonly action: 'add' | 'update' | 'delete' | 'move';
  readonly path: string;
  /** Where a moved file went. */
  readonly movePath: string | null;
  /** The patch's own lines: `hunk` is a `@@` header (its text after the marks). */
  readonly lines: readonly { readonly kind: 'same' | 'added' | 'removed' | 'hunk'; readonly text: string }[];
}

export interface PlanStep {
  readonly step: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

export interface ToolCallDetail extends ToolCallRef {
  readonly input: unknown;
  readonly shape?: ToolCallShape;
  /** A shell command's exit code, when its result says it. */
  readonly exitCode?: number | null;
  /** True when the command was still running when its result was recorded (no exit code yet). */
  readonly running?: boolean;
  /** The node carrying the result, when recorded. */
  readonly resultNodeId: NodeId | null;
  readonly resultText: string | null;
  /** Milliseconds between the call and its result, when both have timestamps. */
  readonly durationMs: number | null;
}

/** A transcript line without a uuid (summary, file-history-snapshot, queue-operation, …) kept beside a node. */
export interface AttachedRecord {
  readonly type: string;
  readonly file: string;
  readonly line: number;
  readonly json: unknown;
}

export interface NodeDetail {
  readonly node: NodeSummary;
  readonly blocks: readonly ContentBlock[];
  readonly toolCalls: readonly ToolCallDetail[];
  readonly usage: TokenUsage | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly file: string;
  readonly line: number;
  /** The transcript line as written (cut at `rawTruncatedAt` bytes for huge lines). */
  readonly raw: string;
  readonly rawTruncatedAt: number | null;
  readonly records: readonly AttachedRecord[];
}

export interface SearchHit {
  readonly sessionId: SessionId;
  readonly sessionTitle: string;
  readonly nodeId: NodeId;
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  /** Text around the match; matched terms are wrapped in SNIPPET_OPEN / SNIPPET_CLOSE. */
  readonly snippet: string;
}

/**
 * What a search is narrowed to; every given filter must hold. `agent` is `main` (the main thread), `subagent`
 * (any subagent run) or one agent's id. Dates are ISO-8601; `from` is inclusive, `to` exclusive (to the second).
 */
export interface SearchFilters {
  readonly sessionIds?: readonly SessionId[];
  readonly projects?: readonly string[];
  readonly agent?: string;
  readonly kinds?: readonly NodeKind[];
  readonly from?: string;
  readonly to?: string;
}

/** How much of the store the full-text index covers: search answers from the indexed part meanwhile. */
export interface SearchIndexProgress {
  readonly indexed: number;
  readonly total: number;
}

/** Private-use characters that cannot occur in transcripts' visible text, so the UI can highlight safely. */
export const SNIPPET_OPEN = '\ue000';
export const SNIPPET_CLOSE = '\ue001';

export interface ImportProblem {
  readonly file: string;
  readonly line: number; // 1-based; 0 when the problem concerns the whole file
  readonly reason: string;
  /** The file (or path) was not imported at all: a run with such a problem does not report success. */
  readonly notImported?: true;
}

export interface ImportedSession {
  readonly id: SessionId;
  readonly source: SourceFormat;
  readonly files: number;
  readonly nodes: number;
}

/** What `arbor import --json` prints. */
export interface ImportReport {
  readonly sessions: readonly ImportedSession[];
  readonly problems: readonly ImportProblem[];
  /** What became of the lines read (electron/service/import-summary.ts); absent from older hosts. */
  readonly lines?: ImportLineSummary;
}

/**
 * The lines an import read, by what became of them. Only `unreadable` lines are not stored: everything else
 * is kept, and "kept" is never "skipped" (issue 13: the report called every reported line skipped).
 */
export interface ImportLineSummary {
  /** Lines stored as nodes Arbor understands. */
  readonly nodes: number;
  /** Lines without a uuid stored as records (titles, snapshots, queue operations, …) Arbor understands. */
  readonly records: number;
  /** Lines kept (as opaque nodes or records) whose type Arbor does not model yet: `arbor doctor` lists them. */
  readonly notModelled: number;
  /** Lines kept as they are but reported: a uuid repeated with other content (a variant), invalid UTF-8. */
  readonly keptWithProblem: number;
  /** Lines not stored: not JSON, not a transcript entry, or too large to read (only their ends are kept). */
  readonly unreadable: number;
  /** Final lines still being written: not read yet, read by the import that finds them complete. */
  readonly incomplete: number;
}

export interface ImportProgress {
  readonly jobId: string;
  readonly phase: 'discover' | 'import' | 'index' | 'done';
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly currentFile: string | null;
}

export interface SourceLocation {
  readonly format: SourceFormat;
  readonly path: string;
  readonly exists: boolean;
}

/**
 * How a node's workspace state is known (DESIGN.md "snapshot"): `exact` (a captured snapshot of the whole
 * folder), `reconstructed` (the files the session touched, rebuilt from the transcript) or `unknown` (some
 * step on the path may have changed files the transcript cannot replay, or a touched file's content is unknown).
 */
export type WorkspaceStateKnown = 'exact' | 'reconstructed' | 'unknown';

export type FileChangeStatus = 'added' | 'modified' | 'deleted';

/** A file the node itself changed (relative to its state parent). */
export interface NodeChangedFile {
  readonly path: string;
  readonly status: FileChangeStatus;
  readonly binary?: boolean;
}

/**
 * Why a file's content at a node is not known: a step on the path may have changed files unrecorded (`shell`,
 * `subagent`, `unrecorded-outcome`: a call with no result, `unreadable-result`, `other-tool`), no step on the
 * path tells the content (`no-pre-state`), an edit could not be replayed (`edit-does-not-apply`), or a later
 * edit read other contents than the replay (`changed-outside-transcript`).
 */
export type FileUnknownReason =
  | 'shell'
  | 'subagent'
  | 'unrecorded-outcome'
  | 'unreadable-result'
  | 'other-tool'
  | 'no-pre-state'
  | 'edit-does-not-apply'
  | 'changed-outside-transcript';

/**
 * A file present at the node. Paths are absolute (a snapshot's files are joined to its folder). Each file says
 * how its own content is known: `exact` (in a snapshot), `reconstructed` (a touched file whose content the
 * transcript tells), or `unknown`. A reconstructed state lists the touched files the replay says exist here,
 * and those whose content is not known at all.
 */
export type NodeFileEntry = KnownNodeFile | UnknownNodeFile;

interface NodeFileBase {
  readonly path: string;
  /** Set when the node itself changed the file. */
  readonly status?: FileChangeStatus;
}

export interface KnownNodeFile extends NodeFileBase {
  readonly known: 'exact' | 'reconstructed';
  /**
   * The git blob id of the content here: sha1 of `blob <size>\0` + the bytes, as `git hash-object` gives. A
   * symlink's is the blob of its target path, as git stores a link (mode 120000), not of the file it points to.
   */
  readonly oid: string;
  /** Bytes (a symlink's: its target path's). */
  readonly size: number;
}

/**
 * A Codex `ghost_snapshot` on the node's path whose commit could not be read, so it could not tell the files'
 * contents there: the folder is no repository (or the turn named none), the repository lacks the commit, or
 * reading it failed (`detail` says how).
 */
export interface GhostSnapshotMiss {
  readonly commit: string;
  readonly why: 'no-repository' | 'no-commit' | 'unreadable';
  /** The turn's folder (null when the turn named none). */
  readonly folder: string | null;
  readonly detail?: string;
}

export interface UnknownNodeFile extends NodeFileBase {
  readonly known: 'unknown';
  /** The step from which this file's content is not known; null when no step on the path ever told it. */
  readonly unknownSince: NodeId | null;
  readonly reason: FileUnknownReason;
  /** The nearest ghost snapshot above the node that could have told the content, and why it could not be read. */
  readonly ghost?: GhostSnapshotMiss;
  /** Always true: the form older readers of `arbor files --json` look for. */
  readonly unknown: true;
}

/** What `arbor files NODE --json` prints. */
export interface NodeFiles {
  readonly node: NodeSummary;
  readonly known: WorkspaceStateKnown;
  readonly changed: readonly NodeChangedFile[];
  readonly files: readonly NodeFileEntry[];
  /** For a reconstructed or unknown state: the step from which files may have changed unrecorded. */
  readonly unknownSince: NodeId | null;
}

export interface NodeFileContent {
  readonly path: string;
  /** The text, or null when the file does not exist here, is binary, or its content is not known. */
  readonly content: string | null;
  readonly exists: boolean;
  readonly binary: boolean;
  /** How this file's content is known here ('unknown' too when the state does not cover the path). */
  readonly known: WorkspaceStateKnown;
  /** When the content is known and the file exists: its git blob id and size, as `nodes.files` lists them. */
  readonly oid?: string;
  readonly size?: number;
  /** When the content is not known: since which step and why (absent when the state does not cover the path). */
  readonly unknownSince?: NodeId | null;
  readonly reason?: FileUnknownReason;
  /** As UnknownNodeFile's: a ghost snapshot above that could not be read. */
  readonly ghost?: GhostSnapshotMiss;
  /**
   * Set when the state does not cover the path: a reconstructed state covers only the files the session
   * touched, a snapshot only its folder.
   */
  readonly notCovered?: true;
  /** Asked for with `bytes`: the exact bytes (binary files too), base64, when the content is known. */
  readonly base64?: string;
  /**
   * Asked for with `replayed`, for a file whose content is not known: what replaying the transcript gives
   * (text; null when the replay says the file does not exist). NOT known to be right; absent when there is none.
   */
  readonly replayed?: string | null;
}

export interface FileDiffEntry {
  readonly path: string;
  readonly status: FileChangeStatus;
  readonly before: string | null;
  readonly after: string | null;
  readonly binary?: boolean;
  /** Set when either side's content is not known, so whether it changed cannot be told. */
  readonly unknown?: true;
}

/** What `arbor diff A B --json` prints: the files that differ from A to B. */
export interface NodeDiff {
  readonly nodeIdA: NodeId;
  readonly nodeIdB: NodeId;
  readonly files: readonly FileDiffEntry[];
}

export interface SnapshotInfo {
  readonly id: string;
  readonly dir: string;
  readonly tree: string;
  readonly commit: string | null;
  readonly files: number;
  readonly createdAt: string;
  /** New objects this capture wrote (an unchanged folder writes only its commit). */
  readonly objectsWritten: number;
  readonly filesRead: number;
  readonly skipped: readonly { readonly path: string; readonly bytes: number; readonly reason: 'too-large' | 'unreadable' | 'git-name' }[];
}

/** What `arbor snapshot DIR --json` prints. */
export interface SnapshotCaptured {
  readonly node: NodeSummary;
  readonly snapshot: SnapshotInfo;
  readonly files: number;
}
