/**
 * The branch one reads: from the root through a node to the end of its branch, walking the graph's display
 * tree, so it follows the line the graph draws. Below a node the line takes the child the graph keeps in the
 * node's own column (at a fork or retry, branch 1, the oldest; elsewhere the transcript's line with recording
 * artifacts spliced in). Subagent runs are not on the line; they hang off the call that spawned them.
 * One walk for the conversation view (renderer/src/conversation/branch-path.ts) and the export
 * (shared/export-branch.ts). Loops over typed arrays only: a 50k-node branch is walked without recursion.
 */
import { BRANCH_NONE, branchOrdinal, type BranchPoints } from './branch-points';
import type { Forest } from './forest';
import type { SessionTree } from './session-tree';

/** What the walk reads: the session's tree, its branch points and the display tree built from them. */
export interface BranchWalkStructure {
  readonly session: SessionTree;
  readonly branches: BranchPoints;
  readonly display: Forest;
}

/** The child the line goes on with below `node`: branch 1 at a branch point, else the first non-agent child; -1 at the end. */
export function lineChild(structure: BranchWalkStructure, node: number): number {
  const { display, session, branches } = structure;
  const start = display.childStart[node]!;
  const end = display.childStart[node + 1]!;
  let first = -1;
  for (let c = start; c < end; c++) {
    const child = display.children[c]!;
    if (session.agentRoot[child] === 1) continue;
    if (first < 0) first = child;
    if (branches.branch[node] === BRANCH_NONE) break;
    if (branchOrdinal(session, branches, child, display)?.index === 1) return child;
  }
  return first;
}

/**
 * The last node of the branch through `selected` (-1 for none), which names the branch: the path is the
 * root's line down to it; and the outermost subagent run holding `selected` (-1 when on the main line), whose
 * nodes are read under the call that spawned it. O(the branch below the selection).
 */
export function branchEnd(structure: BranchWalkStructure, selected: number): { leaf: number; openAgent: number } {
  const { display, session } = structure;
  if (selected < 0 || selected >= display.size) return { leaf: -1, openAgent: -1 };
  let anchor = selected;
  let openAgent = -1;
  for (let at = selected; at >= 0; at = display.parent[at]!) {
    if (session.agentRoot[at] === 1 && display.parent[at]! >= 0) {
      openAgent = at;
      anchor = display.parent[at]!;
    }
  }
  let leaf = anchor;
  for (let at = lineChild(structure, anchor); at >= 0; at = lineChild(structure, at)) leaf = at;
  return { leaf, openAgent };
}

/** The display tree's line from the root down to `leaf`. */
export function pathTo(structure: BranchWalkStructure, leaf: number): Int32Array {
  const up: number[] = [];
  for (let at = leaf; at >= 0; at = structure.display.parent[at]!) up.push(at);
  return Int32Array.from(up.reverse());
}

/** A subagent run's own line, from its root down. */
export function agentRunPath(structure: BranchWalkStructure, root: number): Int32Array {
  const line: number[] = [];
  for (let at = root; at >= 0; at = lineChild(structure, at)) line.push(at);
  return Int32Array.from(line);
}

/** The subagent runs spawned below `node` (their roots, in display order). */
export function agentRunsOf(structure: BranchWalkStructure, node: number): number[] {
  const { display, session } = structure;
  const runs: number[] = [];
  const end = display.childStart[node + 1]!;
  for (let c = display.childStart[node]!; c < end; c++) if (session.agentRoot[display.children[c]!] === 1) runs.push(display.children[c]!);
  return runs;
}
