/**
 * `sessions.graph` read as `sessions.graphPage` pages: the stored chunks of a big session arrive as they are
 * read, are checked to be of one version, and are assembled into the compact form the one-message answer
 * has, so callers get the same SessionGraph (and the layout worker the same packed nodes). Every page is asked
 * at once: how many there are follows from the session's node count (the sessions list says it), so page 0's
 * answer (~2 MB at 100k nodes, received and parsed before anything else could be asked) is not waited for;
 * without a count, or with a stale one, the pages page 0 names and nobody asked for follow it. A host
 * without the method answers through `sessions.graph`.
 */
import type { MethodName, RequestOf, ResultOf } from '../../../shared/contract';
import { ArborError, CancelledError } from '../../../shared/errors';
import { rememberPackedNodes } from '../../../shared/graph/packed-nodes';
import type { SessionGraph } from '../../../shared/model';
import { decodeSessionGraphChunks } from '../../../shared/session-graph-chunk-decode';
import { chunkOfPage, graphPagesFor, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import type { ArborClient, CallOptions } from './arbor-client';
import { fromTransport } from './arbor-client';
import { markGraphStage } from './graph-timing';

/** Reads of a session that changed between its pages, before the graph is asked for in one message. */
const RESTARTS = 3;

/** Pages asked for ahead of page 0 at most (a count from a list gone wrong must not flood the host). */
const MAX_PAGES_AHEAD = 256;

type Call = <M extends MethodName>(method: M, request: RequestOf<M>, options?: CallOptions) => Promise<ResultOf<M>>;

/**
 * The session's graph from its pages; null when the host has no `sessions.graphPage` (an older Arbor) or the
 * session kept changing under the pages: the caller asks `sessions.graph`. `expectedPages`: how many pages
 * to ask for together with page 0 (graphPagesFor of the session's node count).
 */
export async function readGraphPages(call: Call, sessionId: string, options?: CallOptions, expectedPages = 1): Promise<SessionGraph | null> {
  const ahead = Math.min(Math.max(1, Math.floor(expectedPages)), MAX_PAGES_AHEAD);
  for (let attempt = 0; attempt < RESTARTS; attempt++) {
    markGraphStage('sent');
    const asked: Promise<SessionGraphPage>[] = [];
    for (let page = 0; page < ahead; page++) {
      const answer = call('sessions.graphPage', { sessionId, page }, options);
      // Awaited below unless page 0 says the graph came whole or not at all; never an unhandled rejection.
      answer.catch(() => undefined);
      asked.push(answer);
    }
    let first: SessionGraphPage;
    try {
      first = await asked[0]!;
    } catch (error) {
      if (error instanceof CancelledError || (error instanceof ArborError && error.code !== 'BAD_REQUEST' && error.code !== 'INTERNAL')) throw error;
      return null;
    }
    if (first.graph !== undefined) {
      markGraphStage('received');
      const graph = fromTransport('sessions.graph', first.graph) as SessionGraph;
      markGraphStage('decoded');
      return graph;
    }
    if (first.session === undefined) return null;
    // Pages past the count (asked ahead of a shorter session) are not the graph's; pages nobody asked for yet are.
    for (let page = asked.length; page < first.pages; page++) asked.push(call('sessions.graphPage', { sessionId, page }, options));
    const pages = [first, ...(await Promise.all(asked.slice(1, first.pages)))];
    markGraphStage('received');
    // A page of another version: an import or a link changed the session between two pages.
    if (pages.some((page) => page.version !== first.version || page.pages !== first.pages || (page.chunk === '' && page.chunkValue === undefined))) continue;
    const { graph, packed } = decodeSessionGraphChunks(first.session, pages.map(chunkOfPage), first.workspaceNodes);
    if (packed !== null) rememberPackedNodes(graph.nodes, packed);
    markGraphStage('decoded');
    return graph;
  }
  return null;
}

/**
 * The client with `sessions.graph` answered from pages where the host has them. The node counts of the
 * sessions the list answered say how many pages to ask for at once.
 */
export function withGraphPages(client: ArborClient): ArborClient {
  const call: Call = (method, request, options) => client.call(method, request, options);
  const expectedPages = new Map<string, number>();
  return {
    ...client,
    host: client.host,
    connection: () => client.connection(),
    async call(method, request, options) {
      if (method === 'sessions.list') {
        const listed = await client.call(method, request, options);
        for (const session of (listed as ResultOf<'sessions.list'>).sessions) expectedPages.set(session.id, graphPagesFor(session.nodeCount));
        return listed;
      }
      if (method !== 'sessions.graph') return client.call(method, request, options);
      const { sessionId } = request as RequestOf<'sessions.graph'>;
      const graph = await readGraphPages(call, sessionId, options, expectedPages.get(sessionId) ?? 1);
      return (graph ?? (await client.call(method, request, options))) as ResultOf<typeof method>;
    },
  };
}
