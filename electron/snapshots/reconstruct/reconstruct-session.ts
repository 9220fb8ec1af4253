/**
 * The state of every file a session touched, at every node, rebuilt from the transcript (DESIGN.md
 * "snapshot", kind `reconstructed`), for sessions Arbor did not record. Where it cannot know a file's state
 * it says so; where it says a file is known, the content is what the transcript proves.
 *
 * Rules:
 * - A node's state parent is its parentId, else its logical (compaction), subagent or fork-of edge: file
 *   state flows across compactions and into subagent runs. A root in the middle of a file (a prompt after a
 *   plan cleared the context, a compaction whose logical parent is in no imported file) keeps the state of
 *   the line before it in that file (state-tree.ts). Cycles are broken where the walk meets them.
 * - A file's content at node N is the after-state of the last edit on N's ancestor path, or, when the path has
 *   not edited it yet, its session baseline: the first recorded pre-state of the file in transcript order.
 * - An edit takes effect at the node carrying its tool result (the outcome), not at the call (the intent).
 *   A parallel call's result left hanging beside the continuation takes effect there too (state-tree.ts).
 *   Edit / MultiEdit replay their strings, never display-only hunks (file-edits.ts).
 * - An anchor is a step that tells a file's whole content: an edit with a recorded pre-state (originalFile),
 *   a Write's content, a file-history backup. A file is known at N when its content is known and it is in
 *   no doubt; it is in doubt
 *   - after a step on the path that may have changed files the transcript cannot replay (tool-effects.ts:
 *     shell commands that are not read-only, tools that may write, a subagent run that edited or ran
 *     commands, a call whose outcome was never recorded, a result line that cannot be read), until its next
 *     anchor: such a step doubts every file, even one it edited itself; a later anchor recovers that file
 *     alone (shell doubt);
 *   - when it changed outside the transcript: an anchor that reads other contents than the replay (the
 *     user, another terminal, a shell command, a rewind that did not restore code) re-anchors the file on
 *     what it read, and the file is in doubt over the interval before it: the nodes of the path after the
 *     point where the file's state was last established (its previous anchor on the path, or, for the
 *     baseline, where the path leaves the path of the edit that gave the baseline, or the root when a step
 *     that may have written lies between those two) and before the re-anchor.
 *     Side branches leaving the interval inherit the doubt until their own next anchor of the file. Other
 *     files are not affected (outside doubt);
 *   - before its first anchor on the path, when its baseline was read after a may-write step (the nearest
 *     one above the baseline's edit) that is not on the path: the baseline tells nothing of the file before
 *     that step, so it holds only below it (baseline doubt, named after that step and its reason).
 *   fileUnknownSince names, per file not known, the step from which it is not: the edit that could not be
 *   replayed, the first may-write step after the file's last anchor, the first node of the interval, or the may-write
 *   step the baseline was read after.
 * - `known` is 'reconstructed' at N exactly when every touched file is known there (so a state that every
 *   anchor after a shell command has read again is known again); with no touched file, when no may-write
 *   step is on the path. It covers the touched files only, never the rest of the workspace. `unknownSince`
 *   is the earliest may-write step that still doubts some file.
 * - Edits and backups that read other contents than the replay are reported as problems.
 * - Claude Code's file-history backups (checkpoints.ts), when given, are the file as it was at their node,
 *   before the node's own edits: anchors like recorded pre-states. Missing backups change nothing.
 * Two walks over the tree: the first (edit-replay.ts) replays contents and finds the intervals of outside doubt
 * (found only at their end), the second records per-node states. Memory: each node stores only the files whose state
 * changed there (content ids, deduplicated by hash) and every CHECKPOINT_EVERY levels a full map, so stateAt
 * walks at most that many ancestors.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeId, NodeSummary } from '../../../shared/model';
import { ContentStore, KeptEffect, UNKNOWN_ID, type ContentId } from './content-store';
import { readCheckpoints } from './checkpoints';
import { beforeIdOf, isUnknown, replayEdits, type Observation } from './edit-replay';
import { UNKNOWN_CONTENT } from './file-edits';
import { KnownByNode } from './known-by-node';
import type { FileUnknownSince, Reconstruction, ReconstructOptions, StateKnown } from './reconstruction';
import { readSessionEffects, type ReadRaw } from './session-effects';
import { buildStateTree, carryHangingResults, findMidFileRoots, markSubagentWrites, walkStateTree } from './state-tree';

export type {
  StateKnown, FileUnknownReason, FileUnknownSince, NodeFileState, FileChange, ReconstructionProblemKind, ReconstructionProblem,
  ReconstructionStats, Reconstruction, ReconstructOptions,
} from './reconstruction';

const CHECKPOINT_EVERY = 128;

/** One file's state on a path: its content, where it was last read, and since where it is in doubt. */
type PathState = readonly [p: number, id: ContentId, anchor: number, outside: number];

