/**
 * The client's paged `sessions.graph` (renderer/src/client/session-graph-pages.ts): pages assemble into the
 * graph with its packed nodes kept for the layout worker, a whole graph on page 0 is decoded as the
 * one-message answer is, a host without `sessions.graphPage` is asked `sessions.graph`, and a window of
 * pages (PAGES_IN_FLIGHT) is asked for at once when the session's node count says how many there are, the
 * next one as each is taken.
 */
import { describe, expect, it } from 'vitest';
import { PARTIAL_GRAPH_PAGES, readGraphPages, withGraphPages } from '../../../../renderer/src/client/session-graph-pages';
import type { ArborClient } from '../../../../renderer/src/client/arbor-client';
import { ArborError } from '../../../../shared/errors';
import { packedNodesOf } from '../../../../shared/graph/packed-nodes';
import type { NodeSummary, SessionGraph, SessionSummary } from '../../../../shared/model';
import { encodeSessionGraphChunk, GRAPH_PAGE_NODES, PAGES_IN_FLIGHT, type SessionGraphChunk, type SessionGraphPage } from '../../../../shared/session-graph-chunks';
import { encodeSessionGraph } from '../../../../shared/session-graph-wire';
import { holdAnswers, settled } from '../../../fakes/held-answers';

const SESSION: SessionSummary = { id: 'S1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: 6, fileCount: 1, branchCount: 0 };

function nodes(count: number): NodeSummary[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `n${i}`, sessionId: 'S1', sourceId: `n${i}`, parentSourceId: i === 0 ? null : `n${i - 1}`, parentId: i === 0 ? null : `n${i - 1}`,
    extraEdges: [], kind: i % 2 === 0 ? 'user' : 'assistant', timestamp: `2026-01-05T09:00:0${i}.000Z`, label: `step ${i}`,
    toolCalls: [], sidechain: false, agentId: null, model: null,
  }));
}

function pagesOf(all: readonly NodeSummary[], size: number, version = 'v1'): SessionGraphPage[] {
  const pages: SessionGraphPage[] = [];
  const count = Math.ceil(all.length / size);
  for (let page = 0; page < count; page++) {
    const chunk = JSON.stringify(encodeSessionGraphChunk('S1', all.slice(page * size, (page + 1) * size)));
    pages.push({ version, page, pages: count, chunk, ...(page === 0 ? { session: SESSION } : {}) });
  }
  return pages;
}

