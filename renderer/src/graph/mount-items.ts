/**
 * Turns the laid-out session into the React Flow nodes and edges to mount for the current viewport:
 * culled to a bounded count, with the root→selection path marked and a simplified look when zoomed out.
 */
import type { Edge, Node } from '@xyflow/react';
import { BRANCH_FORK, BRANCH_NONE, BRANCH_RETRY, BRANCH_WORKSPACE } from '../../../shared/graph/branch-points';
import { routeBetweenCards, type RoutePoint } from '../../../shared/graph/lane-layout';
import { foldIdOfItem, ITEM_AGENT, ITEM_NODE, ITEM_RUN, itemShowingNode, type VisibleGraph } from '../../../shared/graph/folds';
import { drawnChildren, pathThroughItem } from '../../../shared/graph/navigation';
import type { SessionLayout } from '../../../shared/graph/session-layout';
import type { SessionStructure } from '../../../shared/graph/session-structure';
import { mountedParents, planMount, type RowIndex } from '../../../shared/graph/viewport';
import type { NodeId, NodeKind, NodeSummary, WorkspaceStateKnown } from '../../../shared/model';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../../../shared/operations';
import { cardText } from './card-text';

// Cards are wide enough for two lines of about 40 characters; the gaps leave room for badges and edges.
export const LANE_WIDTH = 336;
export const ROW_HEIGHT = 92;
export const NODE_WIDTH = 296;
export const NODE_HEIGHT = 62;
/** Lane colours cycle through this many (graph.css .lane-0 … .lane-7). */
export const LANE_COLOURS = 8;
/** React Flow's DOM stays responsive well below ~1k nodes. */
export const MOUNT_BUDGET = 500;
/** Below this zoom, nodes draw as simple coloured pills. */
export const DETAIL_ZOOM = 0.45;

export interface GraphItemData extends Record<string, unknown> {
  readonly itemKind: 'node' | 'run' | 'agent';
  readonly kind: NodeKind;
  /** The node (for a group: its first hidden node). */
  readonly nodeId: NodeId;
  readonly foldId: string | null;
  readonly label: string;
  readonly toolName: string | null;
  /** The card's first line and up to two lines of text (card-text.ts). */
  readonly title: string;
  readonly text: string;
  /** A failed call (marked on the call's own card), or a failed result. */
  readonly failed: boolean;
  readonly outcomeMissing: boolean;
  /** Lane colour index (0 … LANE_COLOURS − 1). */
  readonly lane: number;
  /** Lines the filters hid that hang on this item (its annotation). */
  readonly hiddenLines: number;
  /** The selection is a line hidden by a filter, shown here (its nearest shown step). */
  readonly holdsSelection: boolean;
  /** `workspace`: a fork, merge or snapshot Arbor made leaves the line here (and no rewind or retry did). */
  readonly branch: 'fork' | 'retry' | 'workspace' | null;
  readonly branchWidth: number;
  /** On the first item of each branch below a branch point: "branch 1/2" (fork) or "answer 1/2" (retry). */
  readonly branchTag: string | null;
  readonly hidden: number;
  /** Tool names in a folded run, most frequent first ("Bash ×5, Read ×2"). */
  readonly summary: string;
  readonly selected: boolean;
  readonly onPath: boolean;
  readonly focused: boolean;
  readonly lod: boolean;
  /** How the node's workspace state is known (null until `sessions.states` answered). */
  readonly known: WorkspaceStateKnown | null;
  /** Set on the nodes Arbor added (snapshots, forks, merges). */
  readonly workspaceKind: WorkspaceNodeKind | null;
  /** The other end of a comparison (Shift+click). */
  readonly compared: boolean;
}

/** Per-node facts the graph draws beside the transcript's own: looked up only for mounted items. */
export interface GraphMarks {
  readonly known: Readonly<Record<NodeId, WorkspaceStateKnown>> | null;
  readonly workspaceKinds: ReadonlyMap<NodeId, WorkspaceNodeKind>;
  readonly compareNodeId: NodeId | null;
  /** Arbor's nodes with their folders (forks and merges are named by folder). */
  readonly workspaceNodes?: ReadonlyMap<NodeId, WorkspaceNodeInfo>;
}

export const NO_MARKS: GraphMarks = { known: null, workspaceKinds: new Map(), compareNodeId: null };

export type GraphFlowNode = Node<GraphItemData>;

export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

