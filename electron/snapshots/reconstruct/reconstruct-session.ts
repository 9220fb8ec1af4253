/**
 * The state of every file a session touched, at every node, rebuilt from the transcript (DESIGN.md
 * "snapshot", kind `reconstructed`), for sessions Arbor did not record.
 *
 * Rules:
 * - A node's state parent is its parentId, else its logical (compaction), subagent or fork-of edge: file
 *   state flows across compactions and into subagent runs. Cycles are broken where the walk meets them.
 * - A file's state at node N is the after-state of the last edit on N's ancestor path, or, when the path has
 *   not edited it yet, its session baseline: the first known pre-state of the file in transcript order.
 * - An edit takes effect at the node carrying its tool result (the outcome), not at the call (the intent).
 *   A parallel call's result left hanging beside the continuation also takes effect on it (state-tree.ts).
 * - `known` is 'unknown' from the first step on the path that may have changed files the transcript cannot
 *   replay (tool-effects.ts: shell commands that are not read-only, tools that may write, a subagent run
 *   that edited or ran commands, a file-edit or shell call whose outcome was never recorded, a result line
 *   that cannot be read) onward, and at nodes where some touched file's content is not known. Otherwise
 *   'reconstructed': it covers the touched files only, never the rest of the workspace.
 * - An edit whose recorded pre-state differs from the state derived for its path is kept as recorded (the
 *   tool read the real file) and reported as a problem: the file changed outside what this path records
 *   (a shell command, the user, a rewind that did not restore code, another terminal).
 * - Claude Code's file-history backups (checkpoints.ts), when given, are the file as it was at their node,
 *   before the node's own edits: they fill a state the edits leave unknown, and where they differ from the
 *   derived state they win there (the file was read) and the difference is reported. A node where backups
 *   observe every touched file is known again even after a shell command: its whole scope was read.
 *   Recorded edit pre-states still win at their edits. Missing backups change nothing.
 * Memory: each node stores only the files its edits changed (content ids, deduplicated by hash) and every
 * CHECKPOINT_EVERY levels a full id map, so stateAt walks at most that many ancestors.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeId, NodeSummary } from '../../../shared/model';
import { ContentStore, UNKNOWN_ID, type ContentId } from './content-store';
import { readCheckpoints, type FileHistorySource } from './checkpoints';
import { UNKNOWN_CONTENT, applyFileEdit, type FileContent, type FileEdit } from './file-edits';
import { readSessionEffects, type MayWriteReason, type ReadRaw } from './session-effects';
import { buildStateTree, carryHangingResults, markSubagentWrites } from './state-tree';

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
  /** Touched files whose content here is known: text, or null when the file does not exist. */
  readonly files: ReadonlyMap<string, string | null>;
  /** Touched files whose content here is not known (no known pre-state, or an edit that could not be replayed). */
  readonly unknownFiles: readonly string[];
  readonly known: StateKnown;
  /** The step on this node's path that may have changed files unrecorded, when there is one. */
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
  /** knownAt for every node of the session, in transcript order. */
  knownByNode(): ReadonlyMap<NodeId, StateKnown>;
  /** The touched files whose state differs from the state parent's, with both states. */
  changedAt(nodeId: NodeId): FileChange[];
  /** The edits whose outcome is this node, as read from the transcript. */
  editsAt(nodeId: NodeId): readonly FileEdit[];
}

export interface ReconstructOptions {
  readonly signal?: AbortSignal;
  /** Claude Code's file history for this session, when the user's config folder has one. */
  readonly fileHistory?: FileHistorySource;
}

const CHECKPOINT_EVERY = 128;

