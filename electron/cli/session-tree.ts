/**
 * `arbor tree`: a session as an indented text tree. Only real branch points (a rewind, an edited prompt, a
 * retried answer, a fork or merge Arbor made) open `├─`/`└─` branches — told by the graph's own rule
 * (shared/graph/branch-points.ts), so the text tree and the app agree. Recording artifacts (progress and hook
 * lines beside a step, parallel tool results hanging on their call lines, compaction roots) are spliced into
 * the line as the graph's display tree does and keep its indentation; the noise among them is marked `·`.
 * Iterative (an explicit stack): real sessions are chains tens of thousands of nodes deep.
 */
import type { NodeSummary, SessionGraph, ToolCallRef, ToolOutcome } from '../../shared/model';
import { assertNever } from '../../shared/errors';
import { BRANCH_NONE, branchHeads, branchOrdinal, buildDisplayTree, classifyBranchPoints } from '../../shared/graph/branch-points';
import type { Forest } from '../../shared/graph/forest';
import { NOISE_NONE, noiseOf } from '../../shared/graph/noise';
import { buildSessionTree } from '../../shared/graph/session-tree';
import { oneLine } from './format';

export interface TreeOptions {
  /** Prefix each line with the node's short id. */
  readonly ids?: boolean;
  /** Characters of label per line. */
  readonly labelWidth?: number;
}

/** Beyond this many nested forks the indentation stops growing and shows the depth as a number instead. */
const MAX_INDENT_LEVELS = 24;
/** Before a line Claude Code recorded beside a step (hook, progress, empty reply…): it is not a step. */
const ANNOTATION = '· ';

interface Frame {
  readonly node: number;
  /** Text before this node's line (guides and connector). */
  readonly lead: string;
  /** Guides inherited by this node's children. */
  readonly guide: string;
  readonly depth: number;
}

/** Lines of the tree, without a trailing newline on each. */
export function renderSessionTree(graph: SessionGraph, options: TreeOptions = {}): string[] {
  const nodes = graph.nodes;
  const session = buildSessionTree(nodes);
  const branches = classifyBranchPoints(session, branchHeads(session, graph.workspaceNodes));
  const display = buildDisplayTree(session, branches);
  const lines: string[] = [];
  const roots: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (display.parent[i]! < 0) roots.push(i);

  const walk = (root: number, lead: string, guide: string): void => {
    const stack: Frame[] = [{ node: root, lead, guide, depth: 0 }];
    while (stack.length > 0) {
      const frame = stack.pop() as Frame;
      const node = nodes[frame.node] as NodeSummary;
      const annotation = noiseOf(node.kind, node.label) === NOISE_NONE ? '' : ANNOTATION;
      lines.push(frame.lead + annotation + describeNode(node, options));
      const kids = childrenOf(display, frame.node);
      if (kids.length === 0) continue;
      const diverging = branches.branch[frame.node] === BRANCH_NONE ? [] : kids.filter((kid) => branchOrdinal(session, branches, kid, display) !== null);
      if (diverging.length < 2) {
        // One way on (the display tree's line child comes first): the line stays at this indentation; what
        // could not join it (a subagent run, a side with branches of its own) hangs off it as a twig first.
        stack.push({ node: kids[0]!, lead: frame.guide, guide: frame.guide, depth: frame.depth });
        pushTwigs(stack, kids.slice(1), frame);
        continue;
      }
      const depth = frame.depth + 1;
      const base = depth > MAX_INDENT_LEVELS ? depthMarker(frame.guide, depth) : frame.guide;
      for (let i = diverging.length - 1; i >= 0; i--) {
        const last = i === diverging.length - 1;
        stack.push({ node: diverging[i]!, lead: base + (last ? '└─ ' : '├─ '), guide: base + (last ? '   ' : '│  '), depth });
      }
      // Artifacts under a branch point (a hook line beside the rewound prompts) are twigs before the branches.
      pushTwigs(stack, kids.filter((kid) => !diverging.includes(kid)), frame);
    }
  };
  roots.forEach((root, i) => {
    if (roots.length === 1) walk(root, '', '');
    else walk(root, i === roots.length - 1 ? '└─ ' : '├─ ', i === roots.length - 1 ? '   ' : '│  ');
  });
  return lines;
}

function pushTwigs(stack: Frame[], twigs: readonly number[], frame: Frame): void {
  for (let i = twigs.length - 1; i >= 0; i--) stack.push({ node: twigs[i]!, lead: `${frame.guide}├─ `, guide: `${frame.guide}│  `, depth: frame.depth });
}

function childrenOf(forest: Forest, node: number): number[] {
  return Array.from(forest.children.subarray(forest.childStart[node]!, forest.childStart[node + 1]!));
}

/** Keeps the first levels of guides and replaces the rest with the fork depth, so deep lines stay readable. */
function depthMarker(guide: string, depth: number): string {
  return `${guide.slice(0, MAX_INDENT_LEVELS * 3)}┆${depth} `;
}

function describeNode(node: NodeSummary, options: TreeOptions): string {
  const id = options.ids === true ? `${node.id.slice(0, 8)} ` : '';
  const tags: string[] = [];
  if (node.sidechain) tags.push('subagent');
  for (const edge of node.extraEdges) tags.push(edgeTag(edge.kind));
  const label = oneLine(node.label, options.labelWidth ?? 100);
  const tools = node.toolCalls.length > 0 ? ` ${node.toolCalls.map((call) => toolMark(call, label)).join(' ')}` : '';
  return `${id}[${node.kind}] ${label}${tools}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}`;
}

function edgeTag(kind: NodeSummary['extraEdges'][number]['kind']): string {
  switch (kind) {
    case 'logical':
      return 'after compaction';
    case 'subagent':
      return 'subagent run';
    case 'fork-of':
      return 'forked';
    case 'continues':
      return 'continues';
    case 'follows':
      return 'follows';
    case 'merge':
      return 'merge';
    default:
      return assertNever(kind, 'edge kind');
  }
}

const OUTCOME_MARKS: { readonly [O in ToolOutcome]: string } = { ok: '✓', error: '✗', missing: '?' };

/** The outcome mark, after the tool's name unless the label already starts with it. */
function toolMark(call: ToolCallRef, label: string): string {
  return label.startsWith(call.name) ? OUTCOME_MARKS[call.outcome] : `${call.name}${OUTCOME_MARKS[call.outcome]}`;
}
