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

const at = (minute: number): string => `2026-11-30T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** The guides and connectors before a line's text (an annotation's `· ` is not indentation). */
const indentOf = (line: string): string => /^[│├└─┆\d ]*/.exec(line)![0];

describe('renderSessionTree', () => {
  it('prints a linear run flat and a rewind (two prompts at different times) as ├─ / └─ branches', () => {
    const lines = renderSessionTree(
      graph([
        node('a', null, { kind: 'user', label: 'Fix the bug', timestamp: at(0) }),
        node('b', 'a', { timestamp: at(1) }),
        node('c', 'b', { kind: 'user', label: 'try one', timestamp: at(2) }),
        node('c2', 'c', { timestamp: at(3) }),
        node('d', 'b', { kind: 'user', label: 'try two', timestamp: at(9) }),
        node('d2', 'd', { timestamp: at(10) }),
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

  it('draws a retried answer (two assistant lines at different times) and a fork Arbor made as branches', () => {
    const retried = renderSessionTree(
      graph([
        node('p', null, { kind: 'user', label: 'Explain', timestamp: at(0) }),
        node('r1', 'p', { label: 'first answer', timestamp: at(1) }),
        node('r2', 'p', { label: 'second answer', timestamp: at(5) }),
      ]),
    );
    expect(retried).toEqual(['[user] Explain', '├─ [assistant] first answer', '└─ [assistant] second answer']);
    const forked = renderSessionTree({
      ...graph([
        node('p', null, { kind: 'user', label: 'Explain', timestamp: at(0) }),
        node('r', 'p', { label: 'answer', timestamp: at(1) }),
        node('next', 'r', { kind: 'user', label: 'go on', timestamp: at(2) }),
        node('fork', 'r', { kind: 'system', label: 'Fork', timestamp: at(3) }),
      ]),
      workspaceNodes: [{ nodeId: 'fork', kind: 'fork', dir: '/w' }],
    });
    expect(forked).toEqual(['[user] Explain', '[assistant] answer', '├─ [user] go on', '└─ [system] Fork']);
  });

  it('keeps a hook line beside a step inline, marked ·, and the conversation at its indent after it', () => {
    const lines = renderSessionTree(
      graph([
        node('call', null, { kind: 'tool_call', label: 'Read a.ts', toolCalls: [{ id: 't1', name: 'Read', outcome: 'ok' }] }),
        node('hook', 'call', { kind: 'progress', label: 'Hook PostToolUse:Read' }),
        node('result', 'call', { kind: 'tool_result', label: 'file text' }),
        node('next', 'result'),
      ]),
    );
    expect(lines).toEqual(['[tool_call] Read a.ts ✓', '· [progress] Hook PostToolUse:Read', '[tool_result] file text', '[assistant] label next']);
  });

  it('keeps parallel tool results hanging on their call lines inline, inside a branch too', () => {
    // Claude Code parents the second call and the first call's result both on the first call's line.
    const parallel = (prefix: string, parent: string, minute: number): NodeSummary[] => [
      node(`${prefix}p`, parent, { kind: 'user', label: `${prefix} prompt`, timestamp: at(minute) }),
      node(`${prefix}c1`, `${prefix}p`, { kind: 'tool_call', label: 'Read a.ts', timestamp: at(minute + 1) }),
      node(`${prefix}c2`, `${prefix}c1`, { kind: 'tool_call', label: 'Read b.ts', timestamp: at(minute + 1) }),
      node(`${prefix}r1`, `${prefix}c1`, { kind: 'tool_result', label: 'a text', timestamp: at(minute + 2) }),
      node(`${prefix}r2`, `${prefix}c2`, { kind: 'tool_result', label: 'b text', timestamp: at(minute + 2) }),
      node(`${prefix}end`, `${prefix}r2`, { label: `${prefix} done`, timestamp: at(minute + 3) }),
    ];
    const lines = renderSessionTree(graph([node('root', null, { timestamp: at(0) }), ...parallel('x', 'root', 1), ...parallel('y', 'root', 20)]));
    expect(lines).toEqual([
      '[assistant] label root',
      '├─ [user] x prompt',
      '│  [tool_call] Read a.ts',
      '│  [tool_result] a text',
      '│  [tool_call] Read b.ts',
      '│  [tool_result] b text',
      '│  [assistant] x done',
      '└─ [user] y prompt',
      '   [tool_call] Read a.ts',
      '   [tool_result] a text',
      '   [tool_call] Read b.ts',
      '   [tool_result] b text',
      '   [assistant] y done',
    ]);
  });

  it('draws a compaction root inline after the line it continues, also when a replayed line hangs there too', () => {
    const lines = renderSessionTree(
      graph([
        node('a', null, { kind: 'user', label: 'Start', timestamp: at(0) }),
        node('b', 'a', { timestamp: at(1) }),
        // The pre-compaction tail, written again with its old timestamp: a replay, not a branch.
        node('replay', 'b', { timestamp: at(2) }),
        node('boundary', null, { kind: 'compaction', label: 'Compacted (auto)', timestamp: at(3), extraEdges: [{ kind: 'logical', nodeId: 'b' }] }),
        node('summary', 'boundary', { kind: 'compaction', label: 'Compaction summary', timestamp: at(3) }),
        node('after', 'summary', { kind: 'user', label: 'Go on', timestamp: at(4) }),
        node('reply', 'after', { timestamp: at(5) }),
      ]),
    );
    expect(lines).toEqual([
      '[user] Start',
      '[assistant] label b',
      '[assistant] label replay',
      '[compaction] Compacted (auto) (after compaction)',
      '[compaction] Compaction summary',
      '[user] Go on',
      '[assistant] label reply',
    ]);
  });

  it('keeps the indent after every artifact inside a branch equal to the indent before it', () => {
    const nodes: NodeSummary[] = [node('root', null, { kind: 'user', label: 'Start', timestamp: at(0) }), node('answer', 'root', { timestamp: at(1) })];
    for (const [branch, minute] of [['x', 2], ['y', 30]] as const) {
      nodes.push(
        node(`${branch}p`, 'answer', { kind: 'user', label: `${branch} prompt`, timestamp: at(minute) }),
        node(`${branch}c`, `${branch}p`, { kind: 'tool_call', label: 'Bash ls', timestamp: at(minute + 1) }),
        node(`${branch}hook`, `${branch}c`, { kind: 'progress', label: 'Hook PreToolUse:Bash', timestamp: at(minute + 1) }),
        node(`${branch}bash`, `${branch}c`, { kind: 'progress', label: 'Bash running (2s)', timestamp: at(minute + 1) }),
        node(`${branch}r`, `${branch}c`, { kind: 'tool_result', label: 'listing', timestamp: at(minute + 2) }),
        node(`${branch}stop`, `${branch}r`, { kind: 'progress', label: 'Hook Stop', timestamp: at(minute + 2) }),
        node(`${branch}next`, `${branch}r`, { label: `${branch} done`, timestamp: at(minute + 3) }),
      );
    }
    const lines = renderSessionTree(graph(nodes));
    expect(lines).toHaveLength(nodes.length);
    expect(lines.filter((line) => /[├└]─/.test(line))).toEqual(['├─ [user] x prompt', '└─ [user] y prompt']);
    lines.forEach((line, i) => {
      if (!line.includes('· [')) return;
      expect(indentOf(lines[i + 1]!), `after ${line}`).toBe(indentOf(lines[i - 1]!));
      expect(indentOf(line)).toBe(indentOf(lines[i - 1]!));
    });
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
    // Each step is rewound: two prompts at different times, so every level is a real branch.
    const nodes = [node('r', null)];
    let parent = 'r';
    for (let i = 0; i < 2000; i++) {
      const time = (offset: number): string => new Date(Date.UTC(2026, 0, 1) + (i * 4 + offset) * 1000).toISOString();
      nodes.push(
        node(`x${i}`, parent, { kind: 'user', timestamp: time(0) }),
        node(`x${i}c`, `x${i}`, { timestamp: time(1) }),
        node(`y${i}`, parent, { kind: 'user', timestamp: time(2) }),
        node(`y${i}c`, `y${i}`, { timestamp: time(3) }),
      );
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