export async function reconstructSession(nodes: readonly NodeSummary[], readRaw: ReadRaw, options: ReconstructOptions = {}): Promise<Reconstruction> {
  const { signal, fileHistory } = options;
  const read = await readSessionEffects(nodes, readRaw, signal);
  const { effects } = read;
  const tree = buildStateTree(nodes);
  markSubagentWrites(nodes, tree, read);
  carryHangingResults(nodes, tree, effects);
  throwIfAborted(signal);

  const store = new ContentStore();
  const pathIndex = new Map<string, number>();
  const paths: string[] = [];
  const baseline: ContentId[] = [];
  for (const effect of effects) {
    for (const edit of effect?.edits ?? []) {
      let p = pathIndex.get(edit.path);
      if (p === undefined) {
        p = paths.length;
        pathIndex.set(edit.path, p);
        paths.push(edit.path);
        baseline.push(UNKNOWN_ID);
      }
      if (baseline[p] === UNKNOWN_ID && edit.before !== UNKNOWN_CONTENT) baseline[p] = store.idOf(edit.before);
    }
  }

  const observations: ([number, ContentId, string | null][] | undefined)[] = [];
  let observationCount = 0;
  if (fileHistory !== undefined && paths.length > 0) {
    const read = await readCheckpoints(nodes, readRaw, fileHistory, new Set(paths), signal);
    read.forEach((list, i) => {
      if (list === undefined) return;
      observations[i] = list.map((seen) => [pathIndex.get(seen.path)!, store.idOf(seen.content), seen.backupFileName]);
      observationCount += list.length;
    });
  }

  const n = nodes.length;
  const unknownSince = new Int32Array(n).fill(-1);
  const hasUnknownFile = new Uint8Array(n);
  const deltas: ([number, ContentId][] | undefined)[] = new Array(n);
  const changes: ([number, ContentId, ContentId][] | undefined)[] = new Array(n);
  const checkpoints = new Map<number, ContentId[]>();
  const problems: ReconstructionProblem[] = [];
  const current = baseline.slice();
  let unknownCount = current.filter((id) => id === UNKNOWN_ID).length;
  const undo: [number, ContentId][] = [];
  const undoStart = new Int32Array(n);
  let editCount = 0;

  const setState = (p: number, id: ContentId) => {
    const previous = current[p]!;
    undo.push([p, previous]);
    unknownCount += Number(id === UNKNOWN_ID) - Number(previous === UNKNOWN_ID);
    current[p] = id;
  };

  const enter = (i: number) => {
    const parent = tree.parent[i]!;
    const effect = effects[i];
    unknownSince[i] = effect?.mayWrite != null ? i : parent >= 0 ? unknownSince[parent]! : -1;
    undoStart[i] = undo.length;
    const observed = observations[i];
    const edits = [...(effect?.carried ?? []), ...(effect?.edits ?? [])];
    const seen = new Set<number>();
    if (observed !== undefined) {
      for (const [p, id, backupFileName] of observed) {
        seen.add(p);
        const derived = current[p]!;
        if (derived === id) continue;
        if (derived !== UNKNOWN_ID) {
          problems.push({ kind: 'backup-mismatch', nodeId: nodes[i]!.id, toolUseId: '', path: paths[p]!, backupFileName, afterUnrecordedStep: unknownSince[i]! >= 0 && unknownSince[i] !== i });
        }
        setState(p, id);
      }
      // Every touched file was read here: whatever an earlier shell command did, this state is known.
      if (seen.size === paths.length && effect?.mayWrite == null) unknownSince[i] = -1;
    }
    const firstBefore = new Map<number, ContentId>();
    if (edits.length > 0) {
      editCount += effect?.edits.length ?? 0;
      for (const edit of edits) {
        const p = pathIndex.get(edit.path)!;
        const derived = current[p]!;
        if (!firstBefore.has(p)) firstBefore.set(p, derived);
        const problem = (kind: ReconstructionProblemKind) =>
          problems.push({ kind, nodeId: nodes[i]!.id, toolUseId: edit.toolUseId, path: edit.path, afterUnrecordedStep: unknownSince[i]! >= 0 && unknownSince[i] !== i });
        let after = edit.after;
        if (edit.before === UNKNOWN_CONTENT) {
          if (after === UNKNOWN_CONTENT && derived !== UNKNOWN_ID) {
            after = applyFileEdit(store.contentOf(derived) as string | null, edit.patch, edit.replacements);
            if (after === UNKNOWN_CONTENT) problem('edit-does-not-apply');
          } else if (after === UNKNOWN_CONTENT) {
            problem('before-unknown');
          }
        } else {
          if (derived !== UNKNOWN_ID && derived !== store.idOf(edit.before)) problem('before-mismatch');
          if (after === UNKNOWN_CONTENT) problem('edit-does-not-apply');
        }
        setState(p, store.idOf(after));
      }
    }
    if (edits.length > 0 || observed !== undefined) {
      // A backup filling an unknown state is not a change of the file at this node: only edits are.
      const delta: [number, ContentId][] = [];
      const changed: [number, ContentId, ContentId][] = [];
      for (const [p, before] of firstBefore) {
        delta.push([p, current[p]!]);
        if (current[p] !== before) changed.push([p, before, current[p]!]);
      }
      for (const p of seen) if (!firstBefore.has(p)) delta.push([p, current[p]!]);
      deltas[i] = delta;
      if (changed.length > 0) changes[i] = changed;
    }
    hasUnknownFile[i] = unknownCount > 0 ? 1 : 0;
    if (paths.length > 0 && tree.depth[i]! % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) checkpoints.set(i, current.slice());
  };

  const leave = (i: number) => {
    const start = undoStart[i]!;
    while (undo.length > start) {
      const [p, previous] = undo.pop()!;
      unknownCount += Number(previous === UNKNOWN_ID) - Number(current[p] === UNKNOWN_ID);
      current[p] = previous;
    }
  };

  // Iterative depth-first walk: 50k-deep chains must not touch the call stack. ~i marks a node's exit.
  const stack: number[] = [];
  for (let r = tree.roots.length - 1; r >= 0; r--) stack.push(tree.roots[r]!);
  let steps = 0;
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top < 0) {
      leave(~top);
      continue;
    }
    if ((++steps & 4095) === 0) throwIfAborted(signal);
    enter(top);
    stack.push(~top);
    for (let c = tree.childEnd[top]! - 1; c >= tree.childStart[top]!; c--) stack.push(tree.children[c]!);
  }

  const indexOf = (nodeId: NodeId): number => {
    const index = tree.index.get(nodeId);
    if (index === undefined) throw new RangeError(`node ${nodeId} is not in this session`);
    return index;
  };

  const idsAt = (i: number): ContentId[] => {
    const ids: (ContentId | undefined)[] = new Array<ContentId | undefined>(paths.length).fill(undefined);
    let remaining = paths.length;
    for (let j = i; j >= 0 && remaining > 0; j = tree.parent[j]!) {
      const delta = deltas[j];
      if (delta !== undefined) {
        for (const [p, id] of delta) {
          if (ids[p] !== undefined) continue;
          ids[p] = id;
          remaining--;
        }
      }
      const checkpoint = checkpoints.get(j);
      if (checkpoint !== undefined) {
        for (let p = 0; p < paths.length; p++) if (ids[p] === undefined) ids[p] = checkpoint[p]!;
        remaining = 0;
      }
    }
    return ids.map((id, p) => id ?? baseline[p]!);
  };

  const knownOf = (i: number): StateKnown => (unknownSince[i]! >= 0 || hasUnknownFile[i] === 1 ? 'unknown' : 'reconstructed');

  return {
    touchedFiles: paths,
    problems,
    stats: {
      nodes: n,
      edits: editCount,
      files: paths.length,
      unknownNodes: nodes.reduce((count, _node, i) => count + Number(unknownSince[i]! >= 0 || hasUnknownFile[i] === 1), 0),
      contents: store.size,
      backupObservations: observationCount,
    },
    stateAt(nodeId) {
      const i = indexOf(nodeId);
      const files = new Map<string, string | null>();
      const unknownFiles: string[] = [];
      idsAt(i).forEach((id, p) => {
        const content = store.contentOf(id);
        if (content === UNKNOWN_CONTENT) unknownFiles.push(paths[p]!);
        else files.set(paths[p]!, content);
      });
      const since = unknownSince[i]!;
      const known: StateKnown = since >= 0 || unknownFiles.length > 0 ? 'unknown' : 'reconstructed';
      const reason = since >= 0 ? effects[since]?.mayWrite : undefined;
      const unknownStep = since >= 0 && reason != null ? { nodeId: nodes[since]!.id, reason } : null;
      const fileUnknownSince = new Map<string, FileUnknownSince>();
      for (const path of unknownFiles) fileUnknownSince.set(path, { nodeId: null, reason: 'no-pre-state' });
      if (unknownStep !== null) for (const path of files.keys()) fileUnknownSince.set(path, unknownStep);
      return { files, unknownFiles, known, unknownSince: unknownStep, fileUnknownSince };
    },
    knownAt: (nodeId) => knownOf(indexOf(nodeId)),
    knownByNode: () => new Map(nodes.map((node, i) => [node.id, knownOf(i)])),
    changedAt(nodeId) {
      return (changes[indexOf(nodeId)] ?? []).map(([p, before, after]) => ({ path: paths[p]!, before: store.contentOf(before), after: store.contentOf(after) }));
    },
    editsAt(nodeId) {
      return effects[indexOf(nodeId)]?.edits ?? [];
    },
  };
}