export interface MountInput {
  readonly structure: SessionStructure;
  readonly layout: SessionLayout;
  readonly rows: RowIndex;
  readonly byNode: Int32Array;
  readonly viewport: Viewport;
  readonly width: number;
  readonly height: number;
  readonly selectedNode: number;
  readonly cursor: number;
  readonly previous: ReadonlyMap<string, GraphFlowNode>;
  readonly marks?: GraphMarks;
}

export interface Mounted {
  readonly nodes: GraphFlowNode[];
  readonly edges: Edge[];
  readonly complete: boolean;
  readonly selectedItem: number;
}

/** The treeitem is the node view inside; React Flow's wrapper must not claim a role description of its own (ARIA tree). */
const NODE_WRAPPER_ARIA = { 'aria-roledescription': undefined };

/** The DOM id of an item's treeitem: the tree's aria-activedescendant names the keyboard cursor by it. */
export function treeItemDomId(flowId: string): string {
  return `graph-item-${flowId.replace(/[^\w-]/g, '_')}`;
}

export function flowIdOfItem(structure: SessionStructure, visible: VisibleGraph, item: number): string {
  return foldIdOfItem(structure, visible, item) ?? structure.nodes[visible.node[item]!]!.id;
}

export function mountItems(input: MountInput): Mounted {
  const { structure, layout, viewport, width, height } = input;
  const { visible } = layout;
  const nodes = structure.nodes as readonly NodeSummary[];
  const selectedItem = input.selectedNode >= 0 ? itemShowingNode(structure, visible, input.byNode, input.selectedNode) : -1;
  const onPath = new Uint8Array(visible.count);
  for (const item of pathThroughItem(visible, selectedItem)) onPath[item] = 1;
  const holdsSelection = selectedItem >= 0 && visible.node[selectedItem] !== input.selectedNode && visible.kind[selectedItem] === ITEM_NODE ? selectedItem : -1;

  const zoom = viewport.zoom;
  const margin = 200;
  const rect = {
    laneMin: (-viewport.x / zoom - margin - NODE_WIDTH) / LANE_WIDTH,
    laneMax: ((width - viewport.x) / zoom + margin) / LANE_WIDTH,
    rowMin: (-viewport.y / zoom - margin - NODE_HEIGHT) / ROW_HEIGHT,
    rowMax: ((height - viewport.y) / zoom + margin) / ROW_HEIGHT,
  };
  const important = (item: number): boolean =>
    onPath[item] === 1 ||
    item === input.cursor ||
    visible.kind[item] !== ITEM_NODE ||
    structure.branch[visible.node[item]!] !== BRANCH_NONE ||
    structure.branchHead[visible.node[item]!] === 1 ||
    nodes[visible.node[item]!]!.kind === 'user';
  const plan = planMount(layout.layout, input.rows, visible.forest, rect, MOUNT_BUDGET, important);
  const lod = zoom < DETAIL_ZOOM;
  const marks = input.marks ?? NO_MARKS;

  const flowNodes: GraphFlowNode[] = [];
  const flowIds: string[] = [];
  for (const item of plan.items) {
    const data = itemData(structure, visible, item, marks, {
      selected: item === selectedItem && visible.kind[item] === ITEM_NODE,
      onPath: onPath[item] === 1,
      focused: item === input.cursor,
      lod,
      holdsSelection: item === holdsSelection,
    }, layout.layout.lane[item]!);
    const id = flowIdOfItem(structure, visible, item);
    flowIds.push(id);
    const position = { x: layout.layout.lane[item]! * LANE_WIDTH, y: layout.layout.row[item]! * ROW_HEIGHT };
    const old = input.previous.get(id);
    // Reuse the previous object when nothing changed, so memoized node components skip rendering.
    if (old && old.position.x === position.x && old.position.y === position.y && sameData(old.data, data)) {
      flowNodes.push(old);
      continue;
    }
    flowNodes.push({
      id,
      type: data.itemKind === 'node' ? 'sessionNode' : 'foldGroup',
      position,
      data,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      draggable: false,
      selectable: false,
      connectable: false,
      measured: old?.measured,
      domAttributes: NODE_WRAPPER_ARIA,
    } as GraphFlowNode);
  }

  const edges: Edge[] = [];
  const { parent, elided } = mountedParents(visible.forest, plan.items);
  const position = new Map<number, number>();
  plan.items.forEach((item, k) => position.set(item, k));
  for (let k = 0; k < plan.items.length; k++) {
    const from = parent[k]!;
    if (from < 0) continue;
    const item = plan.items[k]!;
    const source = flowIds[position.get(from)!]!;
    const target = flowIds[k]!;
    const path = onPath[item] === 1 && onPath[from] === 1;
    // An edge takes the colour of the lane it runs into, as GitKraken colours a branch's line.
    const lane = layout.layout.lane[item]! % LANE_COLOURS;
    edges.push({
      id: `${source}>${target}`,
      source,
      target,
      type: 'smoothstep',
      className: `graph-edge lane-${lane}${path ? ' is-path' : ''}${elided[k] === 1 ? ' is-elided' : ''}`,
      selectable: false,
      focusable: false,
      zIndex: path ? 1 : 0,
    });
  }
  addMergeEdges(structure, visible, input.byNode, layout, plan.items, flowIds, position, edges);
  return { nodes: flowNodes, edges, complete: plan.complete, selectedItem };
}

