/**
 * The operation engine's inputs and interface (rewind, merge and undo all go through it): a plan says, for
 * every workspace path it touches, what the preview saw there and what it will hold afterwards. The engine
 * checks every path, checks the workspace still holds what the preview saw, stores what it will replace
 * (the safety snapshot), journals each write in SQLite, and can undo or recover after a crash.
 */
import type { FileVersion } from '../git/workspace-files';
import type { NodeId } from '../../shared/model';
import type { OperationKind, OperationOutcome, OperationSummary, SideEffect } from '../../shared/operations';

export type { FileVersion } from '../git/workspace-files';

/** One path the operation sets. Target blobs must already be in the snapshot store. */
export interface PlannedFileChange {
  /** Workspace-relative, '/'-separated. */
  readonly path: string;
  /** What the workspace holds now, as the preview saw it (null: nothing there). */
  readonly expected: FileVersion | null;
  /** What it will hold (null: deleted). */
  readonly target: FileVersion | null;
}

export interface OperationPlan {
  readonly kind: OperationKind;
  /** The workspace root (absolute). */
  readonly workspace: string;
  /** Rewind: the target node; merge: the merge node; undo: null. */
  readonly nodeId: NodeId | null;
  readonly changes: readonly PlannedFileChange[];
  readonly sideEffects: readonly SideEffect[];
  /** For undo: the operation reversed. */
  readonly undoes?: string;
  /**
   * The folders a deletion may remove when it leaves them empty. A rewind or merge removes any (undefined),
   * as git does; an undo only those the reversed operation created, so an empty folder that was there
   * before the reversed operation is still there after the undo.
   */
  readonly removableFolders?: readonly string[];
  /**
   * For undo: the folders the reversed operation may have removed, with their permission bits (its journal's
   * `foldersBefore`); any that is missing after the writes is made again, empty folders included.
   */
  readonly restoreFolders?: Readonly<Record<string, number>>;
}

export interface OperationProgress {
  readonly operation: string;
  readonly phase: 'check' | 'safety-snapshot' | 'write' | 'done';
  readonly done: number;
  readonly total: number;
}

export interface ApplyOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: OperationProgress) => void;
}

export interface RecoveryReport {
  /** Operations a crash interrupted and that were put back to their previous state. */
  readonly rolledBack: readonly string[];
  /** Operations whose files were all written and which recovery marked done. */
  readonly completed: readonly string[];
  /** Paths recovery could not restore (reported, never guessed). */
  readonly problems: readonly { readonly operation: string; readonly path: string; readonly message: string }[];
}

export interface OperationRunner {
  /**
   * Checks every path (refusing `..`, absolute paths, symlinked parents, `.git`, ignored files) and that the
   * workspace holds each `expected` version, before any write; then stores the safety snapshot, journals and
   * writes. A mismatch returns `workspace-changed` with nothing written; so does a change found while writing
   * (a folder swapped or moved, a file edited), after everything written was rolled back (README.md).
   */
  apply(plan: OperationPlan, options?: ApplyOptions): Promise<OperationOutcome>;
  /** Restores what the operation replaced, if the workspace still holds what it wrote (else `workspace-changed`). */
  undo(operationId: string, options?: ApplyOptions): Promise<OperationOutcome>;
  list(filter?: { readonly workspace?: string; readonly limit?: number }): OperationSummary[];
  /** Completes or rolls back operations a crash interrupted (run when the service starts). */
  recover(): Promise<RecoveryReport>;
}
