/** Messages between the graph view and its layout worker. Typed arrays make the answers cheap to copy. */
import type { FoldId } from '../../../shared/graph/folds';
import type { ExtraEdge, NodeKind } from '../../../shared/model';
import { edgesByNode } from '../../../shared/session-graph-wire';
import type { SessionLayout } from '../../../shared/graph/session-layout';
import type { SessionStructure } from '../../../shared/graph/session-structure';
import type { GraphNode } from '../../../shared/graph/session-tree';
import type { TurnOverview } from '../../../shared/graph/turn-overview';
import type { WorkspaceNodeInfo } from '../../../shared/operations';

/** The structure without the nodes and id map, which the view already has. */
export type StructureArrays = Omit<SessionStructure, 'nodes' | 'indexById'>;

export type LayoutRequest =
  | {
      readonly id: number;
      readonly type: 'open';
      readonly nodes: PackedGraphNodes | readonly GraphNode[];
      readonly expanded: readonly FoldId[];
      /** Which nodes Arbor added (forks and merges draw as branches of their own). */
      readonly workspaceNodes: readonly WorkspaceNodeInfo[];
      /** 1 per node the toolbar's filters hide (folds.ts buildVisibleGraph), or null. */
      readonly hide: Uint8Array | null;
    }
  | { readonly id: number; readonly type: 'layout'; readonly expanded: readonly FoldId[]; readonly hide: Uint8Array | null };

/** The turn overview of the opened session, built off the UI thread (~80 ms at 100k nodes); a message of its own beside LayoutRequest. */
export interface OverviewRequest {
  readonly id: number;
  readonly type: 'overview';
}

export interface OverviewResponse {
  readonly id: number;
  readonly ok: true;
  readonly overview: TurnOverview;
}

export type LayoutResponse =
  | { readonly id: number; readonly ok: true; readonly structure: StructureArrays | null; readonly layout: SessionLayout }
  | { readonly id: number; readonly ok: false; readonly message: string };

export function structureArrays(structure: SessionStructure): StructureArrays {
  const { nodes: _nodes, indexById: _indexById, ...arrays } = structure;
  return arrays;
}

/**
 * A session's graph nodes as a few strings and typed arrays: posting 100k GraphNode objects to the worker
 * cost ~1.5 s of structured cloning (each object and string serialized, then rebuilt); one joined string
 * of ids is a copy, and the typed arrays are transferred.
 */
export interface PackedGraphNodes {
  readonly count: number;
  /** The ids joined by newlines (ids never contain one; packGraphNodes declines when one does). */
  readonly ids: string;
  /** Timestamps joined by newlines, null as an empty string (declined when one is empty). */
  readonly timestamps: string;
  /** Per node: the parent's index, -1 for none, -2 for a parent id outside the graph (in `outsideParents`). */
  readonly parents: Int32Array;
  /** Flat [index, parent id] pairs for parents outside the graph. */
  readonly outsideParents: readonly (number | string)[];
  readonly kindTable: readonly NodeKind[];
  readonly kinds: Uint8Array;
  readonly sidechain: Uint8Array;
  /** Flat [index, kind, other id] triples, nodes and edges in order. */
  readonly edges: readonly (number | string)[];
}

const NO_EDGES: readonly ExtraEdge[] = Object.freeze([]);

/** The packed form of `nodes`, or null when a node does not fit it (send the objects). */
export function packGraphNodes(nodes: readonly GraphNode[], indexById: ReadonlyMap<string, number>): PackedGraphNodes | null {
  const count = nodes.length;
  const ids = new Array<string>(count);
  const timestamps = new Array<string>(count);
  const parents = new Int32Array(count);
  const outsideParents: (number | string)[] = [];
  const kindCodes = new Map<NodeKind, number>();
  const kindTable: NodeKind[] = [];
  const kinds = new Uint8Array(count);
  const sidechain = new Uint8Array(count);
  const edges: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!;
    if (node.id.includes('\n') || node.timestamp === '' || (node.timestamp !== null && node.timestamp.includes('\n'))) return null;
    ids[i] = node.id;
    timestamps[i] = node.timestamp ?? '';
    if (node.parentId === null) parents[i] = -1;
    else {
      const parent = indexById.get(node.parentId);
      if (parent === undefined) {
        parents[i] = -2;
        outsideParents.push(i, node.parentId);
      } else parents[i] = parent;
    }
    let kind = kindCodes.get(node.kind);
    if (kind === undefined) {
      if (kindTable.length === 255) return null;
      kindCodes.set(node.kind, (kind = kindTable.length));
      kindTable.push(node.kind);
    }
    kinds[i] = kind;
    sidechain[i] = node.sidechain ? 1 : 0;
    for (const edge of node.extraEdges) edges.push(i, edge.kind, edge.nodeId);
  }
  return { count, ids: ids.join('\n'), timestamps: timestamps.join('\n'), parents, outsideParents, kindTable, kinds, sidechain, edges };
}

/** The typed arrays of a packed form, to transfer rather than copy. */
export function packedTransfer(packed: PackedGraphNodes): Transferable[] {
  return [packed.parents.buffer, packed.kinds.buffer, packed.sidechain.buffer];
}

/** The GraphNodes a packed form was made from (deep-equal to them). */
export function unpackGraphNodes(packed: PackedGraphNodes): GraphNode[] {
  const { count } = packed;
  const ids = count === 0 ? [] : packed.ids.split('\n');
  const timestamps = count === 0 ? [] : packed.timestamps.split('\n');
  const outside = new Map<number, string>();
  for (let k = 0; k + 1 < packed.outsideParents.length; k += 2) outside.set(packed.outsideParents[k] as number, packed.outsideParents[k + 1] as string);
  const edges = edgesByNode(packed.edges);
  const nodes = new Array<GraphNode>(count);
  for (let i = 0; i < count; i++) {
    const parent = packed.parents[i]!;
    nodes[i] = {
      id: ids[i]!,
      parentId: parent === -1 ? null : parent === -2 ? outside.get(i)! : ids[parent]!,
      extraEdges: edges.get(i) ?? NO_EDGES,
      kind: packed.kindTable[packed.kinds[i]!]!,
      timestamp: timestamps[i] === '' ? null : timestamps[i]!,
      sidechain: packed.sidechain[i] === 1,
    };
  }
  return nodes;
}

/** The nodes of an open request, whichever form they came in. */
export function requestNodes(nodes: PackedGraphNodes | readonly GraphNode[]): readonly GraphNode[] {
  return isPacked(nodes) ? unpackGraphNodes(nodes) : nodes;
}

function isPacked(nodes: PackedGraphNodes | readonly GraphNode[]): nodes is PackedGraphNodes {
  return !Array.isArray(nodes);
}
