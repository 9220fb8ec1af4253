/**
 * workspaceBranchWidth (a node's children alone, what electron/service/arbor-node-pages.ts counts as the chunks
 * pass) says what classifyBranchPoints says of that node over the whole tree: the workspace branch point's width,
 * else 0. Checked on random trees with replays, rewinds, retries and branch heads.
 */
import { describe, expect, it } from 'vitest';
import { BRANCH_WORKSPACE, classifyBranchPoints, workspaceBranchWidth, type ChildFacts } from '../../../../shared/graph/branch-points';
import { buildSessionTree, type GraphNode } from '../../../../shared/graph/session-tree';
import type { NodeKind } from '../../../../shared/model';

const KINDS: readonly NodeKind[] = ['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'system', 'progress'];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('workspaceBranchWidth', () => {
  it('equals classifyBranchPoints node by node on random trees', () => {
    let workspacePoints = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const nodes: GraphNode[] = [];
      const count = 2 + Math.floor(r() * 40);
      for (let i = 0; i < count; i++) {
        // Parents among the first nodes, so some have many children; few timestamps, so replays happen.
        const parentId = i === 0 || r() < 0.05 ? null : `n${Math.floor(r() * Math.min(i, 6))}`;
        const timestamp = r() < 0.1 ? null : `2026-01-0${1 + Math.floor(r() * 3)}T00:00:00.000Z`;
        nodes.push({ id: `n${i}`, parentId, extraEdges: [], kind: KINDS[Math.floor(r() * KINDS.length)]!, timestamp, sidechain: false });
      }
      const heads = new Uint8Array(count);
      for (let i = 1; i < count; i++) if (r() < 0.2) heads[i] = 1;
      const session = buildSessionTree(nodes);
      const points = classifyBranchPoints(session, heads);
      for (let i = 0; i < count; i++) {
        const children: ChildFacts[] = [];
        for (let c = session.tree.childStart[i]!; c < session.tree.childStart[i + 1]!; c++) {
          const child = session.tree.children[c]!;
          children.push({ kind: nodes[child]!.kind, timestamp: nodes[child]!.timestamp, head: heads[child] === 1 });
        }
        const expected = points.branch[i] === BRANCH_WORKSPACE ? points.width[i]! : 0;
        expect(workspaceBranchWidth(children)).toBe(expected);
        if (expected > 0) workspacePoints++;
      }
    }
    expect(workspacePoints).toBeGreaterThan(50);
  });
});