interface Checkpoint {
  readonly ids: ContentId[];
  readonly anchor: Int32Array;
  readonly outside: Int32Array;
}

export async function reconstructSession(nodes: readonly NodeSummary[], readRaw: ReadRaw, options: ReconstructOptions = {}): Promise<Reconstruction> {
  const { signal, fileHistory, readEffects = readSessionEffects, readRecords, resultIdsOf } = options;
  // The format's importer fills the neutral effects; Claude Code's reader is the default.
  // Every content is kept once, by id, from the moment its effect is read (content-store.ts).
  const store = new ContentStore();
  const read = await readEffects(nodes, readRaw, signal, readRecords, resultIdsOf, (effect) => new KeptEffect(effect, store));
  const { effects } = read;
  const tree = buildStateTree(nodes, await findMidFileRoots(nodes, readRaw, signal));
  markSubagentWrites(nodes, tree, read);
  carryHangingResults(nodes, tree, effects);
  throwIfAborted(signal);

  const pathIndex = new Map<string, number>();
  const paths: string[] = [];
  const baseline: ContentId[] = [];
  /** The node whose edit gave the baseline (the first recorded pre-state in transcript order), -1 if none. */
  const baselineNode: number[] = [];
  effects.forEach((effect, i) => {
    for (const edit of effect?.edits ?? []) {
      let p = pathIndex.get(edit.path);
      if (p === undefined) {
        p = paths.length;
        pathIndex.set(edit.path, p);
        paths.push(edit.path);
        baseline.push(UNKNOWN_ID);
        baselineNode.push(-1);
      }
      const before = beforeIdOf(store, edit);
      if (baseline[p] === UNKNOWN_ID && before !== UNKNOWN_ID) {
        baseline[p] = before;
        baselineNode[p] = i;
      }
    }
  });

  const observations: (Observation[] | undefined)[] = [];
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
  const F = paths.length;
  const depth = tree.depth;

  // Walk 1: replay contents, report problems, find where a file changed outside the transcript (edit-replay.ts).
  const { steps, doubts, problems, nearestMayWrite, editCount } = replayEdits({ nodes, tree, effects, observations, pathIndex, paths, baseline, baselineNode, store, signal });

  // The baseline was read after the nearest may-write step above its edit, if any: it tells nothing of the file
  // before that step, so it holds only below it (baseline doubt).
  const baselineWrite = new Int32Array(F).fill(-1);
  const baselineFrom = new Map<number, number[]>();
  for (let p = 0; p < F; p++) {
    const b = baselineNode[p]!;
    const above = b >= 0 && tree.parent[b]! >= 0 ? nearestMayWrite[tree.parent[b]!]! : -1;
    baselineWrite[p] = above;
    if (above >= 0) {
      const list = baselineFrom.get(above);
      if (list === undefined) baselineFrom.set(above, [p]);
      else list.push(p);
    }
  }

  // Walk 2: the per-node states. A file is in doubt at a node when a step that may write files unrecorded
  // lies on the path after its last anchor (shell doubt), or when walk 1 doubted it on the path since its
  // last anchor (outside doubt). Each node stores only the files that changed there; every CHECKPOINT_EVERY
  // levels a full map.
  const key = (at: number): number => (at < 0 ? -1 : 2 * depth[at]! + 1); // an anchor at node `at`
  const mayWriteKey = (at: number): number => (at < 0 ? -2 : 2 * depth[at]! + 2); // after the node's own edits
  const latestMayWrite = new Int32Array(n).fill(-1);
  const unknownNode = new Uint8Array(n);
  const deltas: (PathState[] | undefined)[] = new Array(n);
  const changes: ([number, ContentId, ContentId][] | undefined)[] = new Array(n);
  const checkpoints = new Map<number, Checkpoint>();
  const current = baseline.slice();
  const anchor = new Int32Array(F).fill(-1);
  const undoStart = new Int32Array(n);
  const outside = new Int32Array(F).fill(-1);
  const undo2: [number, ContentId, number, number][] = [];
  const touchedAt = new Int32Array(F).fill(-1); // the node whose entry last saved the file
  const touched: number[] = [];
  const saved = new Int32Array(4 * n);
  let unknownCount = current.filter(isUnknown).length;
  let shellDoubted = 0;
  let outsideDoubted = 0;
  let baselineDoubted = baselineWrite.reduce((count, at) => count + Number(at >= 0), 0);
  // Entry and exit order of the walk: `a` is on `i`'s path exactly when enteredAt[a] <= enteredAt[i] < leftAt[a].
  const enteredAt = new Int32Array(n);
  const leftAt = new Int32Array(n);
  const onPath = new Uint8Array(n);
  let clock = 0;

  walkStateTree(tree, signal, (i) => {
    const parent = tree.parent[i]!;
    saved[4 * i] = unknownCount;
    saved[4 * i + 1] = shellDoubted;
    saved[4 * i + 2] = outsideDoubted;
    saved[4 * i + 3] = baselineDoubted;
    enteredAt[i] = clock++;
    onPath[i] = 1;
    for (const p of baselineFrom.get(i) ?? []) if (anchor[p] === -1) baselineDoubted--;
    undoStart[i] = undo2.length;
    const inherited = parent >= 0 ? latestMayWrite[parent]! : -1;
    touched.length = 0;
    const save = (p: number) => {
      if (touchedAt[p] === i) return;
      touchedAt[p] = i;
      touched.push(p);
      undo2.push([p, current[p]!, anchor[p]!, outside[p]!]);
    };
    for (const p of doubts[i] ?? []) {
      if (outside[p]! >= 0) continue;
      save(p);
      outside[p] = i;
      outsideDoubted++;
    }
    const firstBefore = new Map<number, ContentId>();
    for (const step of steps[i] ?? []) {
      const { p, id } = step;
      save(p);
      if (step.edit && !firstBefore.has(p)) firstBefore.set(p, current[p]!);
      unknownCount += Number(isUnknown(id)) - Number(isUnknown(current[p]!));
      current[p] = id;
      if (step.anchors) {
        if (key(anchor[p]!) < mayWriteKey(inherited) && key(i) > mayWriteKey(inherited)) shellDoubted--;
        if (anchor[p] === -1 && baselineWrite[p]! >= 0 && onPath[baselineWrite[p]!] === 0) baselineDoubted--;
        anchor[p] = i;
        if (outside[p]! >= 0) {
          outside[p] = -1;
          outsideDoubted--;
        }
      }
    }
    // A step that may have written files unrecorded doubts every file, even one it edited itself (parallel calls).
    if (effects[i]?.mayWrite != null) {
      latestMayWrite[i] = i;
      shellDoubted = Math.max(F, 1);
    } else {
      latestMayWrite[i] = inherited;
    }
    if (touched.length > 0) {
      const delta: PathState[] = [];
      const changed: [number, ContentId, ContentId][] = [];
      for (const p of touched) delta.push([p, current[p]!, anchor[p]!, outside[p]!]);
      for (const [p, before] of firstBefore) if (current[p] !== before) changed.push([p, before, current[p]!]);
      deltas[i] = delta;
      if (changed.length > 0) changes[i] = changed;
    }
    unknownNode[i] = unknownCount > 0 || shellDoubted > 0 || outsideDoubted > 0 || baselineDoubted > 0 ? 1 : 0;
    if (F > 0 && depth[i]! % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) {
      checkpoints.set(i, { ids: current.slice(), anchor: anchor.slice(), outside: outside.slice() });
    }
  }, (i) => {
    const start = undoStart[i]!;
    while (undo2.length > start) {
      const [p, id, at, since] = undo2.pop()!;
      current[p] = id;
      anchor[p] = at;
      outside[p] = since;
    }
    unknownCount = saved[4 * i]!;
    shellDoubted = saved[4 * i + 1]!;
    outsideDoubted = saved[4 * i + 2]!;
    baselineDoubted = saved[4 * i + 3]!;
    leftAt[i] = clock;
    onPath[i] = 0;
  });

  const indexOf = (nodeId: NodeId): number => {
    const index = tree.index.get(nodeId);
    if (index === undefined) throw new RangeError(`node ${nodeId} is not in this session`);
    return index;
  };

  const statesAt = (i: number): Checkpoint => {
    const ids: (ContentId | undefined)[] = new Array<ContentId | undefined>(F).fill(undefined);
    const anchors = new Int32Array(F).fill(-1);
    const outsides = new Int32Array(F).fill(-1);
    let remaining = F;
    for (let j = i; j >= 0 && remaining > 0; j = tree.parent[j]!) {
      for (const [p, id, at, since] of deltas[j] ?? []) {
        if (ids[p] !== undefined) continue;
        ids[p] = id;
        anchors[p] = at;
        outsides[p] = since;
        remaining--;
      }
      const checkpoint = checkpoints.get(j);
      if (checkpoint !== undefined) {
        for (let p = 0; p < F; p++) {
          if (ids[p] !== undefined) continue;
          ids[p] = checkpoint.ids[p]!;
          anchors[p] = checkpoint.anchor[p]!;
          outsides[p] = checkpoint.outside[p]!;
        }
        remaining = 0;
      }
    }
    return { ids: ids.map((id, p) => id ?? baseline[p]!), anchor: anchors, outside: outsides };
  };

  const onPathOf = (a: number, i: number): boolean => enteredAt[a]! <= enteredAt[i]! && enteredAt[i]! < leftAt[a]!;

  const knownOf = (i: number): StateKnown => (unknownNode[i] === 1 ? 'unknown' : 'reconstructed');

  return {
    touchedFiles: paths,
    problems,
    stats: {
      nodes: n,
      edits: editCount,
      files: F,
      unknownNodes: unknownNode.reduce((count, flag) => count + flag, 0),
      contents: store.size,
      backupObservations: observationCount,
    },
    stateAt(nodeId) {
      const i = indexOf(nodeId);
      const state = statesAt(i);
      // The may-write steps on the path, latest first (their keys decrease along the list), listed when needed.
      let mayWrites: number[] | undefined;
      /** The first may-write step on the path after an anchor, or -1. */
      const firstMayWriteAfter = (at: number): number => {
        if (mayWriteKey(latestMayWrite[i]!) <= key(at)) return -1;
        if (mayWrites === undefined) {
          mayWrites = [];
          for (let s = latestMayWrite[i]!; s >= 0; s = tree.parent[s]! >= 0 ? latestMayWrite[tree.parent[s]!]! : -1) mayWrites.push(s);
        }
        let lo = 0;
        let hi = mayWrites.length; // mayWrites[0, hi) are after the anchor
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (mayWriteKey(mayWrites[mid]!) > key(at)) lo = mid + 1;
          else hi = mid;
        }
        return lo > 0 ? mayWrites[lo - 1]! : -1;
      };
      const files = new Map<string, string | null>();
      const unknownFiles: string[] = [];
      const fileUnknownSince = new Map<string, FileUnknownSince>();
      let since = -1;
      state.ids.forEach((id, p) => {
        const path = paths[p]!;
        const shell = firstMayWriteAfter(state.anchor[p]!);
        if (shell >= 0 && (since < 0 || depth[shell]! < depth[since]!)) since = shell;
        const content = store.contentOf(id);
        if (content === UNKNOWN_CONTENT) {
          unknownFiles.push(path);
          const at = id === UNKNOWN_ID ? -1 : Number(id.slice(UNKNOWN_ID.length + 1));
          fileUnknownSince.set(path, at < 0 ? { nodeId: null, reason: 'no-pre-state' } : { nodeId: nodes[at]!.id, reason: 'edit-does-not-apply' });
          return;
        }
        files.set(path, content);
        const doubted = state.outside[p]!;
        if (shell >= 0 && (doubted < 0 || depth[shell]! <= depth[doubted]!)) {
          fileUnknownSince.set(path, { nodeId: nodes[shell]!.id, reason: effects[shell]!.mayWrite! });
        } else if (doubted >= 0) {
          fileUnknownSince.set(path, { nodeId: nodes[doubted]!.id, reason: 'changed-outside-transcript' });
        } else if (state.anchor[p] === -1 && baselineWrite[p]! >= 0 && !onPathOf(baselineWrite[p]!, i)) {
          // The content is the baseline, read only after that step, which this path never ran.
          const w = baselineWrite[p]!;
          fileUnknownSince.set(path, { nodeId: nodes[w]!.id, reason: effects[w]!.mayWrite! });
        }
      });
      // No touched file: a may-write step still leaves the state unknown (it may have made one).
      if (since < 0 && F === 0) since = latestMayWrite[i]!;
      const reason = since >= 0 ? effects[since]?.mayWrite : undefined;
      const unknownSince = since >= 0 && reason != null ? { nodeId: nodes[since]!.id, reason } : null;
      return { files, unknownFiles, known: knownOf(i), unknownSince, fileUnknownSince };
    },
    knownAt: (nodeId) => knownOf(indexOf(nodeId)),
    knownByNode: () => new KnownByNode(nodes, tree.index, knownOf),
    changedAt(nodeId) {
      return (changes[indexOf(nodeId)] ?? []).map(([p, before, after]) => ({ path: paths[p]!, before: store.contentOf(before), after: store.contentOf(after) }));
    },
    editsAt(nodeId) {
      return (effects[indexOf(nodeId)]?.edits ?? []).map((edit) => (edit instanceof KeptEffect ? edit.whole() : edit));
    },
    ghostMissAt(nodeId) {
      // O(the path's depth), asked once per listing of a node's files.
      for (let j = indexOf(nodeId); j >= 0; j = tree.parent[j]!) {
        const miss = effects[j]?.ghostMiss;
        if (miss !== undefined) return miss;
      }
      return null;
    },
  };
}
