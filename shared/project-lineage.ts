/**
 * A project's sessions as one graph of lineage (issue 14): each session a card, joined by how one goes on from
 * another (fork, continues, follows), across agents. Pure: the service builds it, the CLI prints it as a tree and
 * the renderer lays it out.
 */
import type { SessionId, SessionSummary } from './model';

export type LineageEdgeKind = 'fork' | 'continues' | 'follows';

export interface ProjectLineageEdge {
  readonly kind: LineageEdgeKind;
  readonly earlierId: SessionId;
  readonly laterId: SessionId;
  /** The step of the earlier session the later one goes on from (a fork's fork point), when known. */
  readonly nodeId: string | null;
}

export interface ProjectLineage {
  readonly project: string;
  /** Every listed session of the project, earliest first. */
  readonly sessions: readonly SessionSummary[];
  /** Links whose two sessions are both in `sessions`. */
  readonly edges: readonly ProjectLineageEdge[];
}

/** One row of the drawn tree: a session at its depth, with the edge that brought it there (null: a root). */
export interface LineageRow {
  readonly session: SessionSummary;
  readonly depth: number;
  readonly via: ProjectLineageEdge | null;
}

/**
 * The project's sessions depth first: each root (no earlier session in the project) then what goes on from it,
 * earliest first. A session reached twice (two earlier sessions) is drawn under the first; a cycle stops.
 */
export function lineageRows(lineage: ProjectLineage): LineageRow[] {
  const byId = new Map(lineage.sessions.map((session) => [session.id, session]));
  const later = new Map<SessionId, ProjectLineageEdge[]>();
  const hasEarlier = new Set<SessionId>();
  for (const edge of lineage.edges) {
    if (!byId.has(edge.earlierId) || !byId.has(edge.laterId) || edge.earlierId === edge.laterId) continue;
    const list = later.get(edge.earlierId);
    if (list === undefined) later.set(edge.earlierId, [edge]);
    else list.push(edge);
    hasEarlier.add(edge.laterId);
  }
  const order = new Map(lineage.sessions.map((session, index) => [session.id, index]));
  const rows: LineageRow[] = [];
  const placed = new Set<SessionId>();
  const stack: { id: SessionId; depth: number; via: ProjectLineageEdge | null }[] = [];
  const roots = lineage.sessions.filter((session) => !hasEarlier.has(session.id));
  // Sessions only in cycles have no root: each starts a tree of its own when nothing placed it.
  for (const start of [...roots, ...lineage.sessions]) {
    if (placed.has(start.id)) continue;
    stack.push({ id: start.id, depth: 0, via: null });
    while (stack.length > 0) {
      const { id, depth, via } = stack.pop()!;
      if (placed.has(id)) continue;
      placed.add(id);
      rows.push({ session: byId.get(id)!, depth, via });
      const next = [...(later.get(id) ?? [])].sort((a, b) => order.get(b.laterId)! - order.get(a.laterId)!);
      for (const edge of next) if (!placed.has(edge.laterId)) stack.push({ id: edge.laterId, depth: depth + 1, via: edge });
    }
  }
  return rows;
}

/** The words on an edge, read from the later session: "forked from", "continues", "follows". */
export function edgeVerb(kind: LineageEdgeKind): string {
  return kind === 'fork' ? 'fork' : kind === 'continues' ? 'continues' : 'follows';
}

/** The agent's name as the app shows it. */
export function agentName(source: SessionSummary['source']): string {
  return source === 'codex' ? 'Codex' : source === 'claude-code' ? 'Claude Code' : String(source);
}
