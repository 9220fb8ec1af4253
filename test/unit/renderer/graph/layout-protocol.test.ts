import { describe, expect, it } from 'vitest';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { toGraphNode, type GraphNode } from '../../../../shared/graph/session-tree';
import type { NodeSummary } from '../../../../shared/model';
import { layoutTransfer, packGraphNodes, requestNodes, structureArrays, structureForView, unpackGraphNodes } from '../../../../renderer/src/graph/layout-protocol';
import { layoutSession } from '../../../../shared/graph/session-layout';

function node(id: string, over: Partial<GraphNode> = {}): GraphNode {
  return { id, parentId: null, extraEdges: [], kind: 'assistant', timestamp: '2026-01-05T09:00:00.000Z', sidechain: false, ...over };
}

/** Every shape the packed form treats specially: roots, a parent outside the graph, edges, null times, sidechains, Arbor's nodes. */
function awkwardNodes(): GraphNode[] {
  return [
    node('u1', { kind: 'user' }),
    node('a1', { parentId: 'u1', timestamp: null }),
    node('c1', { kind: 'tool_call', parentId: 'a1', timestamp: '2026-01-05T09:00:02Z' }),
    node('g1', { kind: 'user', sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c1' }] }),
    node('r1', { kind: 'tool_result', parentId: 'gone-from-graph' }),
    node('k1', { kind: 'compaction', extraEdges: [{ kind: 'logical', nodeId: 'a1' }, { kind: 'merge', nodeId: 'outside' }] }),
    node('snapshot:fork-1', { kind: 'system', parentId: 'a1', extraEdges: [{ kind: 'fork-of', nodeId: 'a1' }] }),
    node('snapshot:merge-1', { kind: 'system', parentId: 'snapshot:fork-1', extraEdges: [{ kind: 'merge', nodeId: 'c1' }] }),
  ];
}

const indexOf = (nodes: readonly GraphNode[]) => new Map(nodes.map((n, i) => [n.id, i]));

describe('the layout worker’s packed nodes', () => {
  it('unpack to exactly the graph nodes that were packed, and to the same structure', () => {
    const nodes = awkwardNodes();
    const packed = packGraphNodes(nodes, indexOf(nodes));
    expect(packed).not.toBeNull();
    // Through a structured clone, as postMessage sends it.
    const unpacked = unpackGraphNodes(structuredClone(packed!));
    expect(unpacked).toEqual(nodes.map(toGraphNode));
    expect(requestNodes(packed!)).toEqual(unpacked);
    const { nodes: _a, indexById: _b, ...fromPacked } = buildSessionStructure(unpacked);
    const { nodes: _c, indexById: _d, ...fromObjects } = buildSessionStructure(nodes);
    expect(fromPacked).toEqual(fromObjects);
  });

  it('takes NodeSummaries as they come (only the shape’s fields cross)', () => {
    const summary: NodeSummary = {
      ...node('u1'), sessionId: 'S', sourceId: 'u1', parentSourceId: null, label: 'a label', toolCalls: [{ id: 't', name: 'Read', outcome: 'ok' }], agentId: null, model: null,
    };
    expect(unpackGraphNodes(packGraphNodes([summary], indexOf([summary]))!)).toEqual([toGraphNode(summary)]);
  });

  it('declines nodes it could not give back (a newline in an id, an empty timestamp)', () => {
    for (const odd of [node('a\nb'), node('x', { timestamp: '' })]) expect(packGraphNodes([odd], indexOf([odd]))).toBeNull();
    expect(requestNodes([node('a')])).toEqual([node('a')]);
  });

  it('packs an empty session', () => {
    expect(unpackGraphNodes(packGraphNodes([], new Map())!)).toEqual([]);
  });
});

describe('the layout answer’s transfer list', () => {
  it('moves the layout’s arrays to the view and keeps the structure the worker lays out again from', () => {
    const nodes = awkwardNodes();
    const structure = buildSessionStructure(nodes);
    const first = layoutSession(structure, new Set());
    const transfer = layoutTransfer(first, structure);
    expect(transfer.length).toBeGreaterThan(0);
    expect(new Set(transfer).size).toBe(transfer.length);
    const expectedRows = [...first.layout.row];
    // What postMessage does with a transfer list: the view gets the arrays, the worker's copies are detached.
    const received = structuredClone(first, { transfer });
    expect([...received.layout.row]).toEqual(expectedRows);
    expect(first.layout.row.length).toBe(0);
    // The structure is untouched: the next layout (a fold opened) reads it as before.
    const again = layoutSession(structure, new Set());
    expect([...again.layout.row]).toEqual(expectedRows);
    expect(structure.display.parent.length).toBe(nodes.length);
  });

  it('leaves out a layout array that is the structure’s own (a buffer moved away would break the next layout)', () => {
    const nodes = awkwardNodes();
    const structure = buildSessionStructure(nodes);
    const layout = layoutSession(structure, new Set());
    const sharing = { ...layout, visible: { ...layout.visible, forest: structure.display } };
    const transfer = layoutTransfer(sharing, structure);
    for (const value of Object.values(structure.display)) if (ArrayBuffer.isView(value)) expect(transfer).not.toContain(value.buffer);
  });
});

describe('the structure an open sends the view', () => {
  it('moves a copy to the view whole and keeps the worker’s own for the next layout', () => {
    const nodes = awkwardNodes();
    const structure = buildSessionStructure(nodes);
    const kept = structureArrays(structure);
    const expected = structuredClone(kept);
    const { structure: sent, transfer } = structureForView(kept);
    expect(sent).toEqual(kept);
    expect(new Set(transfer).size).toBe(transfer.length);
    // Every array of the copy travels in the transfer list, and none of them is the worker's.
    const buffersOf = (arrays: typeof kept): ArrayBufferLike[] =>
      [arrays, arrays.tree, arrays.display].flatMap((part) => Object.values(part).filter(ArrayBuffer.isView).map((value) => value.buffer));
    const keptBuffers = new Set(buffersOf(kept));
    const sentBuffers = buffersOf(sent);
    expect(sentBuffers.length).toBeGreaterThan(10);
    for (const buffer of sentBuffers) expect(transfer).toContain(buffer);
    for (const buffer of transfer) expect(keptBuffers.has(buffer)).toBe(false);
    // Posted with the layout's own transfer list, as the worker does: the view gets it all, the worker still has its structure.
    const layout = layoutSession(structure, new Set());
    const received = structuredClone({ structure: sent, layout }, { transfer: [...layoutTransfer(layout, kept), ...transfer] });
    expect(received.structure).toEqual(expected);
    expect(sent.display.parent.length).toBe(0);
    expect(kept).toEqual(expected);
    expect([...layoutSession(structure, new Set()).layout.row]).toEqual([...received.layout.layout.row]);
  });
});
