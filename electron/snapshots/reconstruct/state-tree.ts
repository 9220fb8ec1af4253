/**
 * The tree file state flows along: each node's state parent is its parentId, else its logical (compaction),
 * subagent or fork-of edge (merge edges are second parents and carry no state here). Built without
 * recursion; a cycle (possible through extra edges in damaged transcripts) is broken at the node where the
 * walk first meets it, which then becomes a root.
 */
import type { NodeSummary } from '../../../shared/model';
import type { NodeEffects, SessionEffects } from './session-effects';

export interface StateTree {
  readonly index: ReadonlyMap<string, number>;
  /** State parent per node index, -1 at roots. */
  readonly parent: Int32Array;
  readonly depth: Int32Array;
  /** Roots in transcript order. */
  readonly roots: readonly number[];
  /** Children of node i are children[childStart[i] .. childEnd[i]), in transcript order. */
  readonly childStart: Int32Array;
  readonly childEnd: Int32Array;
  readonly children: Int32Array;
}

const STATE_EDGES = new Set(['logical', 'subagent', 'fork-of']);

export function buildStateTree(nodes: readonly NodeSummary[]): StateTree {
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => index.set(node.id, i));
  const parent = new Int32Array(n).fill(-1);
  nodes.forEach((node, i) => {
    let p = node.parentId === null ? undefined : index.get(node.parentId);
    if (p === undefined) {
      const edge = node.extraEdges.find((e) => STATE_EDGES.has(e.kind) && index.has(e.nodeId));
      p = edge === undefined ? undefined : index.get(edge.nodeId);
    }
    if (p !== undefined && p !== i) parent[i] = p;
  });

  // Break cycles: follow parents from each unvisited node; a node met again on the same walk closes a cycle.
  const state = new Uint8Array(n); // 0 unvisited, 1 on the current walk, 2 done
  const walk: number[] = [];
  for (let start = 0; start < n; start++) {
    let j = start;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      walk.push(j);
      j = parent[j]!;
    }
    if (j >= 0 && state[j] === 1) parent[j] = -1; // j's parent chain leads back to j
    for (const k of walk) state[k] = 2;
    walk.length = 0;
  }

  const count = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) count[parent[i]! + 1]!++;
  const childStart = new Int32Array(n);
  const childEnd = new Int32Array(n);
  let offset = 0;
  for (let i = 0; i < n; i++) {
    childStart[i] = offset;
    childEnd[i] = offset;
    offset += count[i + 1]!;
  }
  const children = new Int32Array(offset);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p < 0) roots.push(i);
    else children[childEnd[p]!++] = i;
  }

  // Depths in walk order (parents before children).
  const depth = new Int32Array(n);
  const stack = roots.slice().reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    for (let c = childStart[i]!; c < childEnd[i]!; c++) {
      const child = children[c]!;
      depth[child] = depth[i]! + 1;
      stack.push(child);
    }
  }
  return { index, parent, depth, roots, childStart, childEnd, children };
}

/**
 * A Task/Agent result inherits what its subagent run did: if any node of a run it spawned edited files or
 * may have written, or a spawned run is missing from the session, the result may have changed files this
 * path does not replay. Nested runs are settled first by repeating until nothing changes.
 */
export function markSubagentWrites(nodes: readonly NodeSummary[], tree: StateTree, read: SessionEffects): void {
  if (read.subagentCalls.size === 0) return;
  const runRoots = new Map<number, number[]>();
  nodes.forEach((node, i) => {
    for (const edge of node.extraEdges) {
      const call = edge.kind === 'subagent' ? tree.index.get(edge.nodeId) : undefined;
      if (call !== undefined && tree.parent[i] === call) (runRoots.get(call) ?? runRoots.set(call, []).get(call)!).push(i);
    }
  });
  const writes = (root: number): boolean => {
    const stack = [root];
    while (stack.length > 0) {
      const i = stack.pop()!;
      const effect = read.effects[i];
      if (effect !== undefined && (effect.edits.length > 0 || effect.mayWrite !== null)) return true;
      for (let c = tree.childStart[i]!; c < tree.childEnd[i]!; c++) stack.push(tree.children[c]!);
    }
    return false;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [call, calls] of read.subagentCalls) {
      const roots = runRoots.get(call) ?? [];
      if (roots.length >= calls && !roots.some(writes)) continue;
      for (const result of read.subagentResults.get(call) ?? []) {
        const effect = (read.effects[result] ??= { edits: [], mayWrite: null });
        if (effect.mayWrite === null) {
          effect.mayWrite = 'subagent';
          changed = true;
        }
      }
    }
  }
}

/** Kinds that continue a conversation: a result with one of these below it is not left hanging. */
const CONVERSATION_KINDS = new Set(['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'compaction']);

/** True when nothing but side lines (hook progress, system notes, errors) hangs below node i. */
function onlySideLinesBelow(nodes: readonly NodeSummary[], tree: StateTree, i: number): boolean {
  const stack = [i];
  while (stack.length > 0) {
    const j = stack.pop()!;
    for (let c = tree.childStart[j]!; c < tree.childEnd[j]!; c++) {
      const child = tree.children[c]!;
      if (CONVERSATION_KINDS.has(nodes[child]!.kind)) return false;
      stack.push(child);
    }
  }
  return true;
}

/** How far ahead in transcript order a hanging result's continuation is looked for. */
const CONTINUATION_LOOKAHEAD = 2_000;
const RESULT_KINDS = new Set(['tool_result', 'error']);

/**
 * Parallel tool calls are recorded as a fork (FORMATS.md §1.5): the line carrying call 1 gets two children,
 * the line carrying call 2 and call 1's result, which then hangs beside the real continuation (alone, or
 * with only side lines below it: hook progress, system notes). What
 * that result did happened to the workspace all the same, so its edits and its may-write mark also take
 * effect at the next node in transcript order that continues from the call's line.
 */
export function carryHangingResults(nodes: readonly NodeSummary[], tree: StateTree, effects: (NodeEffects | undefined)[]): void {
  const childCount = (i: number) => tree.childEnd[i]! - tree.childStart[i]!;
  for (let i = 0; i < nodes.length; i++) {
    const effect = effects[i];
    if (effect === undefined || (effect.edits.length === 0 && effect.mayWrite === null)) continue;
    const call = tree.parent[i]!;
    if (!RESULT_KINDS.has(nodes[i]!.kind) || call < 0 || childCount(call) < 2 || !onlySideLinesBelow(nodes, tree, i)) continue;
    const callDepth = tree.depth[call]!;
    const end = Math.min(nodes.length, i + 1 + CONTINUATION_LOOKAHEAD);
    for (let k = i + 1; k < end; k++) {
      let j = k;
      let below = k;
      let inside = false; // k hangs below the result itself (its hook progress lines)
      while (j >= 0 && tree.depth[j]! > callDepth) {
        if (j === i) inside = true;
        below = j;
        j = tree.parent[j]!;
      }
      // The continuation is a parentUuid child of the call's line, not a subagent run hung on it.
      if (j !== call || inside || nodes[below]!.parentId !== nodes[call]!.id) continue;
      const target = (effects[k] ??= { edits: [], mayWrite: null });
      target.carried = [...(target.carried ?? []), ...effect.edits];
      target.mayWrite ??= effect.mayWrite;
      break;
    }
  }
}