describe('reading a session graph in pages', () => {
  it('assembles the pages into the graph and keeps its packed nodes', async () => {
    const all = nodes(6);
    const pages = pagesOf(all, 4);
    const graph = await readGraphPages(async (_method, request) => pages[(request as { page: number }).page] as never, 'S1');
    expect(graph).toEqual({ session: SESSION, nodes: all });
    expect(packedNodesOf(graph!.nodes)?.parents).toEqual(Int32Array.from([-1, 0, 1, 2, 3, 4]));
  });

  it('reads pages whose chunks came as values (the web host) as it reads chunks as text', async () => {
    const all = nodes(6);
    const pages = pagesOf(all, 4).map((page) => ({ ...page, chunk: '', chunkValue: JSON.parse(page.chunk) as SessionGraphChunk }));
    const graph = await readGraphPages(async (_method, request) => pages[(request as { page: number }).page] as never, 'S1');
    expect(graph).toEqual({ session: SESSION, nodes: all });
    expect(packedNodesOf(graph!.nodes)?.parents).toEqual(Int32Array.from([-1, 0, 1, 2, 3, 4]));
  });

  it('decodes a whole graph sent on page 0', async () => {
    const whole: SessionGraph = { session: SESSION, nodes: nodes(3) };
    const graph = await readGraphPages(async () => ({ version: 'whole', page: 0, pages: 1, chunk: '', graph: encodeSessionGraph(whole) }) as never, 'S1');
    expect(graph).toEqual(whole);
  });

  it('gives up after pages that keep changing version, and the wrapper asks sessions.graph', async () => {
    let calls = 0;
    const graph = await readGraphPages(async (_method, request) => {
      calls++;
      const page = (request as { page: number }).page;
      return pagesOf(nodes(6), 4, page === 0 ? `v${calls}` : 'other')[page] as never;
    }, 'S1');
    expect(graph).toBeNull();
    expect(calls).toBe(6);
  });

  it('a host without sessions.graphPage is asked sessions.graph', async () => {
    const whole: SessionGraph = { session: SESSION, nodes: nodes(2) };
    const asked: string[] = [];
    const inner = {
      host: 'web',
      call: async (method: string) => {
        asked.push(method);
        if (method === 'sessions.graphPage') throw new ArborError('BAD_REQUEST', 'unknown method "sessions.graphPage"');
        return whole;
      },
      on: () => () => undefined,
      connection: () => 'connected',
      onConnection: () => () => undefined,
      close: () => undefined,
    } as unknown as ArborClient;
    expect(await withGraphPages(inner).call('sessions.graph', { sessionId: 'S1' })).toBe(whole);
    expect(asked).toEqual(['sessions.graphPage', 'sessions.graph']);
    await expect(withGraphPages({ ...inner, call: async () => { throw new ArborError('NOT_FOUND', 'no session'); } } as ArborClient).call('sessions.graph', { sessionId: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  describe('showing a big session before the whole of it is in', () => {
    const all = nodes(3 * PARTIAL_GRAPH_PAGES);
    const pages = pagesOf(all, 3);

    it('hands out page 0 as a graph while the other pages are still on their way, then gives the whole', async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const partials: SessionGraph[] = [];
      const read = readGraphPages(
        async (_method, request) => {
          const page = (request as { page: number }).page;
          if (page > 0) await held;
          return pages[page] as never;
        },
        'S1',
        { onPartialGraph: (graph) => partials.push(graph) },
        pages.length,
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
      // Page 1 and later have not answered: the session's start is out already.
      expect(partials).toEqual([{ session: SESSION, nodes: all.slice(0, 3) }]);
      expect(packedNodesOf(partials[0]!.nodes)?.parents).toEqual(Int32Array.from([-1, 0, 1]));
      release();
      const whole = await read;
      expect(whole).toEqual({ session: SESSION, nodes: all });
      expect(whole!.nodes.slice(0, 3)).toEqual(partials[0]!.nodes);
      expect(partials).toHaveLength(1);
    });

    it('hands out nothing for a graph of fewer pages, which arrives whole about as soon', async () => {
      const few = pagesOf(nodes(3 * (PARTIAL_GRAPH_PAGES - 1)), 3);
      const partials: SessionGraph[] = [];
      const graph = await readGraphPages(async (_method, request) => few[(request as { page: number }).page] as never, 'S1', { onPartialGraph: (partial) => partials.push(partial) }, few.length);
      expect(graph?.nodes).toHaveLength(3 * (PARTIAL_GRAPH_PAGES - 1));
      expect(partials).toEqual([]);
    });
  });

  describe('asking for the pages', () => {
    /**
     * A host whose pages answer on a later task, counting the requests in flight: pages asked one after
     * another never have more than one out; pages past the session's end answer as the host does (no chunk).
     */
    function pagedHost(pages: readonly SessionGraphPage[], listed: SessionSummary) {
      const asked: number[] = [];
      let inFlight = 0;
      let mostInFlight = 0;
      const answer = async (request: { page: number }): Promise<SessionGraphPage> => {
        asked.push(request.page);
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 0));
        inFlight--;
        return pages[request.page] ?? { version: pages[0]!.version, page: request.page, pages: pages.length, chunk: '' };
      };
      const client = {
        host: 'web',
        call: async (method: string, request: unknown) => {
          if (method === 'sessions.list') return { sessions: [listed], total: 1 };
          if (method === 'sessions.graphPage') return answer(request as { page: number });
          throw new ArborError('BAD_REQUEST', `not asked here: ${method}`);
        },
        on: () => () => undefined,
        connection: () => 'connected',
        onConnection: () => () => undefined,
        close: () => undefined,
      } as unknown as ArborClient;
      return { client: withGraphPages(client), asked, mostInFlight: () => mostInFlight };
    }

    it('asks for every page at once when the list said how many nodes the session has, up to the window', async () => {
      const all = nodes(6);
      const pages = pagesOf(all, 2);
      const host = pagedHost(pages, { ...SESSION, nodeCount: 2 * GRAPH_PAGE_NODES + 1 });
      await host.client.call('sessions.list', { limit: 10, offset: 0 });
      expect(await host.client.call('sessions.graph', { sessionId: 'S1' })).toEqual({ session: SESSION, nodes: all });
      expect(host.mostInFlight()).toBe(3);
      expect(host.asked).toEqual([0, 1, 2]);

      const many = nodes(3 * PAGES_IN_FLIGHT * 2);
      const wide = pagedHost(pagesOf(many, 3), { ...SESSION, nodeCount: 2 * PAGES_IN_FLIGHT * GRAPH_PAGE_NODES });
      await wide.client.call('sessions.list', { limit: 10, offset: 0 });
      expect(await wide.client.call('sessions.graph', { sessionId: 'S1' })).toEqual({ session: SESSION, nodes: many });
      expect(wide.mostInFlight()).toBe(PAGES_IN_FLIGHT);
      expect(wide.asked).toEqual(Array.from({ length: 2 * PAGES_IN_FLIGHT }, (_, page) => page));
    });

    it('asks for the next page only as one is taken, however many pages the session has', async () => {
      // A host that answers a page only when let: a reader asking every page at once had all 23 pages of a 1 GB
      // session read and queued by the host before it had taken the first.
      const many = nodes(3 * 40);
      const pages = pagesOf(many, 3);
      const asked: number[] = [];
      const held = holdAnswers();
      const read = readGraphPages(
        (_method, request) => {
          const page = (request as { page: number }).page;
          asked.push(page);
          return held.hold(pages[page] as never);
        },
        'S1',
        { onPartialGraph: () => undefined },
        pages.length,
      );
      await settled();
      expect(asked).toEqual([0]);
      await held.letNext();
      // Page 0 taken: the window is out, nothing past it.
      expect(asked).toEqual(Array.from({ length: PAGES_IN_FLIGHT + 1 }, (_, page) => page));
      await held.letNext();
      expect(asked).toHaveLength(PAGES_IN_FLIGHT + 2);
      await held.letAll(() => expect(held.count).toBeLessThanOrEqual(PAGES_IN_FLIGHT));
      expect((await read)?.nodes).toEqual(many);
      expect(asked).toEqual(Array.from({ length: pages.length }, (_, page) => page));
    });

    it('asks for the pages page 0 names beyond the count it had, and leaves out pages past the end', async () => {
      const all = nodes(6);
      const more = pagedHost(pagesOf(all, 2), { ...SESSION, nodeCount: GRAPH_PAGE_NODES + 1 });
      await more.client.call('sessions.list', { limit: 10, offset: 0 });
      expect(await more.client.call('sessions.graph', { sessionId: 'S1' })).toEqual({ session: SESSION, nodes: all });
      expect(more.asked).toEqual([0, 1, 2]);

      const fewer = pagedHost(pagesOf(all, 4), { ...SESSION, nodeCount: 4 * GRAPH_PAGE_NODES });
      await fewer.client.call('sessions.list', { limit: 10, offset: 0 });
      expect(await fewer.client.call('sessions.graph', { sessionId: 'S1' })).toEqual({ session: SESSION, nodes: all });
      expect(fewer.asked).toEqual([0, 1, 2, 3]);
    });

    it('without a count, asks page 0 first and then the rest together', async () => {
      const all = nodes(6);
      const host = pagedHost(pagesOf(all, 2), SESSION);
      expect(await host.client.call('sessions.graph', { sessionId: 'S1' })).toEqual({ session: SESSION, nodes: all });
      expect(host.asked).toEqual([0, 1, 2]);
      expect(host.mostInFlight()).toBe(2);
    });

    it('decodes each page as it comes in, before the pages after it have answered', async () => {
      const pages = pagesOf(nodes(6), 2);
      const broken = { ...pages[1]!, chunk: JSON.stringify({ ...JSON.parse(pages[1]!.chunk), kinds: [0] }) };
      // Page 2 never answers: only a page decoded on arrival can fail the read.
      const read = readGraphPages(async (_method, request) => {
        const page = (request as { page: number }).page;
        return (page === 2 ? new Promise(() => undefined) : page === 1 ? broken : pages[0]) as never;
      }, 'S1', undefined, 3);
      await expect(read).rejects.toMatchObject({ code: 'INTERNAL' });
    });

    it('a whole graph on page 0 answers even when pages asked ahead fail', async () => {
      const whole: SessionGraph = { session: SESSION, nodes: nodes(3) };
      const graph = await readGraphPages(
        async (_method, request) => {
          if ((request as { page: number }).page > 0) throw new ArborError('IO', 'The connection to Arbor was lost');
          return { version: 'whole', page: 0, pages: 1, chunk: '', graph: encodeSessionGraph(whole) } as never;
        },
        'S1',
        undefined,
        3,
      );
      expect(graph).toEqual(whole);
    });
  });
});
