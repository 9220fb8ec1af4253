/**
 * A session's graph nodes as a few strings and typed arrays, the form the layout worker receives: posting
 * 100k GraphNode objects cost ~1.5 s of structured cloning, and packing them from objects (an id map, a
 * lookup per parent) ~200 ms of the UI thread. The wire's compact form already says parents as indices, so a
 * decoded session graph comes with its packed form (packEncodedNodes) and the view posts that as it is.
 */
import type { ExtraEdge, NodeKind } from '../model';
import type { EncodedSessionGraph } from '../session-graph-wire';
import { edgesByNode } from '../session-graph-wire';
import { rememberNodeLinks, type GraphNode } from './session-tree';

export interface PackedGraphNodes {
  readonly count: number;
  /** The ids joined by newlines (ids never contain one; packing declines when one does). */
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
  /** Per edge (one per triple): the other end's index, -1 when it is not in the graph. */
  readonly edgeTargets: Int32Array;
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
  const edgeTargets: number[] = [];
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
    for (const edge of node.extraEdges) {
      edges.push(i, edge.kind, edge.nodeId);
      edgeTargets.push(indexById.get(edge.nodeId) ?? -1);
    }
  }
  return { count, ids: ids.join('\n'), timestamps: timestamps.join('\n'), parents, outsideParents, kindTable, kinds, sidechain, edges, edgeTargets: Int32Array.from(edgeTargets) };
}

/**
 * The packed form of a decoded session graph, from its wire columns (parents are indices there already) and
 * its decoded nodes' timestamps; null when it does not fit (as packGraphNodes) or the wire has no edge targets.
 */
export function packEncodedNodes(encoded: EncodedSessionGraph, nodes: readonly GraphNode[]): PackedGraphNodes | null {
  const count = nodes.length;
  const targets = encoded.edgeTargets;
  if (encoded.ids.length !== count || !Array.isArray(targets) || targets.length * 3 !== encoded.edges.length || encoded.kindTable.length > 255) return null;
  const timestamps = new Array<string>(count);
  const parents = new Int32Array(count);
  const outsideParents: (number | string)[] = [];
  const kinds = new Uint8Array(count);
  const sidechain = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!;
    if (node.id.includes('\n') || node.timestamp === '' || (node.timestamp !== null && node.timestamp.includes('\n'))) return null;
    timestamps[i] = node.timestamp ?? '';
    const parent = encoded.parents[i]!;
    if (typeof parent === 'string') {
      parents[i] = -2;
      outsideParents.push(i, parent);
    } else parents[i] = parent;
    kinds[i] = encoded.kinds[i]!;
    sidechain[i] = encoded.sidechain[i]!;
  }
  for (const target of targets) if (!(Number.isInteger(target) && target >= -1 && target < count)) return null;
  const packed: PackedGraphNodes = {
    count,
    ids: encoded.ids.join('\n'),
    timestamps: timestamps.join('\n'),
    parents,
    outsideParents,
    kindTable: encoded.kindTable as readonly NodeKind[],
    kinds,
    sidechain,
    edges: encoded.edges,
    edgeTargets: Int32Array.from(targets),
  };
  return packed;
}

const packedForms = new WeakMap<readonly GraphNode[], PackedGraphNodes>();

/**
 * Keeps a session's packed form beside its nodes (the client does this as it decodes a graph), so the view
 * posts it without packing, and a tree built of these nodes (buildSessionTree) links them by index.
 */
export function rememberPackedNodes(nodes: readonly GraphNode[], packed: PackedGraphNodes): void {
  packedForms.set(nodes, packed);
  rememberNodeLinks(nodes, linksOfPacked(packed));
}

export function packedNodesOf(nodes: readonly GraphNode[]): PackedGraphNodes | undefined {
  return packedForms.get(nodes);
}

/** Parents and edge ends as indices (a parent outside the graph is none, as buildSessionTree treats it). */
export function linksOfPacked(packed: PackedGraphNodes) {
  return { parents: packed.parents, edgeTargets: packed.edgeTargets };
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
