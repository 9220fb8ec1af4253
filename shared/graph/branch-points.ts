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
 * - workspace: otherwise, a child is a node Arbor added that starts a line of its own (a fork, a merge, a
 *   manual snapshot: a "branch head"). Heads also widen a fork or retry they hang under.
 *
 * Every other multi-child node is a recording artifact (parallel tool results, hook/progress leaves,
 * slash-command echoes, replays). The display tree draws those as one continuation: the child with the
 * largest subtree is the main line, and each other child whose subtree is a plain chain is spliced
 * into the line just before it, so the artifact does not look like a fork. Branch heads are never
 * spliced: they keep their own lane beside the line.
 */
import type { NodeKind } from '../model';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../operations';
import { breadthFirstOrder, forestFromParents, subtreeSizes, type Forest } from './forest';
import { factsOfNodes, kindCodes, type NodeFacts } from './graph-columns';
import type { SessionTree } from './session-tree';

export const BRANCH_NONE = 0;
export const BRANCH_FORK = 1;
export const BRANCH_RETRY = 2;
export const BRANCH_WORKSPACE = 3;

export interface BranchPoints {
  /** BRANCH_* per node. */
  readonly branch: Uint8Array;
  /** How many distinct branches leave a branch point (0 elsewhere). */
  readonly width: Int32Array;
  /** 1 on a node Arbor added that starts a branch of its own (see branchHeads). */
  readonly heads: Uint8Array;
}

/**
 * Arbor's nodes that are branches, not steps: a fork's new line, a merge result and a manual snapshot
 * (which, once the session went on past it, is a side leaf, not a step before the next one). Hook
 * snapshots follow their tool call like a progress line and stay in the line.
 */
const HEAD_KINDS: ReadonlySet<WorkspaceNodeKind> = new Set<WorkspaceNodeKind>(['fork', 'merge', 'snapshot']);

/** Whether a node Arbor added of this kind starts a branch of its own (HEAD_KINDS). */
export function isBranchHeadKind(kind: WorkspaceNodeKind): boolean {
  return HEAD_KINDS.has(kind);
}

/** One child of a node, as classifyBranches reads it. */
export interface ChildFacts {
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  /** A branch head (branchHeads). */
  readonly head: boolean;
}

/**
 * classifyBranches for one node from its children alone: the width of the workspace branch point it is, 0 when
 * it is none (a fork or a retry, or no branch head under it). What a caller that never holds the whole tree
 * counts (electron/service/arbor-node-pages.ts); the unit test holds it equal to classifyBranches.
 */
export function workspaceBranchWidth(children: readonly ChildFacts[]): number {
  if (children.length < 2) return 0;
  const added = children.reduce((sum, child) => sum + (child.head ? 1 : 0), 0);
  const distinct = (accept: (kind: NodeKind) => boolean): number => new Set(children.filter((child) => !child.head && accept(child.kind)).map((child) => child.timestamp)).size;
  if (added === 0 || distinct((kind) => kind === 'user') >= 2 || distinct(isAssistantLine) >= 2) return 0;
  return added + (children.length > added ? 1 : 0);
}

/** Marks the branch heads among `workspaceNodes` (ids not in the session are ignored). O(workspace nodes). */
export function branchHeads(session: SessionTree, workspaceNodes: readonly WorkspaceNodeInfo[] = []): Uint8Array {
  return headsOf(session.tree.size, workspaceNodes, (id) => session.indexById.get(id) ?? -1);
}

/** branchHeads over `count` nodes, with ids found by `indexOfId` (-1 for an id not in the session). */
export function headsOf(count: number, workspaceNodes: readonly WorkspaceNodeInfo[], indexOfId: (id: string) => number): Uint8Array {
  const heads = new Uint8Array(count);
  for (const info of workspaceNodes) {
    if (!HEAD_KINDS.has(info.kind)) continue;
    const index = indexOfId(info.nodeId);
    if (index >= 0) heads[index] = 1;
  }
  return heads;
}

const isAssistantLine = (kind: NodeKind): boolean => kind === 'assistant' || kind === 'thinking' || kind === 'tool_call';

/** Number of distinct timestamps among the children of `node` (branch heads aside) whose kind code `accept` marks. */
function distinctTimestamps(tree: Forest, facts: NodeFacts, heads: Uint8Array, node: number, accept: Uint8Array): number {
  const seen: (string | null)[] = [];
  const end = tree.childStart[node + 1]!;
  for (let c = tree.childStart[node]!; c < end; c++) {
    const index = tree.children[c]!;
    if (heads[index] !== 0 || accept[facts.kinds[index]!] !== 1) continue;
    const timestamp = facts.timestampOf(index);
    if (!seen.includes(timestamp)) seen.push(timestamp);
  }
  return seen.length;
}

function headChildren(tree: Forest, heads: Uint8Array, node: number): number {
  let count = 0;
  const end = tree.childStart[node + 1]!;
  for (let c = tree.childStart[node]!; c < end; c++) count += heads[tree.children[c]!]!;
  return count;
}

/** `heads` from branchHeads(); without it only the transcript's own branches count. */
export function classifyBranchPoints(session: SessionTree, heads: Uint8Array = new Uint8Array(session.tree.size)): BranchPoints {
  return classifyBranches(session.tree, factsOfNodes(session.nodes), heads);
}

