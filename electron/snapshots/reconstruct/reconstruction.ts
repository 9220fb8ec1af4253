/** What a reconstruction answers (reconstruct-session.ts builds it): per-node file states, their problems and figures. */
import type { KnownByNode } from './known-by-node';
import type { GhostSnapshotMiss, NodeId } from '../../../shared/model';
import type { FileHistorySource } from './checkpoints';
import type { FileContent, FileEdit } from './file-edits';
import type { MayWriteReason, ReadRecords, ReadSessionEffects, ResultIdsOf } from '../../importers/transcript';

export type StateKnown = 'reconstructed' | 'unknown';

/** Why one touched file's content at a node is not known. */
export type FileUnknownReason =
  | MayWriteReason // a step on the path may have changed files unrecorded (a shell command, a subagent, …)
  | 'no-pre-state' // no step on the path tells this file's content
  | 'edit-does-not-apply' // an edit on the path could not be replayed
  | 'changed-outside-transcript'; // a later edit read different contents than the replay: something else changed it

export interface FileUnknownSince {
  /** The step from which this file's content is not known here; null when no step on the path ever told it. */
  readonly nodeId: NodeId | null;
  readonly reason: FileUnknownReason;
}

export interface NodeFileState {
  /** Touched files whose content the replay gives: text, or null when the file does not exist (right where not in fileUnknownSince). */
  readonly files: ReadonlyMap<string, string | null>;
  /** Touched files whose content here is not known (no known pre-state, or an edit that could not be replayed). */
  readonly unknownFiles: readonly string[];
  /** 'reconstructed' exactly when every touched file is known here (fileUnknownSince is empty; with no touched file, when no step may have written). */
  readonly known: StateKnown;
  /** The earliest step on this node's path that may have changed files unrecorded and still leaves a touched file in doubt. */
  readonly unknownSince: { readonly nodeId: NodeId; readonly reason: MayWriteReason } | null;
  /**
   * Every touched file whose content here is not known, with the step that made it unknown; a touched file
   * absent from this map is known (its content in `files` is right). A file may be here and in `files` too:
   * then `files` holds the replayed content, which something unrecorded may have changed.
   */
  readonly fileUnknownSince: ReadonlyMap<string, FileUnknownSince>;
}

export interface FileChange {
  readonly path: string;
  readonly before: FileContent;
  readonly after: FileContent;
}

export type ReconstructionProblemKind =
  | 'before-mismatch' // the edit's recorded pre-state is not the state derived for its path
  | 'edit-does-not-apply' // neither the hunks nor the replacements fit the pre-state
  | 'before-unknown' // the result tells neither state and the path's state is unknown
  | 'backup-mismatch'; // a file-history backup is not the state derived for its path at its node

export interface ReconstructionProblem {
  readonly kind: ReconstructionProblemKind;
  readonly nodeId: NodeId;
  /** The edit's tool call; '' for a backup-mismatch (no call is involved). */
  readonly toolUseId: string;
  readonly path: string;
  /** For a backup-mismatch: the backup that disagrees (null: it says the file did not exist). */
  readonly backupFileName?: string | null;
  /** True when a step that may have written files unrecorded lies on the path before the edit. */
  readonly afterUnrecordedStep: boolean;
}

export interface ReconstructionStats {
  readonly nodes: number;
  readonly edits: number;
  readonly files: number;
  readonly unknownNodes: number;
  readonly contents: number;
  /** File states read from Claude Code's file-history backups. */
  readonly backupObservations: number;
}

export interface Reconstruction {
  /** Every file some edit of the session touched, as written in the results. */
  readonly touchedFiles: readonly string[];
  readonly problems: readonly ReconstructionProblem[];
  readonly stats: ReconstructionStats;
  stateAt(nodeId: NodeId): NodeFileState;
  /** stateAt(nodeId).known without building the state: constant time, for every node of a graph at once. */
  knownAt(nodeId: NodeId): StateKnown;
  /** knownAt for every node of the session, in transcript order: a view over the reconstruction's marks, not a copy. */
  knownByNode(): KnownByNode<StateKnown>;
  /** The touched files whose state differs from the state parent's, with both states. */
  changedAt(nodeId: NodeId): FileChange[];
  /** The edits whose outcome is this node, as read from the transcript (hunks only where the replay reads them: no replacements, no after-state told). */
  editsAt(nodeId: NodeId): readonly FileEdit[];
  /** The nearest ghost snapshot at or above the node whose commit could not be read, or null. */
  ghostMissAt(nodeId: NodeId): GhostSnapshotMiss | null;
}

export interface ReconstructOptions {
  readonly signal?: AbortSignal;
  /** Claude Code's file history for this session, when the user's config folder has one. */
  readonly fileHistory?: FileHistorySource;
  /** The session's format's reader of file effects (its importer's); Claude Code's when absent. */
  readonly readEffects?: ReadSessionEffects;
  /** The records kept beside each node, for formats that tell effects there (the importer's reader reads them). */
  readonly readRecords?: ReadRecords;
  /** The ids of the calls each result line answers, as the import kept them: those lines need not all be read. */
  readonly resultIdsOf?: ResultIdsOf;
}
