import { describe, expect, it } from 'vitest';
import { renderSessionTree } from '../../../../electron/cli/session-tree';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { FAKE_SESSION } from '../../../fakes/fake-service';

function node(id: string, parentId: string | null, extra: Partial<NodeSummary> = {}): NodeSummary {
  return {
    id,
    sessionId: FAKE_SESSION.id,
    sourceId: id,
    parentSourceId: parentId,
    parentId,
    extraEdges: [],
    kind: 'assistant',
    timestamp: null,
    label: `label ${id}`,
    toolCalls: [],
    sidechain: false,
    agentId: null,
    model: null,
    ...extra,
  };
}

const graph = (nodes: NodeSummary[]): SessionGraph => ({ session: FAKE_SESSION, nodes });

describe('renderSessionTree', () => {
  it('prints a linear run flat and a real fork as ├─ / └─ branches', () => {
    const lines = renderSessionTree(
      graph([
        node('a', null, { kind: 'user', label: 'Fix the bug' }),
        node('b', 'a'),
        node('c', 'b', { kind: 'user', label: 'try one' }),
        node('c2', 'c'),
        node('d', 'b', { kind: 'user', label: 'try two' }),
        node('d2', 'd'),
      ]),
    );
    expect(lines).toEqual([
      '[user] Fix the bug',
      '[assistant] label b',
      '├─ [user] try one',
      '│  [assistant] label c2',
      '└─ [user] try two',
      '   [assistant] label d2',
    ]);
  });

  it('shows leaf side-notes as twigs without indenting the conversation', () => {
    const lines = renderSessionTree(
      graph([
        node('call', null, { kind: 'tool_call', label: 'Read a.ts', toolCalls: [{ id: 't1', name: 'Read', outcome: 'ok' }] }),
        node('hook', 'call', { kind: 'progress', label: 'Hook PostToolUse:Read' }),
        node('result', 'call', { kind: 'tool_result', label: 'file text' }),
        node('next', 'result'),
      ]),
    );
    expect(lines).toEqual(['[tool_call] Read a.ts ✓', '├─ [progress] Hook PostToolUse:Read', '[tool_result] file text', '[assistant] label next']);
  });

  it('marks tool outcomes and extra edges', () => {
    const lines = renderSessionTree(
      graph([
        node('a', null, {
          kind: 'tool_call',
          label: 'two tools',
          toolCalls: [
            { id: '1', name: 'Bash', outcome: 'error' },
            { id: '2', name: 'Edit', outcome: 'missing' },
          ],
        }),
        node('b', null, { kind: 'compaction', extraEdges: [{ kind: 'logical', nodeId: 'a' }] }),
      ]),
      { ids: true },
    );
    expect(lines).toEqual(['a [tool_call] two tools Bash✗ Edit?', 'b [compaction] label b (after compaction)']);
  });

  it('renders a 50,000-node chain without recursion and without indentation growth', () => {
    const nodes = [node('n0', null)];
    for (let i = 1; i < 50_000; i++) nodes.push(node(`n${i}`, `n${i - 1}`));
    const lines = renderSessionTree(graph(nodes));
    expect(lines).toHaveLength(50_000);
    expect(lines[49_999]).toBe('[assistant] label n49999');
    expect(lines.every((line) => line.startsWith('[assistant]'))).toBe(true);
  });

  it('caps indentation for thousands of nested forks', () => {
    // Each step forks: a leaf-with-child pair, so every level is a real branch.
    const nodes = [node('r', null)];
    let parent = 'r';
    for (let i = 0; i < 2000; i++) {
      nodes.push(node(`x${i}`, parent), node(`x${i}c`, `x${i}`), node(`y${i}`, parent), node(`y${i}c`, `y${i}`));
      parent = `y${i}c`;
    }
    const lines = renderSessionTree(graph(nodes));
    expect(lines).toHaveLength(nodes.length);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(250);
    expect(lines.at(-1)).toContain('┆');
  });

  it('prints every node once even when edges form a cycle or point outside the session', () => {
    const lines = renderSessionTree(
      graph([
        node('a', 'b'),
        node('b', 'a'),
        node('c', 'missing-parent'),
        node('d', 'd'),
      ]),
    );
    expect(lines).toHaveLength(4);
    for (const id of ['a', 'b', 'c', 'd']) expect(lines.filter((l) => l.endsWith(`label ${id}`))).toHaveLength(1);
  });
});
