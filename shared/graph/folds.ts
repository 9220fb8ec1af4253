/**
 * Folding: subagent runs fold under their spawning call, linear runs of tool steps fold into one
 * "N steps" node. Folds are folded by default; the user's expansions are a set of fold ids.
 */
import type { NodeId } from '../model';
import { forestFromParents, type Forest } from './forest';
import type { SessionStructure } from './session-structure';

export type FoldId = string;

export const ITEM_NODE = 0;
export const ITEM_RUN = 1;
export const ITEM_AGENT = 2;
export type ItemKind = typeof ITEM_NODE | typeof ITEM_RUN | typeof ITEM_AGENT;

/** What is on screen: real nodes and fold groups, as a forest over item indices in preorder. */
export interface VisibleGraph {
  readonly count: number;
  /** ITEM_* per item. */
  readonly kind: Uint8Array;
  /** The node itself, a run's first node, or an agent run's root. */
  readonly node: Int32Array;
  /** A run's last node; the same as `node` otherwise. */
  readonly lastNode: Int32Array;
  /** How many session nodes the item stands for (1 for a node). */
  readonly hidden: Int32Array;
  readonly forest: Forest;
}

const RUN_PREFIX = 'run:';
const AGENT_PREFIX = 'agent:';

export function runFoldId(firstNodeId: NodeId): FoldId {
  return RUN_PREFIX + firstNodeId;
}

export function agentFoldId(agentRootId: NodeId): FoldId {
  return AGENT_PREFIX + agentRootId;
}

/** The fold id of a group item, or null for a node item. */
export function foldIdOfItem(structure: SessionStructure, visible: VisibleGraph, item: number): FoldId | null {
  const kind = visible.kind[item];
  const id = structure.nodes[visible.node[item]!]!.id;
  return kind === ITEM_RUN ? runFoldId(id) : kind === ITEM_AGENT ? agentFoldId(id) : null;
}

export function toggleFold(expanded: ReadonlySet<FoldId>, fold: FoldId): ReadonlySet<FoldId> {
  const next = new Set(expanded);
  if (!next.delete(fold)) next.add(fold);
  return next;
}

/** The expansions that make `nodeIndex` visible as itself: its run and every agent run above it. */
export function revealNode(structure: SessionStructure, expanded: ReadonlySet<FoldId>, nodeIndex: number): ReadonlySet<FoldId> {
  const next = new Set(expanded);
  const run = structure.runOf[nodeIndex]!;
  if (run >= 0) next.add(runFoldId(structure.nodes[structure.runStart[run]!]!.id));
  for (let node = nodeIndex; node >= 0; node = structure.display.parent[node]!) {
    if (structure.agentRoot[node] === 1) next.add(agentFoldId(structure.nodes[node]!.id));
  }
  return next.size === expanded.size ? expanded : next;
}

export function buildVisibleGraph(structure: SessionStructure, expanded: ReadonlySet<FoldId>): VisibleGraph {
  const { display, nodes } = structure;
  const kind: number[] = [];
  const node: number[] = [];
  const lastNode: number[] = [];
  const hidden: number[] = [];
  const parent: number[] = [];
  // Depth-first, children pushed in reverse so items come out in preorder with children in order.
  const stackNode: number[] = [];
  const stackParent: number[] = [];
  const pushChildren = (of: number, itemParent: number): void => {
    for (let c = display.childStart[of + 1]! - 1; c >= display.childStart[of]!; c--) {
      stackNode.push(display.children[c]!);
      stackParent.push(itemParent);
    }
  };
  for (let r = display.roots.length - 1; r >= 0; r--) {
    stackNode.push(display.roots[r]!);
    stackParent.push(-1);
  }
  while (stackNode.length > 0) {
    const v = stackNode.pop()!;
    const itemParent = stackParent.pop()!;
    const item = kind.length;
    parent.push(itemParent);
    node.push(v);
    if (structure.agentRoot[v] === 1 && !expanded.has(agentFoldId(nodes[v]!.id))) {
      kind.push(ITEM_AGENT);
      lastNode.push(v);
      hidden.push(structure.displaySize[v]!);
      continue;
    }
    const run = structure.runOf[v]!;
    if (run >= 0 && structure.runStart[run] === v && !expanded.has(runFoldId(nodes[v]!.id))) {
      const end = structure.runEnd[run]!;
      kind.push(ITEM_RUN);
      lastNode.push(end);
      hidden.push(structure.runLength[run]!);
      pushChildren(end, item);
      continue;
    }
    kind.push(ITEM_NODE);
    lastNode.push(v);
    hidden.push(1);
    pushChildren(v, item);
  }
  return {
    count: kind.length,
    kind: Uint8Array.from(kind),
    node: Int32Array.from(node),
    lastNode: Int32Array.from(lastNode),
    hidden: Int32Array.from(hidden),
    forest: forestFromParents(Int32Array.from(parent)),
  };
}

/** For each session node, the item that shows it as itself or as the start of a group; -1 otherwise. */
export function itemByNode(structure: SessionStructure, visible: VisibleGraph): Int32Array {
  const map = new Int32Array(structure.nodes.length).fill(-1);
  for (let item = 0; item < visible.count; item++) map[visible.node[item]!] = item;
  return map;
}

/**
 * The item a node is drawn as: itself, the run group hiding it, or the outermost folded agent run
 * above it. Walks up the display tree, so O(depth).
 */
export function itemShowingNode(structure: SessionStructure, visible: VisibleGraph, byNode: Int32Array, nodeIndex: number): number {
  let outerAgent = -1;
  for (let node = nodeIndex; node >= 0; node = structure.display.parent[node]!) {
    const item = byNode[node]!;
    if (item >= 0 && visible.kind[item] === ITEM_AGENT) outerAgent = item;
  }
  if (outerAgent >= 0) return outerAgent;
  const own = byNode[nodeIndex]!;
  if (own >= 0) return own;
  const run = structure.runOf[nodeIndex]!;
  return run >= 0 ? byNode[structure.runStart[run]!]! : -1;
}
