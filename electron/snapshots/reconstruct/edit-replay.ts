/**
 * The first walk of a reconstruction (reconstruct-session.ts): replays each file's contents down every path, reports
 * the edits and backups that read other contents than the replay, and finds where a file changed outside the
 * transcript: such an edit (or backup) doubts that file from just after the point where its state was last read
 * on the path (or, from the baseline, where the path leaves the baseline's own edit) until it. The intervals are
 * found only at their end, so the second walk (the per-node states) applies them on its way down.
 */
import type { NodeSummary } from '../../../shared/model';
import { KeptEffect, UNKNOWN_ID, type ContentId, type ContentStore } from './content-store';
import { applyFileEdit, type FileEdit } from './file-edits';
import type { ReconstructionProblem, ReconstructionProblemKind } from './reconstruction';
import type { NodeEffects } from './session-effects';
import { walkStateTree, type StateTree } from './state-tree';

/** A content that is not known because the edit at node `i` could not be replayed. */
export const unknownAt = (i: number): ContentId => `${UNKNOWN_ID}@${i}`;
export const isUnknown = (id: ContentId): boolean => id === UNKNOWN_ID || id.startsWith(`${UNKNOWN_ID}@`);

/** What a node does to one file's state, found by the first walk and replayed by the second. */
export interface FileStep {
  readonly p: number;
  readonly id: ContentId;
  /** The content comes from the transcript itself (a recorded pre-state, a Write's content, a backup), not from the replay. */
  readonly anchors: boolean;
  /** An edit (a backup observation is not a change of the file at its node). */
  readonly edit: boolean;
}

/** A backup seen at a node: the file's index, its content, the backup's name. */
export type Observation = readonly [p: number, id: ContentId, backupFileName: string | null];

export interface ReplayInput {
  readonly nodes: readonly NodeSummary[];
  readonly tree: StateTree;
  readonly effects: readonly (NodeEffects | undefined)[];
  readonly observations: readonly (readonly Observation[] | undefined)[];
  readonly pathIndex: ReadonlyMap<string, number>;
  readonly paths: readonly string[];
  /** Each file's first recorded pre-state in transcript order, and the node whose edit gave it (-1: none). */
  readonly baseline: readonly ContentId[];
  readonly baselineNode: readonly number[];
  readonly store: ContentStore;
  readonly signal?: AbortSignal | undefined;
}

export interface Replay {
  /** Per node, the files whose state it sets. */
  readonly steps: (FileStep[] | undefined)[];
  /** Per node, the files in doubt from there (outside doubt), until their next anchor. */
  readonly doubts: (number[] | undefined)[];
  readonly problems: ReconstructionProblem[];
  /** The node itself or its nearest ancestor that may have written, -1 if none. */
  readonly nearestMayWrite: Int32Array;
  readonly editCount: number;
}

/** The content ids an edit tells, kept in the store (content-store.ts KeptEffect) or as the reader gave them. */
export function beforeIdOf(store: ContentStore, edit: FileEdit): ContentId {
  return edit instanceof KeptEffect ? edit.beforeId : store.idOf(edit.before);
}
export function afterIdOf(store: ContentStore, edit: FileEdit): ContentId {
  return edit instanceof KeptEffect ? edit.afterId : store.idOf(edit.after);
}

