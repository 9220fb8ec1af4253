/**
 * The read side of session lineage (migration 014): a session's links to the sessions it goes on from and
 * that go on from it, with ids resolved through the sessions they joined, and the path from a root to one
 * node across sessions (a fork's shared prefix, drawn in the fork's own graph).
 */
import type { NodeSummary, SessionId } from '../../shared/model';
import type { ReadableDB } from './database';
import type { LineageKind } from './lineage-links';
import { groupBySeq, NODE_COLUMNS, toCallRef, toEdge, toNodeSummary, type NodeRow } from './session-queries';

export interface LineageLink {
  readonly kind: LineageKind;
  readonly laterId: SessionId;
  readonly earlierId: SessionId;
  /** A fork's fork point, in the earlier session. */
  readonly nodeId: string | null;
}

/** A path longer than this is cut at its top (a cycle the linker has not broken yet cannot loop). */
const PATH_LIMIT = 1_000_000;

export function prepareLineageQueries(db: ReadableDB) {
  const resolved = `SELECT l.kind, l.node_id,
      coalesce((SELECT session_id FROM session_aliases WHERE alias = l.later_id), l.later_id) AS later_id,
      coalesce((SELECT session_id FROM session_aliases WHERE alias = l.earlier_id), l.earlier_id) AS earlier_id
    FROM session_lineage l`;
  return {
    all: db.prepare<[], { kind: LineageKind; node_id: string | null; later_id: string; earlier_id: string }>(resolved),
    node: db.prepare<[string], NodeRow>(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id = ?`),
    edges: db.prepare<[number], { node_seq: number; kind: string; other_id: string }>('SELECT node_seq, kind, other_id FROM edges WHERE node_seq = ?'),
    calls: db.prepare<[number], { node_seq: number; tool_use_id: string; name: string; is_error: number | null }>(
      `SELECT c.node_seq, c.tool_use_id, c.name, r.is_error FROM tool_calls c
       LEFT JOIN tool_results r ON r.tool_use_id = c.tool_use_id WHERE c.node_seq = ? ORDER BY c.ordinal`,
    ),
  };
}
export type LineageQueries = ReturnType<typeof prepareLineageQueries>;

/** Every link (the table holds one row per fork, continuation or cleared context: small). */
export function allLineageLinks(q: LineageQueries): LineageLink[] {
  return q.all
    .all()
    .filter((row) => row.later_id !== row.earlier_id)
    .map((row) => ({ kind: row.kind, laterId: row.later_id, earlierId: row.earlier_id, nodeId: row.node_id }));
}

/** Root → `nodeId` by parents (a compaction root by its logical parent), whatever sessions they are in. */
export function nodePath(q: LineageQueries, nodeId: string): NodeSummary[] {
  const path: NodeSummary[] = [];
  const seen = new Set<string>();
  for (let id: string | null = nodeId; id !== null && !seen.has(id) && path.length < PATH_LIMIT; ) {
    seen.add(id);
    const row = q.node.get(id);
    if (!row) break;
    const edges = groupBySeq(q.edges.all(row.seq), toEdge).get(row.seq) ?? [];
    const calls = groupBySeq(q.calls.all(row.seq), toCallRef).get(row.seq) ?? [];
    const node = toNodeSummary(row, edges, calls);
    path.push(node);
    id = node.parentId ?? edges.find((edge) => edge.kind === 'logical')?.nodeId ?? null;
  }
  return path.reverse();
}

/**
 * `sessionIds` and every session linked to one of them through any chain of links, in either direction: a
 * fork's graph draws its parent's prefix (and a fork of the fork through it), a continuation chain draws every
 * session of the chain, and each one's header and list row say the others' titles. So when one session changes
 * (appended, re-imported, retitled), everything built from it down the chain is rebuilt.
 */
export function linkedSessions(links: readonly LineageLink[], sessionIds: Iterable<SessionId>): SessionId[] {
  const result = new Set<SessionId>(sessionIds);
  if (links.length === 0) return [...result];
  const neighbours = new Map<SessionId, SessionId[]>();
  const add = (from: SessionId, to: SessionId) => {
    const list = neighbours.get(from);
    if (list === undefined) neighbours.set(from, [to]);
    else list.push(to);
  };
  for (const link of links) {
    add(link.laterId, link.earlierId);
    add(link.earlierId, link.laterId);
  }
  const stack = [...result];
  while (stack.length > 0) {
    for (const other of neighbours.get(stack.pop()!) ?? []) {
      if (result.has(other)) continue;
      result.add(other);
      stack.push(other);
    }
  }
  return [...result];
}
