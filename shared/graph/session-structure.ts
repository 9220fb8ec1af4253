/**
 * Everything about a session's shape that does not depend on what the user folded: the tree, its branch
 * points, the display tree and the foldable runs. Built once per session (in the layout worker).
 */
import type { NodeKind } from '../model';
import type { WorkspaceNodeInfo } from '../operations';
import { BRANCH_NONE, branchHeads, buildDisplayTree, classifyBranchPoints } from './branch-points';
import { breadthFirstOrder, subtreeSizes, type Forest } from './forest';
import { buildSessionTree, type GraphNode, type NodeLinks, type SessionTree } from './session-tree';

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
}

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
  const session = buildSessionTree(nodes, links);
  const branches = classifyBranchPoints(session, branchHeads(session, workspaceNodes));
  const display = buildDisplayTree(session, branches);
  const displaySize = subtreeSizes(display, breadthFirstOrder(display));
  const runs = findRuns(session, display, branches.branch, options.minRunLength);
  return { ...session, branch: branches.branch, branchWidth: branches.width, branchHead: branches.heads, display, displaySize, ...runs };
}

function findRuns(session: SessionTree, display: Forest, branch: Uint8Array, minLength: number) {
  const { nodes, agentRoot } = session;
  const size = display.size;
  const count = (i: number): number => display.childStart[i + 1]! - display.childStart[i]!;
  // A run member is a plain step with at most one visible child, so folding it hides no structure.
  const foldable = (i: number): boolean =>
    STEP_KINDS.has(nodes[i]!.kind) && branch[i] === BRANCH_NONE && agentRoot[i] === 0 && count(i) <= 1;
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
