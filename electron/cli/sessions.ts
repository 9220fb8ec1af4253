/** Finding a session from what the user typed: a full id or a unique prefix of one (like git). */
import type { ArborApi } from '../../shared/contract';
import { ArborError } from '../../shared/errors';
import type { SessionGraph, SessionSummary } from '../../shared/model';

const PAGE = 10_000;

/** Every session in the store, page by page. */
export async function listAllSessions(api: ArborApi, signal: AbortSignal): Promise<SessionSummary[]> {
  const sessions: SessionSummary[] = [];
  for (;;) {
    const page = await api['sessions.list']({ limit: PAGE, offset: sessions.length }, { signal });
    sessions.push(...page.sessions);
    if (page.sessions.length === 0 || sessions.length >= page.total) return sessions;
  }
}

/**
 * The session's id, by full id or unique prefix, without reading its graph (the ledger and the export read it a
 * page at a time, or once, themselves: resolving the id through `sessions.graph` held a 1 GB session's whole
 * graph in the process first). Errors as loadSessionGraph's.
 */
export async function findSessionId(api: ArborApi, idOrPrefix: string, signal: AbortSignal): Promise<string> {
  const matches = (await listAllSessions(api, signal)).filter((s) => s.id.startsWith(idOrPrefix));
  if (matches.some((s) => s.id === idOrPrefix)) return idOrPrefix;
  // A folder with only Arbor's snapshots is no listed session but has a graph: asked as before.
  if (matches.length !== 1) return (await loadSessionGraph(api, idOrPrefix, signal)).session.id;
  return matches[0]!.id;
}

/** The session's graph, by full id or unique prefix. NOT_FOUND when nothing matches, BAD_REQUEST when ambiguous. */
export async function loadSessionGraph(api: ArborApi, idOrPrefix: string, signal: AbortSignal): Promise<SessionGraph> {
  try {
    return await api['sessions.graph']({ sessionId: idOrPrefix }, { signal });
  } catch (error) {
    if (!(error instanceof ArborError && error.code === 'NOT_FOUND')) throw error;
  }
  const matches = (await listAllSessions(api, signal)).filter((s) => s.id.startsWith(idOrPrefix));
  const only = matches[0];
  if (only === undefined) throw new ArborError('NOT_FOUND', `no session matches "${idOrPrefix}"`);
  if (matches.length > 1) {
    const some = matches.slice(0, 5).map((s) => s.id).join(', ');
    throw new ArborError('BAD_REQUEST', `"${idOrPrefix}" matches ${matches.length} sessions (${some}${matches.length > 5 ? ', …' : ''}); type more of the id`);
  }
  return api['sessions.graph']({ sessionId: only.id }, { signal });
}
