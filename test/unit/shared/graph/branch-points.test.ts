import { describe, expect, it } from 'vitest';
import { BRANCH_FORK, BRANCH_NONE, BRANCH_RETRY, branchOrdinal, buildDisplayTree, classifyBranchPoints } from '../../../../shared/graph/branch-points';
import { buildSessionTree } from '../../../../shared/graph/session-tree';
import { SessionBuilder } from './session-builder';

function analyse(s: SessionBuilder) {
  const tree = buildSessionTree(s.nodes);
  const branches = classifyBranchPoints(tree);
  const display = buildDisplayTree(tree, branches);
  const at = (id: string) => tree.indexById.get(id)!;
  const displayParent = (id: string) => {
    const p = display.parent[at(id)]!;
    return p < 0 ? null : s.nodes[p]!.id;
  };
  const childIds = (id: string) =>
    Array.from(display.children.subarray(display.childStart[at(id)]!, display.childStart[at(id) + 1]!)).map((i) => s.nodes[i]!.id);
  return { tree, branches, display, at, displayParent, childIds };
}

describe('classifyBranchPoints', () => {
  it('a rewind (two prompts with different timestamps under one parent) is a fork', () => {
    const s = new SessionBuilder();
    const root = s.add('user', null);
    const hook = s.add('system', root);
    s.add('user', hook);
    s.add('user', hook);
    const { branches, at } = analyse(s);
    expect(branches.branch[at(hook)]).toBe(BRANCH_FORK);
    expect(branches.width[at(hook)]).toBe(2);
  });

  it('replayed prompts with the same timestamp are not a fork', () => {
    const s = new SessionBuilder();
    const root = s.add('assistant', null);
    s.add('user', root, { timestamp: '2025-01-01T00:00:00Z' });
    s.add('user', root, { timestamp: '2025-01-01T00:00:00Z' });
    const { branches, at } = analyse(s);
    expect(branches.branch[at(root)]).toBe(BRANCH_NONE);
  });

  it('two answers to one prompt at different times are a retry', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('assistant', prompt);
    s.add('thinking', prompt);
    const { branches, at } = analyse(s);
    expect(branches.branch[at(prompt)]).toBe(BRANCH_RETRY);
  });

  it('parallel tool calls are an artifact drawn as one line', () => {
    // a1 carries tool_use 1; its result r1 and the next call a2 both hang off a1; r2 hangs off a2.
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const a1 = s.add('tool_call', prompt);
    const a2 = s.add('tool_call', a1);
    const r1 = s.add('tool_result', a1);
    const r2 = s.add('tool_result', a2);
    const next = s.add('assistant', r2);
    const { branches, at, displayParent, childIds } = analyse(s);
    expect(branches.branch[at(a1)]).toBe(BRANCH_NONE);
    expect(displayParent(r1)).toBe(a1);
    expect(displayParent(a2)).toBe(r1);
    expect(childIds(a1)).toEqual([r1]);
    expect(displayParent(next)).toBe(r2);
  });

  it('progress and hook leaves are spliced into the line; a side with its own branches stays a child', () => {
    const s = new SessionBuilder();
    const call = s.add('tool_call', null);
    const progress = s.add('progress', call);
    const result = s.add('tool_result', call);
    const more = s.chain(result, 5, ['assistant']);
    const odd = s.add('system', call);
    s.add('system', odd);
    s.add('system', odd);
    const { displayParent, childIds } = analyse(s);
    expect(displayParent(progress)).toBe(call);
    expect(displayParent(result)).toBe(progress);
    expect(childIds(call)).toEqual([progress, odd]); // main line first
    expect(displayParent(more)).not.toBeNull();
  });

  it('never splices a subagent run into the main line', () => {
    const s = new SessionBuilder();
    const call = s.add('tool_call', null);
    const agent = s.add('user', null, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: call }] });
    s.chain(agent, 10, ['assistant']);
    const result = s.add('tool_result', call);
    const { displayParent, childIds } = analyse(s);
    expect(displayParent(agent)).toBe(call);
    expect(displayParent(result)).toBe(call);
    expect(childIds(call)).toEqual([result, agent]);
  });
});

describe('branchOrdinal', () => {
  it('numbers the prompts under a fork and the answers under a retry; replays share a number; others get none', () => {
    const s = new SessionBuilder();
    const root = s.add('user', null);
    const hook = s.add('system', root);
    const first = s.add('user', hook, { timestamp: '2025-01-01T00:01:00Z' });
    const progress = s.add('progress', hook);
    const second = s.add('user', hook, { timestamp: '2025-01-01T00:02:00Z' });
    const replay = s.add('user', hook, { timestamp: '2025-01-01T00:01:00Z' });
    const retried = s.add('user', second);
    const a1 = s.add('assistant', retried);
    const a2 = s.add('assistant', retried);
    const { tree, branches, at } = analyse(s);
    const ordinal = (id: string) => branchOrdinal(tree, branches, at(id));
    expect(ordinal(first)).toEqual({ index: 1, of: 2 });
    expect(ordinal(second)).toEqual({ index: 2, of: 2 });
    expect(ordinal(replay)).toEqual({ index: 1, of: 2 });
    expect(ordinal(progress)).toBeNull();
    expect(ordinal(root)).toBeNull();
    expect(ordinal(a1)).toEqual({ index: 1, of: 2 });
    expect(ordinal(a2)).toEqual({ index: 2, of: 2 });
    expect(ordinal(retried)).toBeNull();
  });
});
