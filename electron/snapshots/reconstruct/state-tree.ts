/**
 * The tree file state flows along: each node's state parent is its parentId, else its logical (compaction),
 * subagent or fork-of edge (merge edges are second parents and carry no state here). A root in the middle
 * of a file (a prompt with parentUuid null after a plan was accepted and the context cleared, a
 * compact_boundary whose logical parent is in no imported file, a parent that is missing) did not reset the
 * workspace: its state parent is the line before it in the same file (findMidFileRoots). Built without
 * recursion; a cycle (possible through extra edges in damaged transcripts) is broken at the node where the
 * walk first meets it, which then becomes a root.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeSummary } from '../../../shared/model';
import type { NodeEffects, ReadRaw, SessionEffects } from './session-effects';

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

const STATE_EDGES = new Set(['logical', 'subagent', 'fork-of', 'continues']);

/** The node's state parent by its own links (parentId, else a state edge), or -1. */
function linkedParent(nodes: readonly NodeSummary[], index: ReadonlyMap<string, number>, i: number): number {
  const node = nodes[i]!;
  let p = node.parentId === null ? undefined : index.get(node.parentId);
  if (p === undefined) {
    const edge = node.extraEdges.find((e) => STATE_EDGES.has(e.kind) && index.has(e.nodeId));
    p = edge === undefined ? undefined : index.get(edge.nodeId);
  }
  return p !== undefined && p !== i ? p : -1;
}

const sessionIdOf = (raw: string | null): string | null => {
  if (raw === null) return null;
  try {
    const entry = JSON.parse(raw) as { sessionId?: unknown };
    return typeof entry.sessionId === 'string' ? entry.sessionId : null;
  } catch {
    return null;
  }
};

/**
 * The roots that sit in the middle of a file: their state parent is the node before them. Nodes come in
 * transcript order (file order, then line order) but carry no file, so the node before is taken to be the
 * line before in the same file only when nothing says it is another file's last line: the same side of a
 * subagent boundary (sidechain flag, agent id), the same Claude Code session id in both lines, and no step
 * back in time. A file's first line is usually a root too, and a session's next file starts elsewhere.
 */
export async function findMidFileRoots(nodes: readonly NodeSummary[], readRaw: ReadRaw, signal?: AbortSignal): Promise<ReadonlySet<number>> {
  const index = new Map<string, number>();
  nodes.forEach((node, i) => index.set(node.id, i));
  const found = new Set<number>();
  for (let i = 1; i < nodes.length; i++) {
    if (linkedParent(nodes, index, i) >= 0) continue;
    const before = nodes[i - 1]!;
    const node = nodes[i]!;
    if (before.sidechain !== node.sidechain || before.agentId !== node.agentId) continue;
    if (before.timestamp !== null && node.timestamp !== null && node.timestamp < before.timestamp) continue;
    throwIfAborted(signal);
    if (sessionIdOf(await readRaw(before.id)) !== sessionIdOf(await readRaw(node.id))) continue;
    found.add(i);
  }
  return found;
}

export function buildStateTree(nodes: readonly NodeSummary[], midFileRoots: ReadonlySet<number> = new Set()): StateTree {
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => index.set(node.id, i));
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) parent[i] = midFileRoots.has(i) ? i - 1 : linkedParent(nodes, index, i);

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
 * Depth-first over the tree, roots in transcript order, children in theirs: `enter` on the way down, `leave` once
 * the node's subtree is done. Iterative: 50k-deep chains must not touch the call stack (~i marks a node's exit).
 */
