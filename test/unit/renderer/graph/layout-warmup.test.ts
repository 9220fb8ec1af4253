/**
 * The made-up session a prewarmed layout worker runs its code on (renderer/src/graph/layout-warmup.ts) is a
 * well-formed graph shaped like a real one, so the warm-up runs the same paths a real open does: turns with
 * calls, results and hook lines, rewound prompts that make branch points, subagent runs and a compaction.
 */
import { describe, expect, it } from 'vitest';
import { unpackGraphNodes } from '../../../../shared/graph/packed-nodes';
import { buildTurnOverview } from '../../../../shared/graph/turn-overview';
import { openColumns } from '../../../../renderer/src/graph/layout-compute';
import { warmLayoutCode, warmupSession } from '../../../../renderer/src/graph/layout-warmup';

describe('the layout worker warm-up session', () => {
  const session = warmupSession(600);
  const nodes = unpackGraphNodes(session);

  it('is a forest whose parents come before their children', () => {
    expect(nodes).toHaveLength(600);
    expect(nodes[0]!.parentId).toBeNull();
    for (let i = 1; i < nodes.length; i++) expect(session.parents[i]!).toBeLessThan(i);
    expect(new Set(nodes.map((node) => node.id)).size).toBe(600);
  });

  it('has the kinds a real session has, and branch points', () => {
    expect(new Set(nodes.map((node) => node.kind))).toEqual(new Set(['user', 'thinking', 'tool_call', 'progress', 'tool_result', 'assistant', 'error']));
    const overview = buildTurnOverview(openColumns(session, []).arrays);
    expect(overview.count).toBe(50);
    expect(overview.branches.some((count) => count > 1)).toBe(true);
    expect(session.edges.filter((part) => part === 'subagent').length).toBe(5);
    expect(session.edges.filter((part) => part === 'logical').length).toBe(1);
    expect(Array.from(session.edgeTargets).every((target) => target >= 0 && target < 600)).toBe(true);
  });

  it('runs an open and folds it as a real open would', () => {
    const visible = warmLayoutCode(600);
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(600);
  });
});
