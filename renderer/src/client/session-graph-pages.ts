/**
 * `sessions.graph` read as `sessions.graphPage` pages: the stored chunks of a big session arrive as they are
 * read, are checked to be of one version, and are decoded one by one as they come in (into the nodes the
 * one-message answer gives, and the layout worker's packed form), so callers get the same SessionGraph. A
 * window of pages is asked at once (PAGES_IN_FLIGHT), the next one as each is taken: how many there are
 * follows from the session's node count (the sessions list says it), so page 0's answer (~2 MB at 100k nodes)
 * is not waited for; without a count, or with a stale one, the pages page 0 names follow it. A host without
 * the method answers through `sessions.graph`.
 */
import type { MethodName, RequestOf, ResultOf } from '../../../shared/contract';
import { ArborError, CancelledError } from '../../../shared/errors';
import { rememberPackedNodes } from '../../../shared/graph/packed-nodes';
import type { SessionGraph } from '../../../shared/model';
import { createSessionGraphChunkDecoder, type DecodedSessionGraph } from '../../../shared/session-graph-chunk-decode';
import { chunkOfPage, graphPagesFor, PAGES_IN_FLIGHT, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import type { ArborClient, CallOptions } from './arbor-client';
import { fromTransport } from './arbor-client';
import { markGraphStage } from './graph-timing';

/** Reads of a session that changed between its pages, before the graph is asked for in one message. */
const RESTARTS = 3;

/**
 * From this many pages on (~130k nodes), the session's start is handed out (CallOptions.onPartialGraph) as
 * soon as page 0 is decoded: the whole of a 1M-node session takes seconds to arrive, the first view shows
 * only its top. Smaller graphs arrive in about a second; a second layout so soon after would only flicker.
 */
export const PARTIAL_GRAPH_PAGES = 8;

type Call = <M extends MethodName>(method: M, request: RequestOf<M>, options?: CallOptions) => Promise<ResultOf<M>>;

/**
 * The session's graph from its pages; null when the host has no `sessions.graphPage` (an older Arbor) or the
 * session kept changing under the pages: the caller asks `sessions.graph`. `expectedPages`: how many pages
 * to ask for together with page 0 (graphPagesFor of the session's node count).
 */
export async function readGraphPages(call: Call, sessionId: string, options?: CallOptions, expectedPages = 1): Promise<SessionGraph | null> {
  // A session whose start is drawn first asks page 0 alone, then the rest: asked together, page 0 of a 1M-node
  // session came in after most of the 61 others (the first view 7-10 s after the click, not before them).
  const partial = options?.onPartialGraph !== undefined && expectedPages >= PARTIAL_GRAPH_PAGES;
  const ahead = partial ? 1 : Math.min(Math.max(1, Math.floor(expectedPages)), PAGES_IN_FLIGHT);
  for (let attempt = 0; attempt < RESTARTS; attempt++) {
    markGraphStage('sent');
    const asked: Promise<SessionGraphPage>[] = [];
    const ask = (page: number): void => {
      const answer = call('sessions.graphPage', { sessionId, page }, options);
      // Awaited in order below, unless page 0 (or an earlier page) ends the read first: never an unhandled rejection.
      answer.catch(() => undefined);
      asked.push(answer);
    };
    for (let page = 0; page < ahead; page++) ask(page);
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
    // Pages past the count (asked ahead of a shorter session) are not the graph's; pages nobody asked for yet
    // are, asked as the ones before them are taken (the window moves on).
    const take = (page: number): Promise<SessionGraphPage> => {
      for (let next = asked.length; next < Math.min(first.pages, page + PAGES_IN_FLIGHT); next++) ask(next);
      return asked[page]!;
    };
    // Page 0 is taken: the next pages come in while it decodes.
    if (first.pages > 1) void take(1);
    const read = await decodePages(first, take, first.pages >= PARTIAL_GRAPH_PAGES ? options?.onPartialGraph : undefined);
    // A page of another version: an import or a link changed the session between two pages.
    if (read === null) continue;
    if (read.packed !== null) rememberPackedNodes(read.graph.nodes, read.packed);
    if (first.pages < PARTIAL_GRAPH_PAGES || options?.onPartialGraph === undefined) markGraphStage('decoded');
    return read.graph;
  }
  return null;
}

/**
 * The pages decoded in order, each as soon as it is in (the next ones are on their way meanwhile); null
 * when one is of another version than page 0. 'received' marks the last page in, 'decoded' follows it. With
 * `onPartial`, page 0's nodes are handed to it first ('received' and 'decoded' then mark page 0, and
 * 'rest-received' and 'rest-decoded' the whole).
 */
async function decodePages(
  first: SessionGraphPage,
  take: (page: number) => Promise<SessionGraphPage>,
  onPartial?: (graph: SessionGraph) => void,
): Promise<DecodedSessionGraph | null> {
  const decoder = createSessionGraphChunkDecoder(first.session!, first.workspaceNodes);
  const last = first.pages - 1;
  const partial = onPartial !== undefined && last > 0;
  for (let k = 0; k <= last; k++) {
    const page = k === 0 ? first : await take(k);
    if (k === last) markGraphStage(partial ? 'rest-received' : 'received');
    else if (k === 0 && partial) markGraphStage('received');
    // The later pages' answers are left to land unread: the read starts again.
    if (page.version !== first.version || page.pages !== first.pages || (page.chunk === '' && page.chunkValue === undefined)) return null;
    decoder.add(chunkOfPage(page));
    if (k === 0 && partial) {
      const start = decoder.preview();
      if (start.packed !== null) rememberPackedNodes(start.graph.nodes, start.packed);
      markGraphStage('decoded');
      onPartial(start.graph);
    }
  }
  const whole = decoder.finish();
  if (partial) markGraphStage('rest-decoded');
  return whole;
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
