/**
 * The session's DAG as a tree: each node hangs under its `parentId`, else under the other end of a
 * 'logical' (compaction), 'subagent' or 'fork-of' edge. 'merge' edges never shape the tree; the view
 * draws them on top. Several roots make a forest.
 */
import type { NodeId, NodeSummary } from '../model';
import { breakCycles, forestFromParents, type Forest } from './forest';

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
export function buildSessionTree(nodes: readonly GraphNode[], links: NodeLinks | undefined = knownLinks.get(nodes)): SessionTree {
  if (links !== undefined && links.parents.length !== nodes.length) links = undefined;
  const indexById = links === undefined ? indexNodes(nodes) : lazyIndex(nodes);
  const parent = new Int32Array(nodes.length).fill(-1);
  const via = new Uint8Array(nodes.length);
  let edgeAt = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const firstEdge = edgeAt;
    edgeAt += node.extraEdges.length;
    const linked = links === undefined ? undefined : links.parents[i]!;
    const direct = linked !== undefined ? (linked >= 0 ? linked : undefined) : node.parentId === null ? undefined : indexById.get(node.parentId);
    if (direct !== undefined && direct !== i) {
      parent[i] = direct;
      via[i] = VIA_PARENT;
      continue;
    }
    for (let e = 0; e < node.extraEdges.length; e++) {
      const edge = node.extraEdges[e]!;
      if (edge.kind === 'merge') continue;
      const target = links === undefined ? indexById.get(edge.nodeId) : links.edgeTargets[firstEdge + e];
      const other = target === undefined || target < 0 ? undefined : target;
      if (other === undefined || other === i) continue;
      parent[i] = other;
      via[i] = edge.kind === 'logical' ? VIA_LOGICAL : edge.kind === 'subagent' ? VIA_SUBAGENT : VIA_FORK_OF;
      break;
    }
  }
  breakCycles(parent);
  for (let i = 0; i < nodes.length; i++) if (parent[i]! < 0) via[i] = VIA_ROOT;
  const tree = forestFromParents(parent);

  const agentRoot = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const p = parent[i]!;
    // A sidechain that starts under a main-line node (or on its own) is a subagent run even when the
    // importer could not link it with a 'subagent' edge (1.0.x inline sidechains).
    const sidechainStart = nodes[i]!.sidechain && (p < 0 || !nodes[p]!.sidechain);
    if (via[i] === VIA_SUBAGENT || sidechainStart) agentRoot[i] = 1;
  }
  return { nodes, indexById, tree, via, agentRoot };
}

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
