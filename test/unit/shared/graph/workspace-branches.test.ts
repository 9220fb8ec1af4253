/** Forks, merges and snapshots Arbor adds to a session draw as branches of their own, not as steps in the line. */
import { describe, expect, it } from 'vitest';
import {
  BRANCH_FORK,
  BRANCH_NONE,
  BRANCH_RETRY,
  BRANCH_WORKSPACE,
  branchHeads,
  branchOrdinal,
  buildDisplayTree,
  classifyBranchPoints,
} from '../../../../shared/graph/branch-points';
import { itemByNode } from '../../../../shared/graph/folds';
import { layoutSession } from '../../../../shared/graph/session-layout';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { buildSessionTree } from '../../../../shared/graph/session-tree';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../../../../shared/operations';
import { SessionBuilder } from './session-builder';

const info = (nodeId: string, kind: WorkspaceNodeKind): WorkspaceNodeInfo => ({ nodeId, kind, dir: `/w/${nodeId}` });

function analyse(s: SessionBuilder, workspaceNodes: readonly WorkspaceNodeInfo[]) {
  const tree = buildSessionTree(s.nodes);
  const branches = classifyBranchPoints(tree, branchHeads(tree, workspaceNodes));
  const display = buildDisplayTree(tree, branches);
  const at = (id: string) => tree.indexById.get(id)!;
  const displayParent = (id: string) => {
    const p = display.parent[at(id)]!;
    return p < 0 ? null : s.nodes[p]!.id;
  };
  const childIds = (id: string) =>
    Array.from(display.children.subarray(display.childStart[at(id)]!, display.childStart[at(id) + 1]!)).map((i) => s.nodes[i]!.id);
  const ordinal = (id: string) => branchOrdinal(tree, branches, at(id), display);
  return { branches, at, displayParent, childIds, ordinal };
}

/** Lane and row of each node in the laid-out session (nothing folded away in these small graphs). */
function lanes(s: SessionBuilder, workspaceNodes: readonly WorkspaceNodeInfo[]) {
  const structure = buildSessionStructure(s.nodes, undefined, workspaceNodes);
  const { visible, layout } = layoutSession(structure, new Set());
  const byNode = itemByNode(structure, visible);
  const item = (id: string) => byNode[structure.indexById.get(id)!]!;
  return { structure, lane: (id: string) => layout.lane[item(id)]!, row: (id: string) => layout.row[item(id)]! };
}

/** prompt → answer → next prompt → reply, and a fork Arbor made at the answer (Arbor's nodes come last). */
function forkedSession() {
  const s = new SessionBuilder();
  const prompt = s.add('user', null, { id: 'prompt' });
  const answer = s.add('assistant', prompt, { id: 'answer' });
  const next = s.add('user', answer, { id: 'next' });
  const reply = s.add('assistant', next, { id: 'reply' });
  const fork = s.add('system', answer, { id: 'fork' });
  return { s, prompt, answer, next, reply, fork };
}

