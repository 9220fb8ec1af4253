/**
 * Time travel and merge as data (DESIGN.md "Rules that protect the user's files"): rewind previews and
 * outcomes, the operation journal's summaries, forks, and merges. Pure types shared by main, renderer and CLI.
 * Workspace paths in these types are workspace-relative with '/' separators unless a field says otherwise.
 */
import type { FileUnknownReason, NodeId, NodeKind, SessionId, WorkspaceStateKnown } from './model';

/** Operations that write into an existing workspace. Each is journaled and can be undone byte for byte. */
export type OperationKind = 'rewind' | 'merge' | 'undo';
/**
 * `applying`: journaled and under way (only seen after a crash, until recovery runs); `applied`: done;
 * `rolled-back`: a crash interrupted it and recovery put the old state back; `undone`: a later undo reversed it.
 */
export type OperationStatus = 'applying' | 'applied' | 'rolled-back' | 'undone';

/** What a step did that no rewind can take back. Classified conservatively: `unknown` when unsure. */
export type SideEffectKind = 'git-push' | 'git-remote' | 'network' | 'publish' | 'database' | 'mcp' | 'deploy' | 'unknown';

export interface SideEffect {
  readonly nodeId: NodeId;
  readonly toolUseId: string;
  readonly tool: string;
  readonly kind: SideEffectKind;
  /** The command or call, shortened for display (≤ 200 chars). */
  readonly summary: string;
}

/** Files an operation writes: contents replaced, files created, files deleted. */
export interface WorkspaceChanges {
  readonly written: readonly string[];
  readonly created: readonly string[];
  readonly deleted: readonly string[];
}

/** Why a path in the node's scope is left alone by a rewind (it is listed, never silently dropped). */
export type SkippedPathReason = 'unknown-content' | 'outside-workspace' | 'ignored' | 'unsafe-path' | 'too-large';

export interface SkippedPath {
  readonly path: string;
  readonly reason: SkippedPathReason;
}

/**
 * A file an operation writes, creates or deletes from the transcript's replay although its content at the node
 * is not verified: a step the transcript cannot replay (a shell command, a subagent, an unrecorded outcome)
 * may have changed it. A replay known to be stale (`changed-outside-transcript`) is never written: it is
 * skipped with `unknown-content` instead.
 */
export interface UnverifiedPath {
  readonly path: string;
  /** The step from which the content is in doubt (null: no step on the path told it). */
  readonly since: NodeId | null;
  readonly reason: FileUnknownReason;
}

/** `rewind.preview` / `arbor rewind --dry-run`: exactly what applying would do. */
export interface RewindPreview extends WorkspaceChanges {
  readonly nodeId: NodeId;
  /** The workspace root (absolute). */
  readonly workspace: string;
  readonly known: WorkspaceStateKnown;
  readonly skipped: readonly SkippedPath[];
  /** Of the written, created and deleted files, those whose target is the replay, not verified (sorted by path). */
  readonly unverified: readonly UnverifiedPath[];
  /** Steps after the node (on the way to the session's newest step) whose effects stay. */
  readonly sideEffects: readonly SideEffect[];
  /** Fingerprint of the workspace files the plan was computed from; apply stops when it no longer matches. */
  readonly token: string;
}

/** An operation that ran: what it wrote, and the side effects it could not take back. */
export interface AppliedOperation extends WorkspaceChanges {
  readonly status: 'applied';
  readonly operation: string;
  readonly kind: OperationKind;
  readonly workspace: string;
  readonly sideEffects: readonly SideEffect[];
}

/**
 * The workspace differs from what the preview saw: the operation stopped before any write, or, when a check
 * during the writes failed (a file edited, a folder swapped or moved), it stopped there and put back everything
 * it had written. Either way the workspace is as it was, the user's change included. `'.'` names the workspace folder.
 */
export interface WorkspaceChanged {
  readonly status: 'workspace-changed';
  readonly changed: readonly string[];
}

/** The result of applying (or undoing) an operation: done, or stopped with the workspace as it was. */
export type OperationOutcome = AppliedOperation | WorkspaceChanged;

export interface OperationSummary extends WorkspaceChanges {
  readonly operation: string;
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly workspace: string;
  /** The rewind's target node or the merge's node; null for undo. */
  readonly nodeId: NodeId | null;
  /** For an undo: the operation it reversed. */
  readonly undoes: string | null;
  readonly createdAt: string;
}

/** `fork.create` / `arbor fork --json` (which prints `{"branch","dir","resume"}`). */
export interface ForkCreated {
  readonly fork: string;
  /** The new branch's first node in the graph (a child of the fork point). */
  readonly branch: NodeId;
  /** The new workspace (absolute). */
  readonly dir: string;
  /** The command that continues the run there (`claude --resume <id>`), or null when none can be written. */
  readonly resume: string | null;
  readonly resumeSessionId: string | null;
  /** The resumable transcript Arbor wrote (absolute), when it wrote one. */
  readonly transcript: string | null;
  readonly files: number;
  /** Files of the node's state the fork could not set (unknown content, outside the workspace): the copy's version stays. */
  readonly skipped?: readonly SkippedPath[];
  /** What the user should know: no source workspace to copy, no resumable transcript and why, lines dropped from it. */
  readonly warnings?: readonly string[];
}

