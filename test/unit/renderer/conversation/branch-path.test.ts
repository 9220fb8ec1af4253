import { describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../../shared/model';
import {
  agentRunPath,
  branchPath,
  branchRowAbove,
  buildConversationStructure,
  conversationRows,
  promptRow,
  siblingBranch,
} from '../../../../renderer/src/conversation/branch-path';
import { nodeSummary } from '../fake-client';

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();
const node = (id: string, parentId: string | null, kind: NodeSummary['kind'], second: number, over: Partial<NodeSummary> = {}) =>
  nodeSummary(id, { parentId, parentSourceId: parentId, kind, timestamp: at(second), ...over });

/** A prompt, a tool call with its result, a rewind: the second prompt under the same reply. */
function forkedSession(): NodeSummary[] {
  return [
    node('u1', null, 'user', 0),
    node('c1', 'u1', 'tool_call', 1, { toolCalls: [{ id: 't1', name: 'Read', outcome: 'ok' }] }),
    node('h1', 'c1', 'progress', 2),
    node('r1', 'h1', 'tool_result', 3),
    node('a1', 'r1', 'assistant', 4),
    node('u2', 'a1', 'user', 5),
    node('a2', 'u2', 'assistant', 6),
    node('u3', 'a1', 'user', 9),
    node('a3', 'u3', 'assistant', 10),
    node('s3', 'a3', 'system', 11),
  ];
}

const ids = (nodes: readonly NodeSummary[], indices: ArrayLike<number>) => Array.from(indices, (i) => nodes[i]!.id);

describe('branchPath', () => {
  it('goes from the root through the selection to the end of its branch, taking branch 1 below a fork', () => {
    const nodes = forkedSession();
    const structure = buildConversationStructure(nodes);
    const index = (id: string) => structure.session.indexById.get(id)!;
    expect(ids(nodes, branchPath(structure, index('a1')).path)).toEqual(['u1', 'c1', 'h1', 'r1', 'a1', 'u2', 'a2']);
    expect(ids(nodes, branchPath(structure, index('u3')).path)).toEqual(['u1', 'c1', 'h1', 'r1', 'a1', 'u3', 'a3', 's3']);
    expect(ids(nodes, branchPath(structure, index('u1')).path)).toEqual(['u1', 'c1', 'h1', 'r1', 'a1', 'u2', 'a2']);
    expect(branchPath(structure, -1).path).toHaveLength(0);
  });

  it('reads a node inside a subagent run under the call that spawned it, and opens that run', () => {
    const nodes = [
      node('u1', null, 'user', 0),
      node('c1', 'u1', 'tool_call', 1, { toolCalls: [{ id: 't1', name: 'Agent', outcome: 'ok' }] }),
      node('r1', 'c1', 'tool_result', 30),
      node('a1', 'r1', 'assistant', 31),
      node('s1', null, 'user', 2, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c1' }] }),
      node('s2', 's1', 'assistant', 3, { sidechain: true }),
    ];
    const structure = buildConversationStructure(nodes);
    const s2 = structure.session.indexById.get('s2')!;
    const { path, openAgent } = branchPath(structure, s2);
    expect(ids(nodes, path)).toEqual(['u1', 'c1', 'r1', 'a1']);
    expect(nodes[openAgent]!.id).toBe('s1');
    const { rows } = conversationRows(structure, path);
    expect(rows.map((row) => [nodes[row.node]!.id, row.agentRuns.map((r) => nodes[r]!.id)])).toEqual([
      ['u1', []],
      ['c1', ['s1']],
      ['a1', []],
    ]);
    expect(ids(nodes, agentRunPath(structure, openAgent))).toEqual(['s1', 's2']);
  });

  it('walks a 50,000-node chain without recursion, quickly', () => {
    const nodes: NodeSummary[] = [node('n0', null, 'user', 0)];
    for (let i = 1; i < 50_000; i++) nodes.push(node(`n${i}`, `n${i - 1}`, i % 2 ? 'assistant' : 'user', i));
    const started = performance.now();
    const structure = buildConversationStructure(nodes);
    const { path } = branchPath(structure, 40_000);
    const { rows, rowOfNode } = conversationRows(structure, path);
    const ms = performance.now() - started;
    expect(path).toHaveLength(50_000);
    expect(rows).toHaveLength(50_000);
    expect(rowOfNode[40_000]).toBe(40_000);
    expect(ms).toBeLessThan(2_000);
  });
});

describe('conversationRows', () => {
  it('draws a result under its call even with a progress line between them, and the progress line under the row before', () => {
    const nodes = forkedSession();
    const structure = buildConversationStructure(nodes);
    const index = (id: string) => structure.session.indexById.get(id)!;
    const { rows, rowOfNode } = conversationRows(structure, branchPath(structure, index('u3')).path);
    expect(rows.map((row) => [nodes[row.node]!.id, row.kind])).toEqual([
      ['u1', 'message'],
      ['c1', 'message'],
      ['a1', 'message'],
      ['u3', 'message'],
      ['a3', 'message'],
      ['s3', 'annotation'],
    ]);
    expect(rowOfNode[index('r1')]).toBe(1);
    expect(rowOfNode[index('h1')]).toBe(1);
    expect(rowOfNode[index('u2')]).toBe(-1);
  });

  it('keeps a failed result that answers no call of its parent as a row (an API error after a reply)', () => {
    const nodes = [node('u1', null, 'user', 0), node('a1', 'u1', 'assistant', 1), node('e1', 'a1', 'error', 2)];
    const structure = buildConversationStructure(nodes);
    const { rows } = conversationRows(structure, branchPath(structure, 0).path);
    expect(rows.map((row) => nodes[row.node]!.id)).toEqual(['u1', 'a1', 'e1']);
  });

  it('merges a failed result into the call that failed', () => {
    const nodes = [
      node('u1', null, 'user', 0),
      node('c1', 'u1', 'tool_call', 1, { toolCalls: [{ id: 't1', name: 'Edit', outcome: 'error' }] }),
      node('e1', 'c1', 'error', 2),
    ];
    const structure = buildConversationStructure(nodes);
    const { rows, rowOfNode } = conversationRows(structure, branchPath(structure, 2).path);
    expect(rows.map((row) => nodes[row.node]!.id)).toEqual(['u1', 'c1']);
    expect(rowOfNode[2]).toBe(1);
  });
});

describe('a merge summary in the conversation', () => {
  it('is a divider row, not a message: Arbor handed the other branch over, nobody typed it', () => {
    const nodes = [node('u1', null, 'user', 0), node('a1', 'u1', 'assistant', 1), node('m1', 'a1', 'merge-summary', 2)];
    const structure = buildConversationStructure(nodes);
    const { rows } = conversationRows(structure, branchPath(structure, 2).path);
    expect(rows.map((row) => [nodes[row.node]!.id, row.kind])).toEqual([
      ['u1', 'message'],
      ['a1', 'message'],
      ['m1', 'compaction'],
    ]);
  });
});

describe('branch switching', () => {
  it('numbers the branches of a fork and finds the sibling branch either way', () => {
    const nodes = forkedSession();
    const structure = buildConversationStructure(nodes);
    const index = (id: string) => structure.session.indexById.get(id)!;
    const { rows } = conversationRows(structure, branchPath(structure, index('u3')).path);
    const u3Row = rows.findIndex((row) => row.node === index('u3'));
    expect(rows[u3Row]!.ordinal).toEqual({ index: 2, of: 2 });
    expect(rows.filter((row) => row.ordinal !== null)).toHaveLength(1);
    expect(nodes[siblingBranch(structure, index('u3'), -1)]!.id).toBe('u2');
    expect(siblingBranch(structure, index('u3'), 1)).toBe(-1);
    expect(nodes[siblingBranch(structure, index('u2'), 1)]!.id).toBe('u3');
    expect(siblingBranch(structure, index('a1'), 1)).toBe(-1);
    // [ and ] act on the nearest branch point above the selection.
    expect(branchRowAbove(rows, rows.length - 1)).toBe(u3Row);
    expect(branchRowAbove(rows, u3Row - 1)).toBe(-1);
  });

  it('finds the next and previous prompts', () => {
    const nodes = forkedSession();
    const structure = buildConversationStructure(nodes);
    const { rows } = conversationRows(structure, branchPath(structure, structure.session.indexById.get('u3')!).path);
    expect(promptRow(structure, rows, 0, 1)).toBe(3);
    expect(promptRow(structure, rows, 3, 1)).toBe(-1);
    expect(promptRow(structure, rows, 3, -1)).toBe(0);
    expect(promptRow(structure, rows, rows.length, -1)).toBe(3);
  });
});
