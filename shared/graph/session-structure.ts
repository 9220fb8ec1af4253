/**
 * Everything about a session's shape that does not depend on what the user folded: the tree, its branch
 * points, the display tree and the foldable runs. Built once per session (in the layout worker, from the
 * packed columns it receives: structureOfColumns).
 */
import type { NodeKind } from '../model';
import type { WorkspaceNodeInfo } from '../operations';
import { BRANCH_NONE, buildDisplayTree, classifyBranches, headsOf } from './branch-points';
import { breadthFirstOrder, subtreeSizes, type Forest } from './forest';
import { columnsOfNodes, kindCodes, type GraphColumns } from './graph-columns';
import { linksAndIndex, treeOfColumns, type GraphNode, type NodeLinks, type SessionTree } from './session-tree';

export interface StructureOptions {
  /** Linear runs of at least this many tool steps fold into one "N steps" node. */
  readonly minRunLength: number;
}

export const DEFAULT_STRUCTURE_OPTIONS: StructureOptions = { minRunLength: 4 };

export interface SessionStructure extends SessionTree {
  readonly branch: Uint8Array;
  readonly branchWidth: Int32Array;
  /** 1 on nodes Arbor added that start a branch of their own (forks, merges, manual snapshots). */
  readonly branchHead: Uint8Array;
  readonly display: Forest;
  /** Display-subtree size per node (what an agent fold hides). */
  readonly displaySize: Int32Array;
  /** Run index per node, or -1. */
  readonly runOf: Int32Array;
  readonly runStart: Int32Array;
  readonly runEnd: Int32Array;
  readonly runLength: Int32Array;
  /** Each node's kind as a code in `kindTable`, and its sidechain flag: what the turn overview reads, without the nodes. */
  readonly kindTable: readonly NodeKind[];
  readonly nodeKinds: Uint8Array;
  readonly nodeSidechain: Uint8Array;
}

/** The structure without the nodes and id map: what the layout worker builds and keeps, and sends to the view. */
export type StructureArrays = Omit<SessionStructure, 'nodes' | 'indexById'>;

/** Kinds that make up the mechanical middle of a turn; a run of them folds. Errors never fold. */
const STEP_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['tool_call', 'tool_result', 'progress', 'thinking']);

/**
 * `workspaceNodes`: the graph's `workspaceNodes` (which nodes Arbor added, and what they are). `links`: the
 * nodes' parents and edge ends as indices when known (session-tree.ts NodeLinks).
 */
export function buildSessionStructure(
  nodes: readonly GraphNode[],
  options: StructureOptions = DEFAULT_STRUCTURE_OPTIONS,
  workspaceNodes: readonly WorkspaceNodeInfo[] = [],
  links?: NodeLinks,
): SessionStructure {
  // The tree's id map (made on first use when the links are known) serves the columns' id lookups too.
  const { links: known, indexById } = linksAndIndex(nodes, links);
  return { nodes, indexById, ...structureOfColumns(columnsOfNodes(nodes, known, indexById), options, workspaceNodes) };
}

/** The structure's arrays straight from a session's columns (the layout worker's packed nodes). */
export function structureOfColumns(
  columns: GraphColumns,
  options: StructureOptions = DEFAULT_STRUCTURE_OPTIONS,
  workspaceNodes: readonly WorkspaceNodeInfo[] = [],
): StructureArrays {
  const session = treeOfColumns(columns);
  const heads = headsOf(columns.count, workspaceNodes, columns.indexOfId);
  const branches = classifyBranches(session.tree, columns, heads);
  const display = buildDisplayTree(session, branches);
  const displaySize = subtreeSizes(display, breadthFirstOrder(display));
  const runs = findRuns(columns, session.agentRoot, display, branches.branch, options.minRunLength);
  return {
    ...session,
    branch: branches.branch,
    branchWidth: branches.width,
    branchHead: branches.heads,
    display,
    displaySize,
    ...runs,
    kindTable: columns.kindTable,
    nodeKinds: columns.kinds,
    nodeSidechain: columns.sidechain,
  };
}

function findRuns(columns: GraphColumns, agentRoot: Uint8Array, display: Forest, branch: Uint8Array, minLength: number) {
  const step = kindCodes(columns, (kind) => STEP_KINDS.has(kind));
  const { kinds } = columns;
  const size = display.size;
  const count = (i: number): number => display.childStart[i + 1]! - display.childStart[i]!;
  // A run member is a plain step with at most one visible child, so folding it hides no structure.
  const foldable = (i: number): boolean => step[kinds[i]!] === 1 && branch[i] === BRANCH_NONE && agentRoot[i] === 0 && count(i) <= 1;
  const runOf = new Int32Array(size).fill(-1);
  const starts: number[] = [];
  const ends: number[] = [];
  const lengths: number[] = [];
  for (let i = 0; i < size; i++) {
    if (!foldable(i)) continue;
    const p = display.parent[i]!;
    if (p >= 0 && foldable(p)) continue; // i continues its parent's run
    let end = i;
    let length = 1;
    while (count(end) === 1) {
      const next = display.children[display.childStart[end]!]!;
      if (!foldable(next)) break;
      end = next;
      length++;
    }
    if (length < minLength) continue;
    const run = starts.length;
    starts.push(i);
    ends.push(end);
    lengths.push(length);
    for (let node = i; ; node = display.children[display.childStart[node]!]!) {
      runOf[node] = run;
      if (node === end) break;
    }
  }
  return { runOf, runStart: Int32Array.from(starts), runEnd: Int32Array.from(ends), runLength: Int32Array.from(lengths) };
}
