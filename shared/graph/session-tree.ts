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

export function buildSessionTree(nodes: readonly GraphNode[]): SessionTree {
  const indexById = new Map<NodeId, number>();
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i]!.id;
    // Duplicate ids should not reach us (the importer keeps the earliest); if they do, keep the first.
    if (!indexById.has(id)) indexById.set(id, i);
  }
  const parent = new Int32Array(nodes.length).fill(-1);
  const via = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const direct = node.parentId === null ? undefined : indexById.get(node.parentId);
    if (direct !== undefined && direct !== i) {
      parent[i] = direct;
      via[i] = VIA_PARENT;
      continue;
    }
    for (const edge of node.extraEdges) {
      if (edge.kind === 'merge') continue;
      const other = indexById.get(edge.nodeId);
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
