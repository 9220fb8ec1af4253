/**
 * The session's DAG as a tree: each node hangs under its `parentId`, else under the other end of a
 * 'logical' (compaction), 'subagent' or 'fork-of' edge. 'merge' edges never shape the tree; the view
 * draws them on top. Several roots make a forest.
 */
import type { NodeId, NodeSummary } from '../model';
import { breakCycles, type Forest } from './forest';
import { columnsOfNodes, EDGE_MERGE, type GraphColumns } from './graph-columns';

/** How a node hangs in the tree. */
export const VIA_ROOT = 0;
export const VIA_PARENT = 1;
export const VIA_LOGICAL = 2;
export const VIA_SUBAGENT = 3;
export const VIA_FORK_OF = 4;

/** The fields of a NodeSummary the graph's shape depends on (what the layout worker receives). */
export type GraphNode = Pick<NodeSummary, 'id' | 'parentId' | 'extraEdges' | 'kind' | 'timestamp' | 'sidechain'>;

export function toGraphNode(node: GraphNode): GraphNode {
  return {
    id: node.id,
    parentId: node.parentId,
    extraEdges: node.extraEdges,
    kind: node.kind,
    timestamp: node.timestamp,
    sidechain: node.sidechain,
  };
}

export interface SessionTree {
  readonly nodes: readonly GraphNode[];
  readonly indexById: ReadonlyMap<NodeId, number>;
  readonly tree: Forest;
  /** VIA_* per node. */
  readonly via: Uint8Array;
  /** 1 where a subagent run starts: its subtree folds under the call that spawned it. */
  readonly agentRoot: Uint8Array;
}

/**
 * Where each node's parent and extra edges point, as node indices, when that is known already (the wire sends
 * parents as indices): the tree is then built without an id map of every node, which at 100k nodes was most
 * of building it (hashing 100k fresh id strings). `indexById` is then made on first use.
 */
export interface NodeLinks {
  /** The index of each node's parentId; negative when it has none or that node is not in the graph. */
  readonly parents: Int32Array;
  /** The other end's index of each extra edge, nodes and their edges in order; -1 when not in the graph. */
  readonly edgeTargets: Int32Array;
}

const knownLinks = new WeakMap<readonly GraphNode[], NodeLinks>();

/** Links for a node list that buildSessionTree(nodes) uses from now on (shared/graph/packed-nodes.ts sets them). */
export function rememberNodeLinks(nodes: readonly GraphNode[], links: NodeLinks): void {
  knownLinks.set(nodes, links);
}

/** `links`: as NodeLinks says, for exactly these nodes (else those remembered for them, else worked out here). */
export function buildSessionTree(nodes: readonly GraphNode[], links?: NodeLinks): SessionTree {
  const { links: known, indexById } = linksAndIndex(nodes, links);
  return { nodes, indexById, ...treeOfColumns(columnsOfNodes(nodes, known, indexById)) };
}

/**
 * The links to build `nodes`' tree with (those given, else those remembered for them; none that do not fit) and
 * its id map: made on first use when the links are known, else now (the links are worked out with it).
 */
export function linksAndIndex(nodes: readonly GraphNode[], links: NodeLinks | undefined = knownLinks.get(nodes)): { links: NodeLinks | undefined; indexById: ReadonlyMap<NodeId, number> } {
  if (links !== undefined && links.parents.length !== nodes.length) links = undefined;
  return { links, indexById: links === undefined ? indexNodes(nodes) : lazyIndex(nodes) };
}

/** The tree's arrays (SessionTree less its nodes and id map), from a session's columns. */
export function treeOfColumns(columns: GraphColumns): Pick<SessionTree, 'tree' | 'via' | 'agentRoot'> {
  const { count, parents, edgeNode, edgeKind, edgeTarget, sidechain } = columns;
  const parent = new Int32Array(count).fill(-1);
  const via = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const direct = parents[i]!;
    if (direct >= 0 && direct !== i) {
      parent[i] = direct;
      via[i] = VIA_PARENT;
    }
  }
  // A node without a parent in the graph hangs under the first of its edges that may carry it (not a merge).
  for (let e = 0; e < edgeNode.length; e++) {
    const i = edgeNode[e]!;
    const other = edgeTarget[e]!;
    if (via[i] !== VIA_ROOT || edgeKind[e] === EDGE_MERGE || other < 0 || other === i) continue;
    parent[i] = other;
    via[i] = VIA_OF_EDGE[edgeKind[e]!]!;
  }
  const tree = breakCycles(parent);
  for (let i = 0; i < count; i++) if (parent[i]! < 0) via[i] = VIA_ROOT;

  const agentRoot = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const p = parent[i]!;
    // A sidechain that starts under a main-line node (or on its own) is a subagent run even when the
    // importer could not link it with a 'subagent' edge (1.0.x inline sidechains).
    const sidechainStart = sidechain[i] === 1 && (p < 0 || sidechain[p] === 0);
    if (via[i] === VIA_SUBAGENT || sidechainStart) agentRoot[i] = 1;
  }
  return { tree, via, agentRoot };
}

const VIA_OF_EDGE: readonly number[] = [VIA_ROOT, VIA_LOGICAL, VIA_SUBAGENT, VIA_FORK_OF];

function indexNodes(nodes: readonly GraphNode[]): Map<NodeId, number> {
  const indexById = new Map<NodeId, number>();
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i]!.id;
    // Duplicate ids should not reach us (the importer keeps the earliest); if they do, keep the first.
    if (!indexById.has(id)) indexById.set(id, i);
  }
  return indexById;
}

/** The id → index map of `nodes`, built the first time anything asks it something. */
function lazyIndex(nodes: readonly GraphNode[]): ReadonlyMap<NodeId, number> {
  let built: Map<NodeId, number> | undefined;
  const map = (): Map<NodeId, number> => (built ??= indexNodes(nodes));
  return {
    get: (id) => map().get(id),
    has: (id) => map().has(id),
    get size() {
      return map().size;
    },
    forEach: (fn, thisArg) => map().forEach((value, key) => fn.call(thisArg, value, key, map())),
    entries: () => map().entries(),
    keys: () => map().keys(),
    values: () => map().values(),
    [Symbol.iterator]: () => map()[Symbol.iterator](),
  };
}
