/**
 * The session DAG as the merge walks it: each node's parents (its transcript parent, the extra edges of
 * compaction, subagents, forked sessions and merges, and for nodes Arbor added, the snapshot's parent and a
 * merge's second parent), loaded a whole session at a time. The merge base is the two nodes' lowest
 * common ancestor in it.
 */
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import type { NodeSummary } from '../../shared/model';

export interface GraphNode {
  readonly id: string;
  readonly sessionId: string;
  /** The primary parent first. */
  readonly parents: readonly string[];
  readonly summary?: NodeSummary;
  readonly snapshot?: SnapshotRecord;
}

/** Bounds a walk through a pathological graph (the largest real sessions have tens of thousands of nodes). */
const MAX_VISITED = 500_000;

export class NodeGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly sessions = new Set<string>();

  constructor(private readonly store: SessionStore) {}

  node(id: string): GraphNode | null {
    const hit = this.nodes.get(id);
    if (hit !== undefined) return hit;
    const snapshot = this.store.getSnapshotByNode(id);
    const sessionId = snapshot?.sessionId ?? this.store.getNode(id)?.summary.sessionId;
    if (sessionId === undefined || this.sessions.has(sessionId)) return null;
    this.loadSession(sessionId);
    return this.nodes.get(id) ?? null;
  }

  private loadSession(sessionId: string): void {
    this.sessions.add(sessionId);
    for (const summary of this.store.getSessionNodes(sessionId)) {
      const parents = [summary.parentId, ...summary.extraEdges.map((edge) => edge.nodeId)].filter((id): id is string => id !== null);
      this.nodes.set(summary.id, { id: summary.id, sessionId, parents, summary });
    }
    for (const snapshot of this.store.getSessionSnapshots(sessionId)) {
      const parents = [snapshot.parentId, snapshot.secondParentId ?? null].filter((id): id is string => id !== null);
      this.nodes.set(snapshot.nodeId, { id: snapshot.nodeId, sessionId, parents, snapshot });
    }
  }
}

export interface Ancestor {
  readonly distance: number;
  /** The node one step closer to where the walk started (null at the start). */
  readonly child: string | null;
}

/** Every ancestor of `start` (itself included) with its distance, breadth first. */
export function ancestry(graph: NodeGraph, start: string): Map<string, Ancestor> {
  const seen = new Map<string, Ancestor>([[start, { distance: 0, child: null }]]);
  const queue = [start];
  for (let i = 0; i < queue.length && seen.size < MAX_VISITED; i++) {
    const id = queue[i]!;
    const distance = seen.get(id)!.distance + 1;
    for (const parent of graph.node(id)?.parents ?? []) {
      if (seen.has(parent)) continue;
      seen.set(parent, { distance, child: id });
      queue.push(parent);
    }
  }
  return seen;
}

/**
 * The common ancestor closest to both nodes (least total distance; on a tie, closest to `a`). In a tree this
 * is the lowest common ancestor; across merges it picks the nearest of the candidates. Null: none shared.
 */
export function lowestCommonAncestor(a: ReadonlyMap<string, Ancestor>, b: ReadonlyMap<string, Ancestor>): string | null {
  let best: string | null = null;
  let bestTotal = Infinity;
  let bestA = Infinity;
  for (const [id, fromA] of a) {
    const fromB = b.get(id);
    if (fromB === undefined) continue;
    const total = fromA.distance + fromB.distance;
    if (total < bestTotal || (total === bestTotal && fromA.distance < bestA)) {
      best = id;
      bestTotal = total;
      bestA = fromA.distance;
    }
  }
  return best;
}

/** The nodes after `ancestor` down to the walk's start, oldest first (all of them when `ancestor` is null). */
export function pathBelow(walk: ReadonlyMap<string, Ancestor>, ancestor: string | null): string[] {
  if (ancestor === null) {
    // No shared ancestor: every ancestor of the start, farthest first.
    return [...walk.entries()].sort((x, y) => y[1].distance - x[1].distance).map(([id]) => id);
  }
  const path: string[] = [];
  let next = walk.get(ancestor)?.child ?? null;
  while (next !== null) {
    path.push(next);
    next = walk.get(next)?.child ?? null;
  }
  return path;
}
