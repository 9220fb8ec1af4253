/**
 * The conversation view reads one branch: the path from the root through the selected node to the end of
 * its branch, walked by shared/graph/branch-walk.ts (the export walks the same one), and turns it into rows.
 * Everything is loops over typed arrays (50k-node branches).
 */
import type { NodeSummary } from '../../../shared/model';
import type { WorkspaceNodeInfo } from '../../../shared/operations';
import {
  BRANCH_NONE,
  branchHeads,
  branchOrdinal,
  buildDisplayTree,
  classifyBranchPoints,
  type BranchOrdinal,
  type BranchPoints,
} from '../../../shared/graph/branch-points';
import { agentRunPath, branchEnd, lineChild, pathTo } from '../../../shared/graph/branch-walk';
import type { Forest } from '../../../shared/graph/forest';
import { buildSessionTree, type SessionTree } from '../../../shared/graph/session-tree';
import type { SessionStructure } from '../../../shared/graph/session-structure';

export interface ConversationStructure {
  readonly nodes: readonly NodeSummary[];
  readonly session: SessionTree;
  readonly branches: BranchPoints;
  readonly display: Forest;
}

export function buildConversationStructure(nodes: readonly NodeSummary[], workspaceNodes: readonly WorkspaceNodeInfo[] = []): ConversationStructure {
  const session = buildSessionTree(nodes);
  const branches = classifyBranchPoints(session, branchHeads(session, workspaceNodes));
  return { nodes, session, branches, display: buildDisplayTree(session, branches) };
}

const ofTree = new WeakMap<SessionStructure, ConversationStructure>();

/** The conversation's view of the shared session tree (state/session-trees.ts): the same arrays, nothing rebuilt. */
export function conversationStructureOf(tree: SessionStructure): ConversationStructure {
  let structure = ofTree.get(tree);
  if (structure === undefined) {
    const branches: BranchPoints = { branch: tree.branch, width: tree.branchWidth, heads: tree.branchHead };
    structure = { nodes: tree.nodes as readonly NodeSummary[], session: tree, branches, display: tree.display };
    ofTree.set(tree, structure);
  }
  return structure;
}

export { agentRunPath, branchEnd, lineChild, pathTo };

/** The path shown, and the subagent run the selection sits in (opened under its call), if any. */
export interface BranchPath {
  readonly path: Int32Array;
  /** The outermost subagent run's root that holds the selected node, or -1. */
  readonly openAgent: number;
}

/** The branch through `selected` (a node index); an empty path for -1. */
export function branchPath(structure: ConversationStructure, selected: number): BranchPath {
  const { leaf, openAgent } = branchEnd(structure, selected);
  return { path: pathTo(structure, leaf), openAgent };
}

export type RowKind = 'message' | 'annotation' | 'compaction';

export interface ConversationRow {
  /** The node the row shows (index into the session's nodes). */
  readonly node: number;
  readonly kind: RowKind;
  /** Subagent runs spawned by this node's calls (their roots). */
  readonly agentRuns: readonly number[];
  /** Set when the row's node starts one branch of a branch point ("branch 2 of 3"). */
  readonly ordinal: BranchOrdinal | null;
}

export interface ConversationRows {
  readonly rows: readonly ConversationRow[];
  /** Per node index: the row that shows it (a result shows under its call; a progress line under the row before), or -1. */
  readonly rowOfNode: Int32Array;
}

const NO_RUNS: readonly number[] = Object.freeze([]);

/**
 * One row per step worth reading. A tool result is drawn inline under its call, so it is no row of its own
 * (selecting it selects the call's row); progress and hook lines are noise and fold into the row before.
 */
export function conversationRows(structure: ConversationStructure, path: Int32Array): ConversationRows {
  const { nodes, session, branches, display } = structure;
  const rows: ConversationRow[] = [];
  const rowOfNode = new Int32Array(nodes.length).fill(-1);
  const pending: number[] = []; // progress lines before the first row
  for (let k = 0; k < path.length; k++) {
    const node = path[k]!;
    const summary = nodes[node]!;
    const parent = session.tree.parent[node]!;
    if (summary.kind === 'progress') {
      if (rows.length > 0) rowOfNode[node] = rows.length - 1;
      else pending.push(node);
      continue;
    }
    // Progress and hook lines may sit between a call and its result in the parent chain.
    let caller = parent;
    while (caller >= 0 && nodes[caller]!.kind === 'progress') caller = session.tree.parent[caller]!;
    if (caller >= 0 && rowOfNode[caller]! >= 0 && isResultOf(summary, nodes[caller]!)) {
      rowOfNode[node] = rowOfNode[caller]!;
      continue;
    }
    let agentRuns = NO_RUNS;
    const end = display.childStart[node + 1]!;
    for (let c = display.childStart[node]!; c < end; c++) {
      const child = display.children[c]!;
      if (session.agentRoot[child] !== 1) continue;
      if (agentRuns === NO_RUNS) agentRuns = [];
      (agentRuns as number[]).push(child);
    }
    const ordinal = parent >= 0 && branches.branch[parent] !== BRANCH_NONE ? branchOrdinal(session, branches, node, display) : null;
    rowOfNode[node] = rows.length;
    rows.push({ node, kind: rowKind(summary), agentRuns, ordinal });
  }
  for (const node of pending) rowOfNode[node] = rows.length > 0 ? 0 : -1;
  return { rows, rowOfNode };
}

function rowKind(node: NodeSummary): RowKind {
  // A merge summary is a divider too: Arbor's handover of the other branch, not a message anyone typed.
  if (node.kind === 'compaction' || node.kind === 'merge-summary') return 'compaction';
  if (node.kind === 'system') return 'annotation';
  return 'message';
}

/** A tool result line (or a failed one) that answers a call of the line it hangs under. */
function isResultOf(node: NodeSummary, parent: NodeSummary): boolean {
  if (parent.kind !== 'tool_call' || parent.toolCalls.length === 0) return false;
  if (node.kind === 'tool_result') return true;
  return node.kind === 'error' && parent.toolCalls.some((call) => call.outcome === 'error');
}

/**
 * The first node of the sibling branch `direction` steps from the one `node` starts (‹ ›, [ and ]), or -1.
 * `node` must start a branch (its row has an ordinal).
 */
export function siblingBranch(structure: ConversationStructure, node: number, direction: 1 | -1): number {
  const { session, branches, display } = structure;
  const ordinal = branchOrdinal(session, branches, node, display);
  const parent = session.tree.parent[node]!;
  if (ordinal === null || parent < 0) return -1;
  const wanted = ordinal.index + direction;
  if (wanted < 1 || wanted > ordinal.of) return -1;
  const end = session.tree.childStart[parent + 1]!;
  for (let c = session.tree.childStart[parent]!; c < end; c++) {
    const child = session.tree.children[c]!;
    if (branchOrdinal(session, branches, child, display)?.index === wanted) return child;
  }
  return -1;
}

/** The nearest row at or above `row` that starts a branch, or -1 ([ and ] switch that one). */
export function branchRowAbove(rows: readonly ConversationRow[], row: number): number {
  for (let r = Math.min(row, rows.length - 1); r >= 0; r--) if (rows[r]!.ordinal !== null) return r;
  return -1;
}

/** The next (+1) or previous (-1) prompt row from `row`, or -1 (n and p). */
export function promptRow(structure: ConversationStructure, rows: readonly ConversationRow[], row: number, direction: 1 | -1): number {
  for (let r = row + direction; r >= 0 && r < rows.length; r += direction) if (structure.nodes[rows[r]!.node]!.kind === 'user') return r;
  return -1;
}