function addMergeEdges(
  structure: SessionStructure,
  visible: VisibleGraph,
  byNode: Int32Array,
  layout: SessionLayout,
  items: Int32Array,
  flowIds: readonly string[],
  position: ReadonlyMap<number, number>,
  edges: Edge[],
): void {
  const { lane, row } = layout.layout;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    if (visible.kind[item] !== ITEM_NODE) continue;
    for (const edge of structure.nodes[visible.node[item]!]!.extraEdges) {
      if (edge.kind !== 'merge') continue;
      const other = structure.indexById.get(edge.nodeId);
      if (other === undefined) continue;
      const fromItem = itemShowingNode(structure, visible, byNode, other);
      const from = position.get(fromItem);
      if (from === undefined) continue;
      const route = routeBetweenCards(CARD_GRID, { lane: lane[fromItem]!, row: row[fromItem]! }, { lane: lane[item]!, row: row[item]! });
      edges.push({
        id: `merge:${flowIds[from]}>${flowIds[k]}`,
        source: flowIds[from]!,
        target: flowIds[k]!,
        type: 'merge',
        data: { path: routePath(route) },
        className: 'graph-edge is-merge',
        selectable: false,
        focusable: false,
      });
    }
  }
}

const CARD_GRID = { laneWidth: LANE_WIDTH, rowHeight: ROW_HEIGHT, cardWidth: NODE_WIDTH, cardHeight: NODE_HEIGHT } as const;
/** Corners of a routed edge are rounded by up to this much, as React Flow's step edges are. */
const CORNER = 8;