export function walkStateTree(tree: StateTree, signal: AbortSignal | undefined, enter: (i: number) => void, leave: (i: number) => void): void {
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
const CONVERSATION_KINDS = new Set(['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'compaction', 'merge-summary']);
/**
 * Kinds of the lines one assistant message is written as (FORMATS.md §1.2: one line per content block), and
 * the progress lines 2.1.3x threads between them.
 */
const MESSAGE_KINDS = new Set(['assistant', 'thinking', 'tool_call', 'progress']);

/** How far ahead in transcript order a hanging result's continuation is looked for. */
const CONTINUATION_LOOKAHEAD = 2_000;
const RESULT_KINDS = new Set(['tool_result', 'error']);

/**
 * Parallel tool calls are recorded as a fork (FORMATS.md §1.5): the message's lines a1→a2→…→aN each carry
 * one call, and each result hangs on its own call's line; the turn goes on below one of them, the others
 * are left hanging (alone, or with only side lines below them: hook progress, system notes). What a hanging
 * result did happened to the workspace all the same, so its edits and its may-write mark also take effect
 * at its continuation: the next node in transcript order, outside the result itself, that leads on to the
 * conversation and meets the result's path on a line of the same message (the call's line or one above it
 * in the message, reached through parentUuid links, progress lines included). For N calls the continuation of one hanging result may
 * be another hanging result of the batch: what is carried there is carried on with it, so every result of
 * the batch reaches the turn's continuation, whatever order the results arrived in.
 */
export function carryHangingResults(nodes: readonly NodeSummary[], tree: StateTree, effects: (NodeEffects | undefined)[]): void {
  const n = nodes.length;
  const childCount = (i: number) => tree.childEnd[i]! - tree.childStart[i]!;
  // leadsOn[i]: i is a conversation line or has one below it (a side line alone never continues a turn).
  const leadsOn = new Uint8Array(n);
  const order: number[] = [];
  const stack = tree.roots.slice();
  while (stack.length > 0) {
    const i = stack.pop()!;
    order.push(i);
    for (let c = tree.childStart[i]!; c < tree.childEnd[i]!; c++) stack.push(tree.children[c]!);
  }
  for (let o = order.length - 1; o >= 0; o--) {
    const i = order[o]!;
    if (CONVERSATION_KINDS.has(nodes[i]!.kind)) leadsOn[i] = 1;
    const p = tree.parent[i]!;
    if (leadsOn[i] === 1 && p >= 0) leadsOn[p] = 1;
  }
  const conversationBelow = (i: number) => {
    for (let c = tree.childStart[i]!; c < tree.childEnd[i]!; c++) if (leadsOn[tree.children[c]!] === 1) return true;
    return false;
  };
  const isChild = (child: number, parent: number) => tree.parent[child] === parent && nodes[child]!.parentId === nodes[parent]!.id;

  for (let i = 0; i < n; i++) {
    const effect = effects[i];
    if (effect === undefined || (effect.edits.length === 0 && (effect.carried?.length ?? 0) === 0 && effect.mayWrite === null)) continue;
    const call = tree.parent[i]!;
    if (!RESULT_KINDS.has(nodes[i]!.kind) || call < 0 || childCount(call) < 2 || conversationBelow(i)) continue;
    // The message's first line: walk up through the lines of the same message.
    let top = call;
    while (tree.parent[top]! >= 0 && MESSAGE_KINDS.has(nodes[tree.parent[top]!]!.kind) && isChild(top, tree.parent[top]!)) top = tree.parent[top]!;
    const topDepth = tree.depth[top]!;
    const end = Math.min(n, i + 1 + CONTINUATION_LOOKAHEAD);
    for (let k = i + 1; k < end; k++) {
      if (leadsOn[k] === 0 || tree.depth[k]! <= topDepth) continue;
      // Meet k's path with the call's: a, b climb to the same depth, then together.
      let a = k;
      let b = call;
      let below = -1; // the node just below the meeting point on k's side
      let inside = false; // k hangs below the result itself
      while (tree.depth[a]! > tree.depth[b]!) {
        if (a === i) inside = true;
        below = a;
        a = tree.parent[a]!;
      }
      while (tree.depth[b]! > tree.depth[a]!) b = tree.parent[b]!;
      while (a !== b && a >= 0 && b >= 0) {
        if (a === i) inside = true;
        below = a;
        a = tree.parent[a]!;
        b = tree.parent[b]!;
      }
      if (inside || a < 0 || a !== b || below < 0 || tree.depth[a]! < topDepth || !isChild(below, a)) continue;
      const target = (effects[k] ??= { edits: [], mayWrite: null });
      target.carried = [...(target.carried ?? []), ...(effect.carried ?? []), ...effect.edits];
      target.mayWrite ??= effect.mayWrite;
      break;
    }
  }
}
