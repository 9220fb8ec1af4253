import { describe, expect, it } from 'vitest';
import { buildSessionTree, VIA_FORK_OF, VIA_LOGICAL, VIA_PARENT, VIA_ROOT, VIA_SUBAGENT } from '../../../../shared/graph/session-tree';
import { SessionBuilder } from './session-builder';

describe('buildSessionTree', () => {
  it('hangs nodes under parentId, else under a logical, subagent or fork-of edge, never a merge edge', () => {
    const s = new SessionBuilder();
    const root = s.add('user', null);
    const call = s.add('tool_call', root);
    const boundary = s.add('compaction', null, { extraEdges: [{ kind: 'logical', nodeId: call }] });
    const agent = s.add('user', null, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: call }] });
    const forked = s.add('user', null, { extraEdges: [{ kind: 'fork-of', nodeId: root }] });
    const merged = s.add('assistant', null, { extraEdges: [{ kind: 'merge', nodeId: root }] });
    const tree = buildSessionTree(s.nodes);
    const at = (id: string) => tree.indexById.get(id)!;
    expect(tree.tree.parent[at(call)]).toBe(at(root));
    expect(tree.via[at(call)]).toBe(VIA_PARENT);
    expect(tree.tree.parent[at(boundary)]).toBe(at(call));
    expect(tree.via[at(boundary)]).toBe(VIA_LOGICAL);
    expect(tree.via[at(agent)]).toBe(VIA_SUBAGENT);
    expect(tree.via[at(forked)]).toBe(VIA_FORK_OF);
    expect(tree.via[at(merged)]).toBe(VIA_ROOT);
    expect(Array.from(tree.tree.roots)).toEqual([at(root), at(merged)]);
    expect(tree.agentRoot[at(agent)]).toBe(1);
    expect(tree.agentRoot[at(boundary)]).toBe(0);
  });

  it('follows (a cleared context): the next session\'s first step hangs under the last step before it, as a continuation does', () => {
    const s = new SessionBuilder();
    const root = s.add('user', null);
    const last = s.add('assistant', root);
    const continued = s.add('user', null, { extraEdges: [{ kind: 'continues', nodeId: last }] });
    const followed = s.add('user', null, { extraEdges: [{ kind: 'follows', nodeId: continued }] });
    const tree = buildSessionTree(s.nodes);
    const at = (id: string) => tree.indexById.get(id)!;
    expect(tree.tree.parent[at(continued)]).toBe(at(last));
    expect(tree.tree.parent[at(followed)]).toBe(at(continued));
    expect(Array.from(tree.tree.roots)).toEqual([at(root)]);
  });

  it('treats dangling parents as roots and breaks cycles into a forest', () => {
    const s = new SessionBuilder();
    s.add('user', 'missing', { id: 'a' });
    s.add('assistant', 'c', { id: 'b' });
    s.add('assistant', 'b', { id: 'c' });
    s.add('tool_call', 'c', { id: 'd' });
    const tree = buildSessionTree(s.nodes);
    const roots = Array.from(tree.tree.roots);
    expect(roots).toContain(0);
    // b ↔ c is a cycle: exactly one of them is cut loose, and every node is reachable from a root.
    expect(roots.length).toBe(2);
    let reachable = 0;
    const stack = [...roots];
    while (stack.length > 0) {
      const node = stack.pop()!;
      reachable++;
      for (let c = tree.tree.childStart[node]!; c < tree.tree.childStart[node + 1]!; c++) stack.push(tree.tree.children[c]!);
    }
    expect(reachable).toBe(4);
  });

  it('marks an unlinked sidechain start as a subagent run, not each of its nodes', () => {
    const s = new SessionBuilder();
    const main = s.add('user', null);
    const side = s.add('user', main, { sidechain: true });
    const inner = s.add('assistant', side, { sidechain: true });
    const tree = buildSessionTree(s.nodes);
    expect(tree.agentRoot[tree.indexById.get(side)!]).toBe(1);
    expect(tree.agentRoot[tree.indexById.get(inner)!]).toBe(0);
  });

  it('handles a 50k-deep chain without recursion', () => {
    const s = new SessionBuilder();
    s.chain(null, 50_000);
    const tree = buildSessionTree(s.nodes);
    expect(tree.tree.roots.length).toBe(1);
    expect(tree.tree.parent[49_999]).toBe(49_998);
  });
});