export function replayEdits({ nodes, tree, effects, observations, pathIndex, paths, baseline, baselineNode, store, signal }: ReplayInput): Replay {
  const n = nodes.length;
  const F = paths.length;
  const depth = tree.depth;
  const beforeOf = (edit: FileEdit): ContentId => beforeIdOf(store, edit);
  const afterOf = (edit: FileEdit): ContentId => afterIdOf(store, edit);
  const steps: (FileStep[] | undefined)[] = new Array(n);
  const doubts: (number[] | undefined)[] = new Array(n);
  const problems: ReconstructionProblem[] = [];
  const unrecordedSince = new Int32Array(n).fill(-1);
  const nearestMayWrite = new Int32Array(n).fill(-1); // the node itself or its nearest ancestor that may have written
  const path = new Int32Array(n);
  const current = baseline.slice();
  const anchor = new Int32Array(F).fill(-1);
  const undo1: [number, ContentId, number][] = [];
  const undoStart = new Int32Array(n);
  let editCount = 0;

  const doubtBefore = (p: number, i: number) => {
    let startDepth: number;
    if (anchor[p]! >= 0) {
      startDepth = depth[anchor[p]!]!;
    } else {
      // The baseline's own edit read the file where the path leaves its path, unless a step that may have
      // written lies between: then nothing on this path told the file's state before the re-anchor.
      let a = baselineNode[p]!;
      let written = false;
      while (a >= 0 && !(depth[a]! <= depth[i]! && path[depth[a]!] === a)) {
        a = tree.parent[a]!;
        if (a >= 0 && effects[a]?.mayWrite != null && !(depth[a]! <= depth[i]! && path[depth[a]!] === a)) written = true;
      }
      startDepth = a < 0 || written ? -1 : depth[a]!;
    }
    if (startDepth + 1 >= depth[i]!) return;
    const from = path[startDepth + 1]!;
    (doubts[from] ??= []).push(p);
  };

  walkStateTree(tree, signal, (i) => {
    path[depth[i]!] = i;
    undoStart[i] = undo1.length;
    const parent = tree.parent[i]!;
    const effect = effects[i];
    unrecordedSince[i] = effect?.mayWrite != null ? i : parent >= 0 ? unrecordedSince[parent]! : -1;
    nearestMayWrite[i] = effect?.mayWrite != null ? i : parent >= 0 ? nearestMayWrite[parent]! : -1;
    const afterUnrecordedStep = unrecordedSince[i]! >= 0 && unrecordedSince[i] !== i;
    const list: FileStep[] = [];
    const set = (p: number, id: ContentId, anchors: boolean, edit: boolean) => {
      undo1.push([p, current[p]!, anchor[p]!]);
      current[p] = id;
      if (anchors) anchor[p] = i;
      list.push({ p, id, anchors, edit });
    };
    const observed = observations[i];
    if (observed !== undefined) {
      const seen = new Set<number>();
      for (const [p, id, backupFileName] of observed) {
        seen.add(p);
        const derived = current[p]!;
        if (derived !== id && !isUnknown(derived)) {
          problems.push({ kind: 'backup-mismatch', nodeId: nodes[i]!.id, toolUseId: '', path: paths[p]!, backupFileName, afterUnrecordedStep });
          doubtBefore(p, i);
        }
        set(p, id, true, false);
      }
      // Every touched file was read here: whatever an earlier shell command did, this state is known.
      if (seen.size === F && effect?.mayWrite == null) unrecordedSince[i] = -1;
    }
    const edits = [...(effect?.carried ?? []), ...(effect?.edits ?? [])];
    editCount += effect?.edits.length ?? 0;
    for (const edit of edits) {
      const p = pathIndex.get(edit.path)!;
      // A move patches the state of the path it moves from (whose own effect, later in the list, deletes it).
      const from = edit.from === undefined ? p : pathIndex.get(edit.from);
      const derived = from === undefined ? UNKNOWN_ID : current[from]!;
      const problem = (kind: ReconstructionProblemKind) =>
        problems.push({ kind, nodeId: nodes[i]!.id, toolUseId: edit.toolUseId, path: edit.path, afterUnrecordedStep });
      const before = beforeOf(edit);
      const told = afterOf(edit);
      let after = told;
      if (before === UNKNOWN_ID) {
        if (after === UNKNOWN_ID && !isUnknown(derived)) {
          after = store.idOf(applyFileEdit(store.contentOf(derived) as string | null, edit.patch, edit.replacements, edit.contextPatch));
          if (after === UNKNOWN_ID) problem('edit-does-not-apply');
        } else if (after === UNKNOWN_ID) {
          problem('before-unknown');
        }
      } else {
        if (!isUnknown(derived) && derived !== before) {
          problem('before-mismatch');
          doubtBefore(p, i);
        }
        if (after === UNKNOWN_ID) problem('edit-does-not-apply');
      }
      // What the transcript itself tells (a recorded pre-state, a Write's content) anchors the file here.
      const anchors = before !== UNKNOWN_ID || told !== UNKNOWN_ID;
      const id = after !== UNKNOWN_ID ? after : !anchors && isUnknown(derived) ? derived : unknownAt(i);
      set(p, id, anchors, true);
    }
    if (list.length > 0) steps[i] = list;
  }, (i) => {
    const start = undoStart[i]!;
    while (undo1.length > start) {
      const [p, id, at] = undo1.pop()!;
      current[p] = id;
      anchor[p] = at;
    }
  });
  return { steps, doubts, problems, nearestMayWrite, editCount };
}
