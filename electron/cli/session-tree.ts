/**
 * `arbor tree`: a session as an indented text tree. Iterative (an explicit stack), because real sessions
 * are chains tens of thousands of nodes deep; a linear run stays at the same indentation and only a real
 * fork adds a `├─`/`└─` level, so a long conversation reads like a log rather than a staircase.
 */
import type { NodeId, NodeSummary, SessionGraph, ToolCallRef, ToolOutcome } from '../../shared/model';
import { assertNever } from '../../shared/errors';
import { oneLine } from './format';

export interface TreeOptions {
  /** Prefix each line with the node's short id. */
  readonly ids?: boolean;
  /** Characters of label per line. */
  readonly labelWidth?: number;
}

/** Beyond this many nested forks the indentation stops growing and shows the depth as a number instead. */
const MAX_INDENT_LEVELS = 24;

interface Frame {
  readonly node: NodeSummary;
  /** Text before this node's line (guides and connector). */
  readonly lead: string;
  /** Guides inherited by this node's children. */
  readonly guide: string;
  readonly depth: number;
}

/** Lines of the tree, without a trailing newline on each. Nodes unreachable from any root are shown as extra roots. */
export function renderSessionTree(graph: SessionGraph, options: TreeOptions = {}): string[] {
  const byId = new Map<NodeId, NodeSummary>(graph.nodes.map((n) => [n.id, n]));
  const children = new Map<NodeId, NodeSummary[]>();
  const roots: NodeSummary[] = [];
  for (const node of graph.nodes) {
    const parent = displayParent(node, byId);
    if (parent === undefined) roots.push(node);
    else {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [node]);
      else list.push(node);
    }
  }
  const lines: string[] = [];
  const printed = new Set<NodeId>();
  const walk = (root: NodeSummary, lead: string, guide: string): void => {
    const stack: Frame[] = [{ node: root, lead, guide, depth: 0 }];
    while (stack.length > 0) {
      const frame = stack.pop() as Frame;
      if (printed.has(frame.node.id)) continue; // extra edges may form a cycle: print each node once
      printed.add(frame.node.id);
      lines.push(frame.lead + describeNode(frame.node, options));
      const kids = (children.get(frame.node.id) ?? []).filter((k) => !printed.has(k.id));
      const continuing = kids.filter((k) => (children.get(k.id)?.length ?? 0) > 0);
      if (kids.length === 1 || (continuing.length === 1 && kids.length > 1)) {
        // One way on (plus, maybe, leaf side-notes such as hook progress lines): stay at this indentation,
        // listing the side-notes as twigs first, so a long conversation does not drift to the right.
        const main = continuing[0] ?? (kids[0] as NodeSummary);
        stack.push({ node: main, lead: frame.guide, guide: frame.guide, depth: frame.depth });
        const twigs = kids.filter((k) => k !== main);
        for (let i = twigs.length - 1; i >= 0; i--) {
          stack.push({ node: twigs[i] as NodeSummary, lead: `${frame.guide}├─ `, guide: `${frame.guide}│  `, depth: frame.depth });
        }
        continue;
      }
      for (let i = kids.length - 1; i >= 0; i--) {
        const last = i === kids.length - 1;
        const depth = frame.depth + 1;
        const base = depth > MAX_INDENT_LEVELS ? depthMarker(frame.guide, depth) : frame.guide;
        stack.push({ node: kids[i] as NodeSummary, lead: base + (last ? '└─ ' : '├─ '), guide: base + (last ? '   ' : '│  '), depth });
      }
    }
  };
  roots.forEach((root, i) => {
    if (roots.length === 1) walk(root, '', '');
    else walk(root, i === roots.length - 1 ? '└─ ' : '├─ ', i === roots.length - 1 ? '   ' : '│  ');
  });
  // Whatever is left hangs off a cycle of extra edges; never drop a node silently.
  for (const node of graph.nodes) if (!printed.has(node.id)) walk(node, '?─ ', '   ');
  return lines;
}

/**
 * Where a node hangs in the printed tree: its parent, or else the node it continues from (compaction's
 * logical parent, the call that spawned a subagent, a fork point) when that node is in this session.
 */
function displayParent(node: NodeSummary, byId: ReadonlyMap<NodeId, NodeSummary>): NodeId | undefined {
  if (node.parentId !== null && byId.has(node.parentId) && node.parentId !== node.id) return node.parentId;
  const extra = node.extraEdges.find((e) => e.kind !== 'merge' && byId.has(e.nodeId) && e.nodeId !== node.id);
  return extra?.nodeId;
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
