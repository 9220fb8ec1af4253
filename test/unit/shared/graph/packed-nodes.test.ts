/**
 * A decoded session graph brings its packed form (the wire's columns, parents as indices), and a tree built
 * from those links is the tree built by looking every id up: the same structure, whatever the graph holds
 * (parents outside it, edges to nodes outside it, duplicate ids, Arbor's forks, snapshots and merges).
 */
import { describe, expect, it } from 'vitest';
import { fromTransport } from '../../../../renderer/src/client/arbor-client';
import { linksOfPacked, packedNodesOf, packEncodedNodes, packGraphNodes, unpackGraphNodes } from '../../../../shared/graph/packed-nodes';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { buildSessionTree, toGraphNode } from '../../../../shared/graph/session-tree';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import type { WorkspaceNodeInfo } from '../../../../shared/operations';
import { encodeSessionGraph, type EncodedSessionGraph } from '../../../../shared/session-graph-wire';

function node(id: string, over: Partial<NodeSummary> = {}): NodeSummary {
  return {
    id, sessionId: 'S1', sourceId: id, parentSourceId: over.parentId ?? null, parentId: null, extraEdges: [], kind: 'assistant',
    timestamp: '2026-01-05T09:00:00.000Z', label: `label of ${id}`, toolCalls: [], sidechain: false, agentId: null, model: null, ...over,
  };
}

/** A session with Arbor's own nodes (a manual snapshot, a fork with its continuation, a merge) and every awkward link. */
function sessionWithArborNodes(): SessionGraph {
  const nodes: NodeSummary[] = [
    node('u1', { kind: 'user' }),
    node('a1', { parentId: 'u1', timestamp: null }),
    node('c1', { kind: 'tool_call', parentId: 'a1', timestamp: '2026-01-05T09:00:02.000Z', toolCalls: [{ id: 't1', name: 'Task', outcome: 'ok' }] }),
    node('g1', { kind: 'user', sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c1' }] }),
    node('g2', { kind: 'assistant', sidechain: true, parentId: 'g1' }),
    node('r1', { kind: 'tool_result', parentId: 'gone-from-graph', extraEdges: [{ kind: 'logical', nodeId: 'also-gone' }] }),
    node('u2', { kind: 'user', parentId: 'a1', timestamp: '2026-01-05T09:01:00.000Z' }),
    node('u3', { kind: 'user', parentId: 'a1', timestamp: '2026-01-05T09:02:00.000Z' }),
    node('a1', { parentId: 'u3', label: 'a duplicate id: the first one counts' }),
    node('k1', { kind: 'compaction', extraEdges: [{ kind: 'logical', nodeId: 'u3' }, { kind: 'merge', nodeId: 'outside' }] }),
    node('self', { parentId: 'self', extraEdges: [{ kind: 'logical', nodeId: 'self' }, { kind: 'fork-of', nodeId: 'u2' }] }),
    node('snapshot:manual-1', { kind: 'system', parentId: 'u2' }),
    node('snapshot:fork-1', { kind: 'system', parentId: 'a1', extraEdges: [{ kind: 'fork-of', nodeId: 'a1' }] }),
    node('fork-go-on', { kind: 'user', parentId: 'snapshot:fork-1' }),
    node('snapshot:merge-1', { kind: 'system', parentId: 'fork-go-on', extraEdges: [{ kind: 'merge', nodeId: 'c1' }] }),
  ];
  const workspaceNodes: WorkspaceNodeInfo[] = [
    { nodeId: 'snapshot:manual-1', kind: 'snapshot', dir: '/w' },
    { nodeId: 'snapshot:fork-1', kind: 'fork', dir: '/w-fork' },
    { nodeId: 'snapshot:merge-1', kind: 'merge', dir: '/w' },
  ];
  return { session: { id: 'S1', source: 'claude-code', title: 't', project: '/w', startedAt: null, updatedAt: null, nodeCount: nodes.length, fileCount: 1, branchCount: 0 }, nodes, workspaceNodes };
}

const withoutMaps = <T extends { nodes: unknown; indexById: unknown }>({ nodes: _nodes, indexById: _index, ...rest }: T) => rest;

describe('a decoded session graph’s packed form', () => {
  it('is the packed form of its nodes, and links the same structure as looking every id up', () => {
    const graph = sessionWithArborNodes();
    const encoded = encodeSessionGraph(graph)!;
    const decoded = fromTransport('sessions.graph', structuredClone(encoded)) as SessionGraph;
    expect(decoded).toEqual(graph);
    const packed = packedNodesOf(decoded.nodes);
    expect(packed).toBeDefined();
    const firstIndex = new Map<string, number>();
    graph.nodes.forEach((n, i) => firstIndex.has(n.id) || firstIndex.set(n.id, i));
    expect(packed).toEqual(packGraphNodes(graph.nodes, firstIndex));
    expect(unpackGraphNodes(structuredClone(packed!))).toEqual(graph.nodes.map(toGraphNode));

    // The decoded nodes are linked by index (remembered); a copy of them is linked by looking ids up.
    const linked = buildSessionStructure(decoded.nodes, undefined, graph.workspaceNodes);
    const lookedUp = buildSessionStructure([...graph.nodes], undefined, graph.workspaceNodes);
    expect(withoutMaps(linked)).toEqual(withoutMaps(lookedUp));
    expect(linked.branchHead.reduce((a, b) => a + b, 0)).toBe(3);
    // The id map is made on first use, and says what the looked-up one says.
    expect([...linked.indexById]).toEqual([...lookedUp.indexById]);
    expect(linked.indexById.get('a1')).toBe(1);
  });

  it('links the worker’s unpacked nodes by index too', () => {
    const graph = sessionWithArborNodes();
    const packed = packEncodedNodes(encodeSessionGraph(graph)!, graph.nodes)!;
    const nodes = unpackGraphNodes(structuredClone(packed));
    expect(withoutMaps(buildSessionTree(nodes, linksOfPacked(packed)))).toEqual(withoutMaps(buildSessionTree(graph.nodes.map(toGraphNode))));
  });

  it('is not made from a wire form without edge targets or with bad ones (the view packs the nodes itself)', () => {
    const graph = sessionWithArborNodes();
    const encoded = encodeSessionGraph(graph)!;
    const { edgeTargets: _targets, ...older } = encoded;
    expect(packEncodedNodes(older as EncodedSessionGraph, graph.nodes)).toBeNull();
    const outOfRange = { ...encoded, edgeTargets: encoded.edgeTargets!.map(() => graph.nodes.length) };
    expect(packEncodedNodes(outOfRange, graph.nodes)).toBeNull();
    const decoded = fromTransport('sessions.graph', older) as SessionGraph;
    expect(decoded).toEqual(graph);
    expect(packedNodesOf(decoded.nodes)).toBeUndefined();
  });

  it('links by index only the nodes it was made for', () => {
    const graph = sessionWithArborNodes();
    const packed = packEncodedNodes(encodeSessionGraph(graph)!, graph.nodes)!;
    // Links of another length are ignored: the tree is built by looking ids up.
    const fewer = graph.nodes.slice(0, 5);
    expect(withoutMaps(buildSessionTree(fewer, linksOfPacked(packed)))).toEqual(withoutMaps(buildSessionTree([...fewer])));
  });
});
