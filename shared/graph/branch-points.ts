/**
 * Real branch points versus recording artifacts (FORMATS.md §1.5).
 *
 * A node is a branch point when its children really diverge:
 * - fork: ≥2 children are typed user prompts with different timestamps (a /rewind, an edited prompt);
 * - retry: otherwise, ≥2 children are assistant lines (text, thinking or tool call) with different
 *   timestamps: the same turn was answered twice (an API retry, a regenerated answer). Parallel tool
 *   calls never give a node two assistant children (the second call hangs next to the first call's
 *   result, not next to another assistant line), so this does not fire on them.
 * Same-timestamp siblings are replays (compaction re-emits turns) and never count.
 *
 * Every other multi-child node is a recording artifact (parallel tool results, hook/progress leaves,
 * slash-command echoes, replays). The display tree draws those as one continuation: the child with the
 * largest subtree is the main line, and each other child whose subtree is a plain chain is spliced
 * into the line just before it, so the artifact does not look like a fork.
 */
import type { NodeKind } from '../model';
import { breadthFirstOrder, forestFromParents, subtreeSizes, type Forest } from './forest';
import type { GraphNode, SessionTree } from './session-tree';

export const BRANCH_NONE = 0;
export const BRANCH_FORK = 1;
export const BRANCH_RETRY = 2;

export interface BranchPoints {
  /** BRANCH_* per node. */
  readonly branch: Uint8Array;
  /** How many distinct branches leave a branch point (0 elsewhere). */
  readonly width: Int32Array;
}

const isAssistantLine = (kind: NodeKind): boolean => kind === 'assistant' || kind === 'thinking' || kind === 'tool_call';

/** Number of distinct timestamps among the children of `node` that are of the given kinds. */
function distinctTimestamps(tree: Forest, nodes: readonly GraphNode[], node: number, accept: (kind: NodeKind) => boolean): number {
  const seen: (string | null)[] = [];
  const end = tree.childStart[node + 1]!;
  for (let c = tree.childStart[node]!; c < end; c++) {
    const child = nodes[tree.children[c]!]!;
    if (accept(child.kind) && !seen.includes(child.timestamp)) seen.push(child.timestamp);
  }
  return seen.length;
}

export function classifyBranchPoints(session: SessionTree): BranchPoints {
  const { tree, nodes } = session;
  const branch = new Uint8Array(tree.size);
  const width = new Int32Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    if (tree.childStart[i + 1]! - tree.childStart[i]! < 2) continue;
    const prompts = distinctTimestamps(tree, nodes, i, (kind) => kind === 'user');
    if (prompts >= 2) {
      branch[i] = BRANCH_FORK;
      width[i] = prompts;
      continue;
    }
    const answers = distinctTimestamps(tree, nodes, i, isAssistantLine);
    if (answers >= 2) {
      branch[i] = BRANCH_RETRY;
      width[i] = answers;
    }
  }
  return { branch, width };
}

/** Which of its branch point's branches a node starts, as "1 of 2"; null for any other node. */
export interface BranchOrdinal {
  readonly index: number;
  readonly of: number;
}

/**
 * The branch `node` starts when it is a diverging child of a branch point (a rewound prompt under a
 * fork, an answer under a retry), numbered by first appearance in the transcript. Replays share the
 * number of the line they replay, so the numbers match the branch point's width.
 */
export function branchOrdinal(session: SessionTree, branches: BranchPoints, node: number): BranchOrdinal | null {
  const { tree, nodes } = session;
  const p = tree.parent[node]!;
  if (p < 0 || branches.branch[p] === BRANCH_NONE) return null;
  const accept = branches.branch[p] === BRANCH_FORK ? (kind: NodeKind) => kind === 'user' : isAssistantLine;
  if (!accept(nodes[node]!.kind)) return null;
  const seen: (string | null)[] = [];
  const end = tree.childStart[p + 1]!;
  for (let c = tree.childStart[p]!; c < end; c++) {
    const child = nodes[tree.children[c]!]!;
    if (accept(child.kind) && !seen.includes(child.timestamp)) seen.push(child.timestamp);
  }
  const index = seen.indexOf(nodes[node]!.timestamp);
  return index < 0 ? null : { index: index + 1, of: branches.width[p]! };
}

/**
 * The tree as drawn. Children of a branch point keep transcript order; at an artifact the main line
 * comes first. Subagent runs always stay children of their spawning call (they fold there).
 */
export function buildDisplayTree(session: SessionTree, branches: BranchPoints): Forest {
  const { tree, agentRoot } = session;
  const sizes = subtreeSizes(tree, breadthFirstOrder(tree));
  const parent = Int32Array.from(tree.parent);
  const mainChild = new Int32Array(tree.size).fill(-1);
  for (let p = 0; p < tree.size; p++) {
    const start = tree.childStart[p]!;
    const end = tree.childStart[p + 1]!;
    if (end - start < 2 || branches.branch[p] !== BRANCH_NONE) continue;
    let main = -1;
    for (let c = start; c < end; c++) {
      const child = tree.children[c]!;
      if (agentRoot[child] === 1) continue;
      if (main < 0 || sizes[child]! >= sizes[main]!) main = child;
    }
    if (main < 0) continue;
    let last = p;
    for (let c = start; c < end; c++) {
      const side = tree.children[c]!;
      if (side === main || agentRoot[side] === 1) continue;
      const tail = chainTail(tree, agentRoot, side, sizes[side]!);
      if (tail < 0) continue; // a side with its own branching stays a visible child
      parent[side] = last;
      last = tail;
    }
    parent[main] = last;
    mainChild[p] = main;
  }
  const display = forestFromParents(parent);
  // Put each artifact's main line first so the lane layout keeps it in the parent's column.
  for (let p = 0; p < tree.size; p++) {
    const main = mainChild[p]!;
    if (main < 0 || display.parent[main] !== p) continue;
    const start = display.childStart[p]!;
    const end = display.childStart[p + 1]!;
    for (let c = start; c < end; c++) {
      if (display.children[c] !== main) continue;
      display.children.copyWithin(start + 1, start, c);
      display.children[start] = main;
      break;
    }
  }
  return display;
}

/**
 * The last node of `head`'s subtree when that subtree is a plain chain of `size` nodes, else -1.
 * A chain that runs into a subagent run is not spliced: the main line would vanish into the agent's fold.
 */
function chainTail(tree: Forest, agentRoot: Uint8Array, head: number, size: number): number {
  let node = head;
  let length = 1;
  while (tree.childStart[node + 1]! - tree.childStart[node]! === 1) {
    node = tree.children[tree.childStart[node]!]!;
    if (agentRoot[node] === 1) return -1;
    length++;
  }
  return length === size ? node : -1;
}