/** An orthogonal route as an SVG path, its corners rounded. */
export function routePath(points: readonly RoutePoint[]): string {
  let path = `M${points[0]!.x},${points[0]!.y}`;
  for (let k = 1; k < points.length - 1; k++) {
    const [a, b, c] = [points[k - 1]!, points[k]!, points[k + 1]!];
    const radius = Math.min(CORNER, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const inX = b.x - Math.sign(b.x - a.x) * radius;
    const inY = b.y - Math.sign(b.y - a.y) * radius;
    const outX = b.x + Math.sign(c.x - b.x) * radius;
    const outY = b.y + Math.sign(c.y - b.y) * radius;
    path += ` L${inX},${inY} Q${b.x},${b.y} ${outX},${outY}`;
  }
  const last = points[points.length - 1]!;
  return `${path} L${last.x},${last.y}`;
}

const BRANCH_NAMES: Readonly<Record<number, GraphItemData['branch']>> = {
  [BRANCH_NONE]: null,
  [BRANCH_FORK]: 'fork',
  [BRANCH_RETRY]: 'retry',
  [BRANCH_WORKSPACE]: 'workspace',
};

function itemData(
  structure: SessionStructure,
  visible: VisibleGraph,
  item: number,
  marks: GraphMarks,
  state: Pick<GraphItemData, 'selected' | 'onPath' | 'focused' | 'lod' | 'holdsSelection'>,
  lane: number,
): GraphItemData {
  const nodes = structure.nodes as readonly NodeSummary[];
  const index = visible.node[item]!;
  const node = nodes[index]!;
  const itemKind = visible.kind[item] === ITEM_RUN ? 'run' : visible.kind[item] === ITEM_AGENT ? 'agent' : 'node';
  const firstTool = node.toolCalls[0];
  const card = cardText({ nodes, parent: structure.tree.parent }, index, (itemKind === 'node' && marks.workspaceNodes?.get(node.id)) || null);
  const drawn = drawnBranches(structure, visible, item);
  return {
    itemKind,
    kind: node.kind,
    nodeId: node.id,
    foldId: foldIdOfItem(structure, visible, item),
    label: node.label,
    toolName: firstTool ? (node.toolCalls.length > 1 ? `${firstTool.name} +${node.toolCalls.length - 1}` : firstTool.name) : null,
    title: card.title,
    text: card.text,
    failed: itemKind === 'node' ? card.failed : itemKind === 'run' && runSummary(structure, index, visible.lastNode[item]!).failed,
    outcomeMissing: itemKind === 'node' && card.outcomeMissing,
    lane: lane % LANE_COLOURS,
    hiddenLines: visible.hiddenLines[item]!,
    branch: drawn > 0 ? BRANCH_NAMES[structure.branch[index]!] ?? null : null,
    branchWidth: drawn,
    branchTag: branchTag(structure, visible, item),
    hidden: visible.hidden[item]!,
    summary: itemKind === 'run' ? runSummary(structure, index, visible.lastNode[item]!).tools : '',
    known: itemKind === 'node' ? (marks.known?.[node.id] ?? null) : null,
    workspaceKind: itemKind === 'node' ? (marks.workspaceKinds.get(node.id) ?? null) : null,
    compared: itemKind === 'node' && marks.compareNodeId === node.id,
    ...state,
  };
}

/** The branches a branch point's badge counts: those drawn below it (0 when fewer than two are, or no branch point). */
function drawnBranches(structure: SessionStructure, visible: VisibleGraph, item: number): number {
  if (visible.kind[item] !== ITEM_NODE || structure.branch[visible.node[item]!] === BRANCH_NONE) return 0;
  const drawn = drawnChildren(visible, item);
  return drawn >= 2 ? drawn : 0;
}

/** "branch 2/3" on each item below a badge, numbered as drawn (left to right), so tags and badge agree. */
function branchTag(structure: SessionStructure, visible: VisibleGraph, item: number): string | null {
  const parent = visible.forest.parent[item]!;
  if (parent < 0) return null;
  const of = drawnBranches(structure, visible, parent);
  if (of === 0) return null;
  const start = visible.forest.childStart[parent]!;
  let index = 0;
  while (visible.forest.children[start + index] !== item) index++;
  // A fork or merge under a retry is still a branch, not another answer.
  const head = visible.kind[item] === ITEM_NODE && structure.branchHead[visible.node[item]!] === 1;
  const word = structure.branch[visible.node[parent]!] === BRANCH_RETRY && !head ? 'answer' : 'branch';
  return `${word} ${index + 1}/${of}`;
}

interface RunSummary {
  /** "Bash ×5, Read ×2". */
  readonly tools: string;
  /** A call in the run failed: the folded group says so, as the call's own card would. */
  readonly failed: boolean;
}

const summaries = new WeakMap<SessionStructure, Map<number, RunSummary>>();

/** The tools a folded run called and whether one failed (cached: runs can be thousands of steps long). */
function runSummary(structure: SessionStructure, first: number, last: number): RunSummary {
  let cache = summaries.get(structure);
  if (!cache) summaries.set(structure, (cache = new Map()));
  const known = cache.get(first);
  if (known !== undefined) return known;
  const summary = countTools(structure, first, last);
  cache.set(first, summary);
  return summary;
}

const KIND_WORDS: Readonly<Record<NodeSummary['kind'], string>> = {
  user: 'prompt',
  assistant: 'reply',
  thinking: 'thinking',
  tool_call: 'call',
  tool_result: 'result',
  error: 'error',
  compaction: 'compaction',
  'merge-summary': 'merge summary',
  system: 'system',
  progress: 'hook',
  unknown: 'unknown line',
};

function countTools(structure: SessionStructure, first: number, last: number): RunSummary {
  const nodes = structure.nodes as readonly NodeSummary[];
  const counts = new Map<string, number>();
  let failed = false;
  for (let at = first; ; at = structure.display.children[structure.display.childStart[at]!]!) {
    for (const call of nodes[at]!.toolCalls) {
      counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
      if (call.outcome === 'error') failed = true;
    }
    if (at === last || structure.display.childStart[at] === structure.display.childStart[at + 1]) break;
  }
  // A run without tool calls (replies, thinking, system lines) said nothing under "4 steps": it names its
  // kinds instead, in the same "name ×N" form.
  if (counts.size === 0) {
    for (let at = first; ; at = structure.display.children[structure.display.childStart[at]!]!) {
      const word = KIND_WORDS[nodes[at]!.kind];
      counts.set(word, (counts.get(word) ?? 0) + 1);
      if (at === last || structure.display.childStart[at] === structure.display.childStart[at + 1]) break;
    }
  }
  const tools = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, count]) => (count > 1 ? `${name} ×${count}` : name))
    .join(', ');
  return { tools, failed };
}

function sameData(a: GraphItemData, b: GraphItemData): boolean {
  for (const key of Object.keys(b) as (keyof GraphItemData)[]) if (a[key] !== b[key]) return false;
  return true;
}