describe('workspace branches', () => {
  it('regression: a fork node was drawn inline (answer → fork → next prompt); it now is its own branch', () => {
    const { s, answer, next, fork } = forkedSession();
    // Without knowing which nodes Arbor added, the system-kind fork reads as a recording artifact.
    const unaware = analyse(s, []);
    expect(unaware.branches.branch[unaware.at(answer)]).toBe(BRANCH_NONE);
    expect(unaware.displayParent(next)).toBe(fork);

    const { branches, at, displayParent, childIds, ordinal } = analyse(s, [info(fork, 'fork')]);
    expect(branches.branch[at(answer)]).toBe(BRANCH_WORKSPACE);
    expect(branches.width[at(answer)]).toBe(2);
    expect(displayParent(next)).toBe(answer);
    expect(displayParent(fork)).toBe(answer);
    expect(childIds(answer)).toEqual([next, fork]); // the transcript's line first
    // The badge says 2 branches; the tags number both of them.
    expect(ordinal(next)).toEqual({ index: 1, of: 2 });
    expect(ordinal(fork)).toEqual({ index: 2, of: 2 });
  });

  it('lays the fork out in a lane of its own while the line stays in its column', () => {
    const { s, prompt, answer, next, reply, fork } = forkedSession();
    const { structure, lane, row } = lanes(s, [info(fork, 'fork')]);
    expect([lane(prompt), lane(answer), lane(next), lane(reply)]).toEqual([0, 0, 0, 0]);
    expect(lane(fork)).toBeGreaterThan(0);
    expect(row(fork)).toBe(row(answer) + 1);
    expect(structure.branchHead[structure.indexById.get(fork)!]).toBe(1);
    expect(structure.branchHead[structure.indexById.get(next)!]).toBe(0);
  });

  it('a merge result below a node the session went on from is a branch; the second parent does not shape the tree', () => {
    const s = new SessionBuilder();
    const ours = s.add('assistant', null, { id: 'ours' });
    const after = s.add('user', ours, { id: 'after' });
    const theirs = s.add('assistant', null, { id: 'theirs' });
    const merge = s.add('system', ours, { id: 'merge', extraEdges: [{ kind: 'merge', nodeId: theirs }] });
    const { branches, at, displayParent, childIds } = analyse(s, [info(merge, 'merge')]);
    expect(branches.branch[at(ours)]).toBe(BRANCH_WORKSPACE);
    expect(childIds(ours)).toEqual([after, merge]);
    expect(displayParent(merge)).toBe(ours);
    expect(branches.branch[at(theirs)]).toBe(BRANCH_NONE);
  });

  it('a snapshot or merge at the end of a line stays in the line: a single child is no branch', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt' });
    const answer = s.add('assistant', prompt, { id: 'answer' });
    const snap = s.add('system', answer, { id: 'snap' });
    const merge = s.add('system', snap, { id: 'merge', extraEdges: [{ kind: 'merge', nodeId: prompt }] });
    const { branches, at, displayParent } = analyse(s, [info(snap, 'snapshot'), info(merge, 'merge')]);
    expect(branches.branch[at(answer)]).toBe(BRANCH_NONE);
    expect(branches.branch[at(snap)]).toBe(BRANCH_NONE);
    expect(displayParent(snap)).toBe(answer);
    expect(displayParent(merge)).toBe(snap);
    const { lane } = lanes(s, [info(snap, 'snapshot'), info(merge, 'merge')]);
    expect([lane(prompt), lane(answer), lane(snap), lane(merge)]).toEqual([0, 0, 0, 0]);
  });

  it('a manual snapshot at a node that has children is a side branch; a hook snapshot stays spliced into the line', () => {
    const s = new SessionBuilder();
    const call = s.add('tool_call', null, { id: 'call' });
    const result = s.add('tool_result', call, { id: 'result' });
    const answer = s.add('assistant', result, { id: 'answer' });
    const hook = s.add('system', call, { id: 'hook' });
    const snap = s.add('system', answer, { id: 'snap' });
    s.add('user', answer, { id: 'later' });
    const { branches, at, displayParent, childIds } = analyse(s, [info(hook, 'hook-snapshot'), info(snap, 'snapshot')]);
    expect(branches.branch[at(call)]).toBe(BRANCH_NONE);
    expect(childIds(call)).toHaveLength(1); // the hook leaf is spliced into the call's line
    expect(displayParent(hook) === call || displayParent(result) === hook).toBe(true);
    expect(branches.branch[at(answer)]).toBe(BRANCH_WORKSPACE);
    expect(childIds(answer)).toEqual(['later', snap]);
  });

  it('a fork below a rewind point widens it: prompts first, then the fork', () => {
    const s = new SessionBuilder();
    const root = s.add('assistant', null, { id: 'root' });
    const first = s.add('user', root, { id: 'first' });
    const second = s.add('user', root, { id: 'second' });
    const fork = s.add('system', root, { id: 'fork' });
    const { branches, at, childIds, ordinal } = analyse(s, [info(fork, 'fork')]);
    expect(branches.branch[at(root)]).toBe(BRANCH_FORK);
    expect(branches.width[at(root)]).toBe(3);
    expect(childIds(root)).toEqual([first, second, fork]);
    expect([ordinal(first), ordinal(second), ordinal(fork)]).toEqual([
      { index: 1, of: 3 },
      { index: 2, of: 3 },
      { index: 3, of: 3 },
    ]);
  });

  it('a fork below a retried turn keeps the retry and counts as one more branch', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt' });
    s.add('assistant', prompt, { id: 'a1' });
    s.add('assistant', prompt, { id: 'a2' });
    const fork = s.add('system', prompt, { id: 'fork' });
    const { branches, at, ordinal } = analyse(s, [info(fork, 'fork')]);
    expect(branches.branch[at(prompt)]).toBe(BRANCH_RETRY);
    expect(branches.width[at(prompt)]).toBe(3);
    expect(ordinal(fork)).toEqual({ index: 3, of: 3 });
  });

  it('parallel tool results are still spliced into one line when a fork hangs at the same call', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt' });
    const a1 = s.add('tool_call', prompt, { id: 'a1' });
    const a2 = s.add('tool_call', a1, { id: 'a2' });
    const r1 = s.add('tool_result', a1, { id: 'r1' });
    s.add('tool_result', a2, { id: 'r2' });
    const fork = s.add('system', a1, { id: 'fork' });
    const { branches, at, displayParent, childIds } = analyse(s, [info(fork, 'fork')]);
    expect(branches.branch[at(a1)]).toBe(BRANCH_WORKSPACE);
    expect(branches.width[at(a1)]).toBe(2);
    expect(childIds(a1)).toEqual([r1, fork]);
    expect(displayParent(a2)).toBe(r1);
  });

  it('two forks from the last node are two branches, numbered in order', () => {
    const s = new SessionBuilder();
    const last = s.add('assistant', null, { id: 'last' });
    const one = s.add('system', last, { id: 'one' });
    const two = s.add('system', last, { id: 'two' });
    const { branches, at, ordinal } = analyse(s, [info(one, 'fork'), info(two, 'fork')]);
    expect(branches.branch[at(last)]).toBe(BRANCH_WORKSPACE);
    expect(branches.width[at(last)]).toBe(2);
    expect([ordinal(one), ordinal(two)]).toEqual([
      { index: 1, of: 2 },
      { index: 2, of: 2 },
    ]);
  });

  it('ignores workspace nodes that are not in the session', () => {
    const { s, answer } = forkedSession();
    const { branches, at } = analyse(s, [info('elsewhere', 'fork')]);
    expect(branches.branch[at(answer)]).toBe(BRANCH_NONE);
  });
});
