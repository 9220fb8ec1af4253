/**
 * Which nodes an export holds, in reading order: the branch through a node as the conversation view shows it
 * (root → node → the end of its branch, following the graph's display tree: at a fork, branch 1 below the
 * node), with each subagent run folded in right after the call that spawned it. The walk is the conversation
 * view's own (graph/branch-walk.ts). Loops over typed arrays only: a 50k-node branch is walked without recursion.
 */
import type { NodeId, NodeSummary } from './model';
import type { WorkspaceNodeInfo } from './operations';
import { BRANCH_NONE, branchHeads, branchOrdinal, buildDisplayTree, classifyBranchPoints, type BranchOrdinal } from './graph/branch-points';
import { agentRunsOf, branchEnd, lineChild, pathTo, type BranchWalkStructure } from './graph/branch-walk';
import { buildSessionTree } from './graph/session-tree';

export interface ExportStep {
  readonly node: NodeSummary;
  /** The subagent run's root when the step is inside one (null on the branch itself). */
  readonly agentRun: NodeId | null;
  readonly branch: BranchOrdinal | null;
}

export interface ExportBranch {
  readonly steps: readonly ExportStep[];
  /** The branch's last node (null for an empty session). */
  readonly head: NodeId | null;
}

/**
 * The branch through `through` (a node id), or, for a whole session (`through` null), the branch through the
 * newest node of the main thread: the latest work. Progress and hook lines are left out (noise in a share).
 */
export function exportBranch(nodes: readonly NodeSummary[], workspaceNodes: readonly WorkspaceNodeInfo[], through: NodeId | null): ExportBranch {
  const session = buildSessionTree(nodes);
  const branches = classifyBranchPoints(session, branchHeads(session, workspaceNodes));
  const display = buildDisplayTree(session, branches);
  const structure: BranchWalkStructure = { session, branches, display };

  const selected = through === null ? newestMainNode(nodes) : (session.indexById.get(through) ?? -1);
  if (selected < 0) return { steps: [], head: null };
  // A node inside a subagent run is read under the call that spawned it, on the main line.
  const { leaf } = branchEnd(structure, selected);
  const up = pathTo(structure, leaf);

  const steps: ExportStep[] = [];
  const ordinalOf = (index: number): BranchOrdinal | null => {
    const parent = session.tree.parent[index]!;
    return parent >= 0 && branches.branch[parent] !== BRANCH_NONE ? branchOrdinal(session, branches, index, display) : null;
  };
  const push = (index: number, agentRun: NodeId | null): void => {
    const node = nodes[index]!;
    if (node.kind !== 'progress') steps.push({ node, agentRun, branch: agentRun === null ? ordinalOf(index) : null });
  };
  // Subagent runs (and runs they spawn) in reading order, with an explicit stack.
  const foldRuns = (index: number, outerRun: NodeId | null): void => {
    const stack: { at: number; run: NodeId }[] = [];
    const runsOf = (at: number): number[] => agentRunsOf(structure, at);
    for (const root of runsOf(index).reverse()) stack.push({ at: root, run: outerRun ?? nodes[root]!.id });
    while (stack.length > 0) {
      const { at, run } = stack.pop()!;
      push(at, run);
      const next = lineChild(structure, at);
      if (next >= 0) stack.push({ at: next, run });
      // Nested runs read before the rest of this run's line.
      for (const root of runsOf(at).reverse()) stack.push({ at: root, run });
    }
  };
  for (const index of up) {
    push(index, null);
    foldRuns(index, null);
  }
  return { steps, head: nodes[leaf]!.id };
}

function newestMainNode(nodes: readonly NodeSummary[]): number {
  let best = -1;
  let bestTime = '';
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.sidechain || node.kind === 'progress') continue;
    const time = node.timestamp ?? '';
    if (best < 0 || time >= bestTime) {
      best = i;
      bestTime = time;
    }
  }
  return best;
}
