/**
 * The stored chunks decoded straight into nodes and packed nodes (shared/session-graph-chunk-decode.ts) give
 * what assembling them into one compact form, then decoding and packing it, gave: for every cut of a session
 * with parents, edge ends, tables and times crossing chunks, and for nodes the packed form cannot hold.
 */
import { describe, expect, it } from 'vitest';
import { ArborError } from '../../../shared/errors';
import { packEncodedNodes } from '../../../shared/graph/packed-nodes';
import type { NodeSummary, SessionSummary } from '../../../shared/model';
import { createSessionGraphChunkDecoder, decodeSessionGraphChunks } from '../../../shared/session-graph-chunk-decode';
import { assembleSessionGraphChunks, encodeSessionGraphChunk, type SessionGraphChunk } from '../../../shared/session-graph-chunks';
import { decodeSessionGraph } from '../../../shared/session-graph-wire';
import { expectDeepEqual } from '../deep-equal';
import { syntheticGraph } from '../../../scripts/bench/graph';

const SESSION: SessionSummary = { id: 'bench', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: 0, fileCount: 1, branchCount: 0 };

/** The synthetic session with what the codec treats specially: non-canonical times, outside parents and edge ends, several calls. */
function awkwardNodes(count: number): NodeSummary[] {
  return syntheticGraph(count, 11).map((node, i) => {
    if (i % 97 === 5) return { ...node, timestamp: null };
    if (i % 89 === 3) return { ...node, timestamp: '2026-02-30T09:00:00.000Z', label: 'fix the “bug” — ✓ 🌳' };
    if (i % 83 === 4) return { ...node, parentId: 'elsewhere', parentSourceId: 'elsewhere-source' };
    if (i % 61 === 8 && i > 0) return { ...node, parentSourceId: 'resumed-copy' };
    if (i % 79 === 6) return { ...node, model: 'claude-opus-4-6', agentId: 'agent-1', extraEdges: [{ kind: 'merge', nodeId: 'outside' }, { kind: 'logical', nodeId: 'node-0' }] };
    if (i % 71 === 2 && node.toolCalls.length > 0) return { ...node, toolCalls: [{ ...node.toolCalls[0]!, outcome: 'error' }, { id: `x-${i}`, name: 'WebFetch', outcome: 'missing' }] };
    return node;
  });
}

/** Cut as the store cuts, through JSON as they are stored and sent. */
function chunksOf(nodes: readonly NodeSummary[], size: number): SessionGraphChunk[] {
  const chunks: SessionGraphChunk[] = [];
  for (let start = 0; start < nodes.length; start += size) chunks.push(JSON.parse(JSON.stringify(encodeSessionGraphChunk(SESSION.id, nodes.slice(start, start + size)))) as SessionGraphChunk);
  return chunks;
}

