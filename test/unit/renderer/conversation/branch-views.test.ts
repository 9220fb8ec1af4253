import { describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../../shared/model';
import { branchPath, buildConversationStructure, conversationRows } from '../../../../renderer/src/conversation/branch-path';
import { createBranchViews } from '../../../../renderer/src/conversation/branch-views';
import { createRowEstimates } from '../../../../renderer/src/conversation/row-estimates';
import { nodeSummary } from '../fake-client';

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();
const node = (id: string, parentId: string | null, kind: NodeSummary['kind'], second: number, over: Partial<NodeSummary> = {}) =>
  nodeSummary(id, { parentId, parentSourceId: parentId, kind, timestamp: at(second), ...over });

/** A prompt and reply, then a rewind: two prompts under the reply; a subagent run under the first call. */
function forked(): NodeSummary[] {
  return [
    node('u1', null, 'user', 0),
    node('c1', 'u1', 'tool_call', 1, { toolCalls: [{ id: 't1', name: 'Agent', outcome: 'ok' }] }),
    node('r1', 'c1', 'tool_result', 30),
    node('a1', 'r1', 'assistant', 31),
    node('u2', 'a1', 'user', 40),
    node('a2', 'u2', 'assistant', 41),
    node('u3', 'a1', 'user', 50),
    node('a3', 'u3', 'assistant', 51),
    node('s1', null, 'user', 2, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c1' }] }),
    node('s2', 's1', 'assistant', 3, { sidechain: true }),
  ];
}

describe('the branch views', () => {
  const nodes = forked();
  const structure = buildConversationStructure(nodes);
  const index = (id: string) => structure.session.indexById.get(id)!;
  const shownIds = (view: { keys: readonly string[] }) => [...view.keys];

  it('show the same rows as reading the branch afresh', () => {
    const views = createBranchViews(structure, createRowEstimates());
    for (const id of ['u1', 'a2', 'a3']) {
      const expected = conversationRows(structure, branchPath(structure, index(id)).path).rows.map((row) => nodes[row.node]!.id);
      expect(shownIds(views.viewFor(index(id), null))).toEqual(expected);
    }
  });

  it('keep the shown branch while the selection moves along it, above the branch point too', () => {
    const views = createBranchViews(structure, createRowEstimates());
    const second = views.viewFor(index('a3'), null);
    expect(shownIds(second)).toContain('u3');
    expect(views.viewFor(index('u1'), second)).toBe(second);
    expect(views.viewFor(index('a1'), second)).toBe(second);
  });

  it('give back a branch shown a moment ago instead of rebuilding its rows (switching back and forth at a branch point)', () => {
    const views = createBranchViews(structure, createRowEstimates());
    const first = views.viewFor(index('u2'), null);
    const second = views.viewFor(index('u3'), first);
    expect(second).not.toBe(first);
    expect(views.viewFor(index('u2'), second)).toBe(first);
    expect(views.viewFor(index('a3'), first)).toBe(second);
  });

  it('read a subagent step on the main line, its run opened, sharing the rows of that line', () => {
    const views = createBranchViews(structure, createRowEstimates());
    const main = views.viewFor(index('u1'), null);
    const inRun = views.viewFor(index('s2'), main);
    expect(inRun.openAgent).toBe(index('s1'));
    expect(inRun.rows).toBe(main.rows);
    expect(main.openAgent).toBe(-1);
  });
});