/** classifyBranchPoints over a tree and its nodes' facts (the layout worker's columns). */
export function classifyBranches(tree: Forest, facts: NodeFacts, heads: Uint8Array): BranchPoints {
  const branch = new Uint8Array(tree.size);
  const width = new Int32Array(tree.size);
  const prompt = kindCodes(facts, (kind) => kind === 'user');
  const answer = kindCodes(facts, isAssistantLine);
  for (let i = 0; i < tree.size; i++) {
    const children = tree.childStart[i + 1]! - tree.childStart[i]!;
    if (children < 2) continue;
    const added = headChildren(tree, heads, i);
    const prompts = distinctTimestamps(tree, facts, heads, i, prompt);
    if (prompts >= 2) {
      branch[i] = BRANCH_FORK;
      width[i] = prompts + added;
      continue;
    }
    const answers = distinctTimestamps(tree, facts, heads, i, answer);
    if (answers >= 2) {
      branch[i] = BRANCH_RETRY;
      width[i] = answers + added;
      continue;
    }
    if (added > 0) {
      // The transcript's own continuation (however many artifact children make it up) is one branch.
      branch[i] = BRANCH_WORKSPACE;
      width[i] = added + (children > added ? 1 : 0);
    }
  }
  return { branch, width, heads };
}

/** Which of its branch point's branches a node starts, as "1 of 2"; null for any other node. */
export interface BranchOrdinal {
  readonly index: number;
  readonly of: number;
}

/**
 * The branch `node` starts when it is a diverging child of a branch point (a rewound prompt under a
 * fork, an answer under a retry), numbered by first appearance in the transcript. Replays share the
 * number of the line they replay, so the numbers match the branch point's width. Branch heads (forks,
 * merges, snapshots) come after the transcript's branches; under a workspace branch point the line the
 * transcript goes on with is branch 1, found through `display` (its first child there).
 */
export function branchOrdinal(session: SessionTree, branches: BranchPoints, node: number, display: Forest | null = null): BranchOrdinal | null {
  const { tree, nodes } = session;
  const p = tree.parent[node]!;
  if (p < 0 || branches.branch[p] === BRANCH_NONE) return null;
  const of = branches.width[p]!;
  const start = tree.childStart[p]!;
  const end = tree.childStart[p + 1]!;
  if (branches.heads[node] === 1) {
    let before = 0;
    for (let c = start; c < end && tree.children[c] !== node; c++) before += branches.heads[tree.children[c]!]!;
    return { index: of - headChildren(tree, branches.heads, p) + before + 1, of };
  }
  if (branches.branch[p] === BRANCH_WORKSPACE) {
    const first = display !== null && display.childStart[p]! < display.childStart[p + 1]! ? display.children[display.childStart[p]!]! : -1;
    return first === node ? { index: 1, of } : null;
  }
  const accept = branches.branch[p] === BRANCH_FORK ? (kind: NodeKind) => kind === 'user' : isAssistantLine;
  if (!accept(nodes[node]!.kind)) return null;
  const seen: (string | null)[] = [];
  for (let c = start; c < end; c++) {
    const index = tree.children[c]!;
    const child = nodes[index]!;
    if (branches.heads[index] === 0 && accept(child.kind) && !seen.includes(child.timestamp)) seen.push(child.timestamp);
  }
  const index = seen.indexOf(nodes[node]!.timestamp);
  return index < 0 ? null : { index: index + 1, of };
}

/**
 * The tree as drawn. Children of a fork or retry keep transcript order; elsewhere the transcript's line
 * comes first (the artifact spliced into it) and branch heads follow it in lanes of their own. Subagent
 * runs always stay children of their spawning call (they fold there).
 */
export function buildDisplayTree(session: Pick<SessionTree, 'tree' | 'agentRoot'>, branches: BranchPoints): Forest {
  const { tree, agentRoot } = session;
  const { heads } = branches;
  const sizes = subtreeSizes(tree, breadthFirstOrder(tree));
  const parent = Int32Array.from(tree.parent);
  /** The child that carries the line on below each artifact (the first spliced side, else the main line). */
  const lineChild = new Int32Array(tree.size).fill(-1);
  const keepsOwnChild = (child: number): boolean => agentRoot[child] === 1 || heads[child] === 1;
  for (let p = 0; p < tree.size; p++) {
    const start = tree.childStart[p]!;
    const end = tree.childStart[p + 1]!;
    if (end - start < 2 || branches.branch[p] === BRANCH_FORK || branches.branch[p] === BRANCH_RETRY) continue;
    let main = -1;
    for (let c = start; c < end; c++) {
      const child = tree.children[c]!;
      if (keepsOwnChild(child)) continue;
      if (main < 0 || sizes[child]! >= sizes[main]!) main = child;
    }
    if (main < 0) continue;
    let last = p;
    for (let c = start; c < end; c++) {
      const side = tree.children[c]!;
      if (side === main || keepsOwnChild(side)) continue;
      const tail = chainTail(tree, agentRoot, side, sizes[side]!);
      if (tail < 0) continue; // a side with its own branching stays a visible child
      parent[side] = last;
      if (last === p) lineChild[p] = side;
      last = tail;
    }
    parent[main] = last;
    if (last === p) lineChild[p] = main;
  }
  const display = forestFromParents(parent);
  // Put each line first so the lane layout keeps it in the parent's column.
  for (let p = 0; p < tree.size; p++) {
    const line = lineChild[p]!;
    if (line < 0) continue;
    const start = display.childStart[p]!;
    const end = display.childStart[p + 1]!;
    for (let c = start; c < end; c++) {
      if (display.children[c] !== line) continue;
      display.children.copyWithin(start + 1, start, c);
      display.children[start] = line;
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
