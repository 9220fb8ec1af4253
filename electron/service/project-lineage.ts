/**
 * `sessions.projectLineage` (issue 14): every listed session of one project (the list's project key: the folder
 * the agent ran in), Claude Code and Codex alike, with the links between them — the graph of lineage the
 * project view draws and `arbor lineage` prints.
 */
import { throwIfAborted } from '../../shared/errors';
import type { SessionSummary } from '../../shared/model';
import type { ProjectLineage, ProjectLineageEdge } from '../../shared/project-lineage';

type ListSessions = (request: { limit?: number }) => Promise<{ sessions: SessionSummary[] }>;

/** The list's whole length at most: a project view of more sessions than that is not one anyone reads. */
const SESSION_LIMIT = 100_000;

export async function projectLineage(list: ListSessions, project: string, signal?: AbortSignal): Promise<ProjectLineage> {
  const { sessions } = await list({ limit: SESSION_LIMIT });
  throwIfAborted(signal);
  const mine = sessions
    .filter((session) => projectOf(session) === project)
    .sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.id.localeCompare(b.id));
  const ids = new Set(mine.map((session) => session.id));
  const edges: ProjectLineageEdge[] = [];
  for (const session of mine) {
    for (const link of session.links ?? []) {
      // Each link is listed on both sessions: taken once, from the later one.
      if (link.direction !== 'earlier' || !ids.has(link.sessionId)) continue;
      edges.push({ kind: link.kind, earlierId: link.sessionId, laterId: session.id, nodeId: link.nodeId });
    }
  }
  return { project, sessions: mine, edges };
}

/** The project a listed session is grouped under (the list's own key, else its folder). */
export function projectOf(session: SessionSummary): string {
  return session.projectKey ?? session.project ?? 'unknown project';
}
