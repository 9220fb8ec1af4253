/**
 * `sessions.graph` read as `sessions.graphPage` pages: the stored chunks of a big session arrive as they are
 * read (page 0 first, then every other page asked at once), are checked to be of one version, and are
 * assembled into the compact form the one-message answer has, so callers get the same SessionGraph (and the
 * layout worker the same packed nodes). A host without the method answers through `sessions.graph`.
 */
import type { MethodName, RequestOf, ResultOf } from '../../../shared/contract';
import { ArborError, CancelledError } from '../../../shared/errors';
import { rememberPackedNodes } from '../../../shared/graph/packed-nodes';
import type { SessionGraph } from '../../../shared/model';
import { decodeSessionGraphChunks } from '../../../shared/session-graph-chunk-decode';
import { chunkOfPage, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import type { ArborClient, CallOptions } from './arbor-client';
import { fromTransport } from './arbor-client';
import { markGraphStage } from './graph-timing';

/** Reads of a session that changed between its pages, before the graph is asked for in one message. */
const RESTARTS = 3;

type Call = <M extends MethodName>(method: M, request: RequestOf<M>, options?: CallOptions) => Promise<ResultOf<M>>;

/**
 * The session's graph from its pages; null when the host has no `sessions.graphPage` (an older Arbor) or the
 * session kept changing under the pages: the caller asks `sessions.graph`.
 */
export async function readGraphPages(call: Call, sessionId: string, options?: CallOptions): Promise<SessionGraph | null> {
  for (let attempt = 0; attempt < RESTARTS; attempt++) {
    markGraphStage('sent');
    let first: SessionGraphPage;
    try {
      first = await call('sessions.graphPage', { sessionId, page: 0 }, options);
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
    const rest: Promise<SessionGraphPage>[] = [];
    for (let page = 1; page < first.pages; page++) rest.push(call('sessions.graphPage', { sessionId, page }, options));
    const pages = [first, ...(await Promise.all(rest))];
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

/** The client with `sessions.graph` answered from pages where the host has them. */
export function withGraphPages(client: ArborClient): ArborClient {
  const call: Call = (method, request, options) => client.call(method, request, options);
  return {
    ...client,
    host: client.host,
    connection: () => client.connection(),
    async call(method, request, options) {
      if (method !== 'sessions.graph') return client.call(method, request, options);
      const graph = await readGraphPages(call, (request as RequestOf<'sessions.graph'>).sessionId, options);
      return (graph ?? (await client.call(method, request, options))) as ResultOf<typeof method>;
    },
  };
}