export interface ForkSummary {
  readonly fork: string;
  /** The node the fork started from, and its session. */
  readonly nodeId: NodeId;
  readonly sessionId: SessionId;
  readonly branch: NodeId;
  readonly dir: string;
  readonly resume: string | null;
  readonly resumeSessionId: string | null;
  readonly transcript: string | null;
  readonly createdAt: string;
  /** Bytes on disk of the directory and transcript; null when the directory is gone. */
  readonly bytes: number | null;
}

/** What Arbor added to a session's graph besides transcript steps. */
export type WorkspaceNodeKind = 'snapshot' | 'hook-snapshot' | 'fork' | 'merge';

export interface WorkspaceNodeInfo {
  readonly nodeId: NodeId;
  readonly kind: WorkspaceNodeKind;
  /** The folder the node's exact snapshot is of (absolute). */
  readonly dir: string;
}

// ---- merge ----

export type MergeFileStatus = 'clean' | 'conflicted' | 'added' | 'deleted';
export type MergeConflictKind = 'content' | 'add/add' | 'modify/delete' | 'binary' | 'mode' | 'symlink';
export type MergeSideName = 'ours' | 'theirs';

export interface MergeFileEntry {
  readonly path: string;
  readonly status: MergeFileStatus;
  /** Which side changed the file relative to the base. */
  readonly changedBy: MergeSideName | 'both';
  readonly conflict?: MergeConflictKind;
  /** Content conflicts: how many conflicting hunks the automatic merge left. */
  readonly conflicts: number;
  readonly binary?: true;
  /** Set when the file was renamed by one side and the rename was detected. */
  readonly renamedFrom?: string;
}

/** A step on one side since the fork point, shown beside the files so the user knows why they changed. */
export interface MergeSideMessage {
  readonly nodeId: NodeId;
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  /** Prompt or assistant text, or a tool call's summary (shortened). */
  readonly text: string;
  /** Workspace-relative paths the step's tool calls touched. */
  readonly files: readonly string[];
}

export interface MergeSide {
  readonly nodeId: NodeId;
  readonly label: string;
  /** The title of the session the node is in, so the merge view can say which session each side comes from. */
  readonly sessionTitle: string | null;
  /** The side's live workspace, when it has one (a fork's directory); its current files are merged. */
  readonly dir: string | null;
  readonly messages: readonly MergeSideMessage[];
}

export interface MergePreview {
  /** Identifies this preview's three trees and the target's state; `merge.file` and `merge.apply` take it. */
  readonly token: string;
  /** The lowest common ancestor node whose state is the base; null when the nodes share none (empty base). */
  readonly base: NodeId | null;
  /** The base node's label (its prompt or step); null when there is no common ancestor. */
  readonly baseLabel: string | null;
  readonly ours: MergeSide;
  readonly theirs: MergeSide;
  /** The target workspace (absolute): by default ours' workspace. */
  readonly into: string;
  /** The files that differ between any two of base, ours and theirs. */
  readonly files: readonly MergeFileEntry[];
  /** Files still conflicted after the automatic merge. */
  readonly conflicted: number;
}

/** One file's three versions (text; null when absent, binary or unknown) for the merge view. */
export interface MergeFileSides {
  readonly path: string;
  readonly base: string | null;
  readonly ours: string | null;
  readonly theirs: string | null;
  readonly binary: boolean;
  /** The automatic merge result (git conflict markers where conflicted); null for binary or deleted results. */
  readonly merged: string | null;
}

/** The user's decision for one file: explicit content (null deletes it) or one side's version. */
export interface MergeResolution {
  readonly path: string;
  readonly content?: string | null;
  readonly take?: MergeSideName | 'base';
}

/** How a merged file got its content: the automatic merge, one version taken whole, or the user's edit. */
export type MergeFileResolutionKind = 'automatic' | 'ours' | 'theirs' | 'base' | 'manual';

/** One file of an applied merge, as "Continue from the merge" tells the agent about it. */
export interface MergedFile {
  readonly path: string;
  readonly status: MergeFileStatus;
  readonly changedBy: MergeSideName | 'both';
  /** Set when the automatic merge left the file conflicted. */
  readonly conflict?: MergeConflictKind;
  readonly resolution: MergeFileResolutionKind;
}

/**
 * `merge.continue` / `arbor continue-merge`: a resumable transcript for the merged folder (ours' path and one
 * merge-summary block of theirs), recorded as a branch below the merge node.
 */
export interface MergeContinued {
  readonly operation: string;
  readonly mergeNode: NodeId;
  /** The new branch's node (a child of the merge node), as for a fork. */
  readonly branch: NodeId;
  readonly fork: string;
  /** The merged folder, where the command runs. */
  readonly dir: string;
  readonly resume: string;
  readonly resumeSessionId: string;
  readonly transcript: string;
  /** The summary block's node once imported (null when the import did not take it). */
  readonly summaryNode: NodeId | null;
  readonly warnings: readonly string[];
}

export type MergeOutcome =
  | (AppliedOperation & { readonly mergeNode: NodeId })
  | WorkspaceChanged
  /** Conflicts remain unresolved: nothing was written. */
  | { readonly status: 'conflicts'; readonly files: readonly string[] };
