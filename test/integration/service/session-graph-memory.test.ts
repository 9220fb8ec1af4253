/**
 * What the service holds for an opened session's graph: a stored session's whole graph is kept in the form it
 * is sent in (its stored chunks assembled), the answer the same as encoding its decoded nodes, each page that
 * graph's slice; and the graph cache is bounded by an estimate of bytes, not by a count of graphs (two 1 GB
 * sessions' graphs, each decoded beside its encoding and text, made most of a 2.2 GB peak).
 */
import { describe, expect, it } from 'vitest';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { forTransport } from '../../../electron/host/dispatch';
import { wireText } from '../../../electron/host/wire-text';
import { createSessionGraphs, DECODED_NODE_BYTES } from '../../../electron/service/session-graphs';
import { chunkOfPage, decodeSessionGraphChunk, GRAPH_PAGE_NODES } from '../../../shared/session-graph-chunks';
import { encodeSessionGraph, rememberedEncodedGraph } from '../../../shared/session-graph-wire';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';
import { useStoreWorkspace } from './store-workspace';

const fixture = useStoreWorkspace('arbor-graph-memory-');

/** A chain of `count` nodes in session `sessionId`, some labels not ASCII (the wire escapes them). */
function importChain(sessionId: string, count: number): void {
  const nodes: ParsedNode[] = [];
  let parent: string | null = null;
  for (let k = 0; k < count; k++) {
    const id = `${sessionId}-n${k}`;
    nodes.push(
      parsedNode(id, parent, {
        sessionSourceId: sessionId,
        kind: k % 2 === 0 ? 'user' : 'assistant',
        label: k % 7 === 3 ? `fix the “bug” ✓ ${k}` : `step ${k}`,
        timestamp: `2026-01-05T09:00:00.${String(k % 1000).padStart(3, '0')}Z`,
      }),
    );
    parent = id;
  }
  const writer = fixture.store.beginFile(transcriptFile(`/t/${sessionId}.jsonl`, { sessionHint: sessionId }));
  for (const node of inOrder(nodes, 1)) writer.node(node);
  writer.finish({ endOffset: 100 + count, endLine: count });
  fixture.store.linkChangedSessions();
}

const NON_ASCII = /[\u0080-\uffff]/g;
const ascii = (text: string): string => text.replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe("a stored session's whole graph", () => {
  it('is sent in the form it is kept in, the same answer as encoding its decoded nodes, and each page is its slice', async () => {
    importChain('S1', GRAPH_PAGE_NODES + 3000);
    const graphs = createSessionGraphs(fixture.workspace);
    const graph = await graphs['sessions.graph']({ sessionId: 'S1' });
    const rows = await createSessionGraphs(fixture.workspace, { pageRows: 8192 })['sessions.graph']({ sessionId: 'S1' });
    expect(graph).toEqual(rows);
    // Kept encoded: the transport sends that very form, not an encoding of node objects made for it.
    const kept = rememberedEncodedGraph(graph);
    expect(kept).toBeDefined();
    expect(forTransport('sessions.graph', graph)).toBe(kept);
    expect(kept).toEqual(encodeSessionGraph(rows));
    const message = { t: 'res' as const, id: 12, ok: true as const, result: kept };
    // Written a column slice at a time, the text is the one JSON.stringify gives, escaped to ASCII.
    const text = wireText(message);
    expect(text).toBe(ascii(JSON.stringify(message)));
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...message, result: encodeSessionGraph(rows) });

    const pages = 2;
    for (let page = 0; page < pages; page++) {
      const answer = await graphs['sessions.graphPage']({ sessionId: 'S1', page });
      expect(answer.pages).toBe(pages);
      expect(decodeSessionGraphChunk('S1', chunkOfPage(answer))).toEqual(rows.nodes.slice(page * GRAPH_PAGE_NODES, (page + 1) * GRAPH_PAGE_NODES));
    }
  });

  it('decodes its nodes for a caller in the process, the same array while that caller holds it', async () => {
    importChain('S1', 500);
    const graph = await createSessionGraphs(fixture.workspace)['sessions.graph']({ sessionId: 'S1' });
    const nodes = graph.nodes;
    expect(nodes).toHaveLength(500);
    expect(graph.nodes).toBe(nodes);
    expect(nodes[3]!.label).toBe('fix the “bug” ✓ 3');
  });
});

describe('the graph cache', () => {
  it('keeps graphs up to its byte budget, oldest let go first, and none bigger than the budget', async () => {
    importChain('S1', 2000);
    importChain('S2', 2000);
    const one = 2000 * DECODED_NODE_BYTES;
    // Read from the rows (decoded graphs, estimated per node), so the estimate of each is known here.
    const roomy = createSessionGraphs(fixture.workspace, { pageRows: 512, cachedGraphBytes: 3 * one });
    const a = await roomy['sessions.graph']({ sessionId: 'S1' });
    const b = await roomy['sessions.graph']({ sessionId: 'S2' });
    expect(await roomy['sessions.graph']({ sessionId: 'S1' })).toBe(a);
    expect(await roomy['sessions.graph']({ sessionId: 'S2' })).toBe(b);

    const tight = createSessionGraphs(fixture.workspace, { pageRows: 512, cachedGraphBytes: 1.5 * one });
    const first = await tight['sessions.graph']({ sessionId: 'S1' });
    const second = await tight['sessions.graph']({ sessionId: 'S2' });
    expect(await tight['sessions.graph']({ sessionId: 'S2' })).toBe(second);
    const again = await tight['sessions.graph']({ sessionId: 'S1' });
    expect(again).not.toBe(first); // S2 took the room: S1 was read again
    expect(again).toEqual(first);

    // A stored (compact) graph bigger than the whole budget is answered and not kept.
    const none = createSessionGraphs(fixture.workspace, { cachedGraphBytes: 1 });
    const once = await none['sessions.graph']({ sessionId: 'S1' });
    const twice = await none['sessions.graph']({ sessionId: 'S1' });
    expect(twice).not.toBe(once);
    expect(twice).toEqual(once);
    expect(once).toEqual(first);
  });
});
