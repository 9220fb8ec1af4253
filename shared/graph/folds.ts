/**
 * Folding: subagent runs fold under their spawning call, linear runs of tool steps fold into one
 * "N steps" node. Folds are folded by default; the user's expansions are a set of fold ids.
 */
import type { NodeId } from '../model';
import { forestFromParents, type Forest } from './forest';
import type { SessionStructure, StructureArrays } from './session-structure';

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
  /** Lines a filter hid that hang on this item (noise and filtered kinds; drawn as an annotation). */
  readonly hiddenLines: Int32Array;
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

/**
 * Whether a line a filter asked to hide really goes: subagent runs, branch points and Arbor's branch
 * heads carry structure (folds, lanes, badges), so they stay whatever the filter says.
 */
export function canHide(structure: StructureArrays, hide: Uint8Array | null, index: number): boolean {
  return hide !== null && hide[index] === 1 && structure.agentRoot[index] === 0 && structure.branch[index] === 0 && structure.branchHead[index] === 0;
}

/**
 * `hide` (1 per node to leave out, e.g. noise or a filtered kind): a hidden node draws no item; its
 * children re-hang on the nearest shown ancestor, which counts it in `hiddenLines`. `idOf`: a node's id
 * (what fold ids are made of), for a structure without its nodes (the layout worker's).
 */
export function buildVisibleGraph(structure: SessionStructure, expanded: ReadonlySet<FoldId>, hide?: Uint8Array | null): VisibleGraph;
export function buildVisibleGraph(structure: StructureArrays, expanded: ReadonlySet<FoldId>, hide: Uint8Array | null, idOf: (node: number) => NodeId): VisibleGraph;
export function buildVisibleGraph(
  structure: StructureArrays & Partial<Pick<SessionStructure, 'nodes'>>,
  expanded: ReadonlySet<FoldId>,
  hide: Uint8Array | null = null,
  idOf: (node: number) => NodeId = (node) => structure.nodes![node]!.id,
): VisibleGraph {
  const { display } = structure;
  const kind: number[] = [];
  const node: number[] = [];
  const lastNode: number[] = [];
  const hidden: number[] = [];
  const hiddenLines: number[] = [];
  const parent: number[] = [];
  // Depth-first, children pushed in reverse so items come out in preorder with children in order.
  const stackNode: number[] = [];
  const stackParent: number[] = [];
  /** Hidden lines above a root that no item took yet: the first item below them does. */
  const stackCarry: number[] = [];
  const pushChildren = (of: number, itemParent: number, carry = 0): void => {
    for (let c = display.childStart[of + 1]! - 1; c >= display.childStart[of]!; c--) {
      stackNode.push(display.children[c]!);
      stackParent.push(itemParent);
      // Only the first child takes the carry, so a hidden root is counted once.
      stackCarry.push(c === display.childStart[of] ? carry : 0);
    }
  };
  for (let r = display.roots.length - 1; r >= 0; r--) {
    stackNode.push(display.roots[r]!);
    stackParent.push(-1);
    stackCarry.push(0);
  }
  while (stackNode.length > 0) {
    const v = stackNode.pop()!;
    const itemParent = stackParent.pop()!;
    const carry = stackCarry.pop()!;
    const run = structure.runOf[v]!;
    const foldedRunStart = run >= 0 && structure.runStart[run] === v && !expanded.has(runFoldId(idOf(v)));
    if (!foldedRunStart && canHide(structure, hide, v)) {
      if (itemParent >= 0) hiddenLines[itemParent]!++;
      pushChildren(v, itemParent, itemParent >= 0 ? 0 : carry + 1);
      continue;
    }
    const item = kind.length;
    parent.push(itemParent);
    node.push(v);
    hiddenLines.push(carry);
    if (structure.agentRoot[v] === 1 && !expanded.has(agentFoldId(idOf(v)))) {
      kind.push(ITEM_AGENT);
      lastNode.push(v);
      hidden.push(structure.displaySize[v]!);
      continue;
    }
    if (foldedRunStart) {
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
    hiddenLines: Int32Array.from(hiddenLines),
    forest: forestFromParents(Int32Array.from(parent)),
  };
}

/**
 * The hidden lines that hang on `nodeIndex` (what its annotation counts): its display children a filter
 * hid, and theirs, down to the next shown node.
 */
export function absorbedLines(structure: SessionStructure, hide: Uint8Array | null, nodeIndex: number): number[] {
  const { display } = structure;
  const found: number[] = [];
  // Hidden lines above a step with no shown step above them (a SessionStart hook at the root) hang on it too.
  const above: number[] = [];
  let up = display.parent[nodeIndex]!;
  while (up >= 0 && canHide(structure, hide, up)) {
    above.push(up);
    up = display.parent[up]!;
  }
  if (up < 0) found.push(...above);
  const stack = [nodeIndex];
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (let c = display.childStart[at]!; c < display.childStart[at + 1]!; c++) {
      const child = display.children[c]!;
      if (!canHide(structure, hide, child)) continue;
      found.push(child);
      stack.push(child);
    }
  }
  return found;
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
  // A node a filter hid shows as its nearest shown ancestor (where its annotation is).
  for (let node = nodeIndex; node >= 0; node = structure.display.parent[node]!) {
    const own = byNode[node]!;
    if (own >= 0) return own;
    const run = structure.runOf[node]!;
    const group = run >= 0 ? byNode[structure.runStart[run]!]! : -1;
    if (group >= 0 && visible.kind[group] === ITEM_RUN) return group;
  }
  return -1;
}