describe('decoding stored graph chunks', () => {
  const nodes = awkwardNodes(1000);

  it('gives the nodes and packed form the assembled graph gives, for every cut', () => {
    for (const size of [1, 7, 300, 999, 5000]) {
      const chunks = chunksOf(nodes, size);
      const assembled = assembleSessionGraphChunks(SESSION, chunks);
      const expected = decodeSessionGraph(assembled);
      const decoded = decodeSessionGraphChunks(SESSION, chunks);
      expectDeepEqual(decoded.graph, expected);
      expectDeepEqual(decoded.packed, packEncodedNodes(assembled, expected.nodes));
    }
  });

  it('resolves a parent or edge end named in a later chunk, decoding chunk by chunk', () => {
    // The reply comes before its prompt in the order stored, so its chunk names a parent the next chunk holds.
    const forward = nodes.slice(0, 12).map((node, i) => (i === 2 ? { ...node, parentId: 'node-9', extraEdges: [{ kind: 'logical' as const, nodeId: 'node-10' }] } : node));
    const chunks = chunksOf(forward, 4);
    const decoder = createSessionGraphChunkDecoder(SESSION);
    for (const chunk of chunks) decoder.add(chunk);
    const decoded = decoder.finish();
    const assembled = assembleSessionGraphChunks(SESSION, chunks);
    expect(decoded.graph).toEqual(decodeSessionGraph(assembled));
    expect(decoded.packed).toEqual(packEncodedNodes(assembled, decoded.graph.nodes));
    expect(decoded.packed!.parents[2]).toBe(9);
    expect(decoded.packed!.edgeTargets[0]).toBe(10);
  });

  it('previews the chunks so far as decoding them alone does, and the whole still equals all at once', () => {
    const workspaceNodes = [{ nodeId: 'node-3', kind: 'snapshot' as const, dir: '/w' }, { nodeId: 'node-900', kind: 'fork' as const, dir: '/f' }];
    for (const size of [1, 7, 300, 999]) {
      const chunks = chunksOf(nodes, size);
      const decoder = createSessionGraphChunkDecoder(SESSION, workspaceNodes);
      const previews = [];
      for (let k = 0; k < chunks.length; k++) {
        decoder.add(chunks[k]!);
        if (k === 0 || k === Math.floor(chunks.length / 2)) previews.push({ k, preview: decoder.preview() });
      }
      const whole = decoder.finish();
      expectDeepEqual(whole, decodeSessionGraphChunks(SESSION, chunks, workspaceNodes));
      for (const { k, preview } of previews) {
        const alone = decodeSessionGraphChunks(SESSION, chunks.slice(0, k + 1), workspaceNodes);
        // Arbor's nodes that are not among the first nodes yet are left out of the preview.
        const shown = new Set(alone.graph.nodes.map((node) => node.id));
        expectDeepEqual(preview, { ...alone, graph: { ...alone.graph, workspaceNodes: workspaceNodes.filter((info) => shown.has(info.nodeId)) } });
        // The same node objects as the whole graph's start, in an array of their own.
        expect(preview.graph.nodes).not.toBe(whole.graph.nodes);
        expect(preview.graph.nodes[0]).toBe(whole.graph.nodes[0]);
      }
    }
  });

  it('a preview resolves parents named in its chunks only, and the finish resolves the rest', () => {
    const forward = nodes.slice(0, 12).map((node, i) => (i === 2 ? { ...node, parentId: 'node-9', extraEdges: [{ kind: 'logical' as const, nodeId: 'node-10' }] } : node));
    const chunks = chunksOf(forward, 4);
    const decoder = createSessionGraphChunkDecoder(SESSION);
    decoder.add(chunks[0]!);
    const preview = decoder.preview();
    expect(preview.packed!.parents[2]).toBe(-2);
    expect(preview.packed!.outsideParents).toEqual([2, 'node-9']);
    expect(preview.packed!.edgeTargets[0]).toBe(-1);
    decoder.add(chunks[1]!);
    decoder.add(chunks[2]!);
    const whole = decoder.finish();
    expect(whole.packed!.parents[2]).toBe(9);
    expect(whole.packed!.edgeTargets[0]).toBe(10);
    // The preview handed out earlier is its own: the finish changed none of its arrays.
    expect(preview.packed!.parents[2]).toBe(-2);
    expect(preview.graph.nodes).toHaveLength(4);
  });

  it('gives back the nodes that were stored', () => {
    expectDeepEqual(decodeSessionGraphChunks(SESSION, chunksOf(nodes, 300)).graph.nodes, nodes);
  });

  it('keeps the workspace nodes beside them', () => {
    const workspaceNodes = [{ nodeId: 'node-3', kind: 'snapshot' as const, dir: '/w' }];
    expect(decodeSessionGraphChunks(SESSION, chunksOf(nodes.slice(0, 10), 4), workspaceNodes).graph.workspaceNodes).toEqual(workspaceNodes);
  });

  it('gives no packed form when a timestamp is empty, and still the nodes', () => {
    const odd = nodes.slice(0, 20).map((node, i) => (i === 9 ? { ...node, timestamp: '' } : node));
    const decoded = decodeSessionGraphChunks(SESSION, chunksOf(odd, 8));
    expect(decoded.packed).toBeNull();
    expect(decoded.graph.nodes).toEqual(odd);
  });

  it('decodes no chunks as an empty graph', () => {
    const decoded = decodeSessionGraphChunks(SESSION, []);
    expect(decoded.graph.nodes).toEqual([]);
    expect(decoded.packed?.count).toBe(0);
  });

  it('refuses a malformed chunk with INTERNAL', () => {
    const [chunk] = chunksOf(nodes.slice(0, 5), 5);
    expect(() => decodeSessionGraphChunks(SESSION, [{ ...chunk!, kinds: [0] }])).toThrow(ArborError);
    expect(() => decodeSessionGraphChunks(SESSION, [{ ...chunk!, codec: 'x' } as unknown as SessionGraphChunk])).toThrow(/Malformed/);
    expect(() => decodeSessionGraphChunks(SESSION, [{ ...chunk!, kinds: chunk!.kinds.map(() => 99) }])).toThrow(/kind/);
    expect(() => decodeSessionGraphChunks(SESSION, [{ ...chunk!, parents: chunk!.parents.map(() => 40) }])).toThrow(/parent/);
  });
});
