/** Forks and merges in the drawn graph: their own lanes, consistent badges and tags, and a merge's second parent edge. */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { layoutSession } from '../../../../shared/graph/session-layout';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import type { SessionGraph } from '../../../../shared/model';
import type { WorkspaceNodeInfo } from '../../../../shared/operations';
import { createGraphStore } from '../../../../renderer/src/graph/graph-store';
import { SessionGraphView } from '../../../../renderer/src/graph/SessionGraphView';
import { SessionBuilder } from '../../shared/graph/session-builder';

afterEach(cleanup);

/** prompt → answer → next → reply; a fork at the answer; a merge of the fork into the reply's line below `reply`'s parent. */
function forkedAndMerged(): SessionGraph {
  const s = new SessionBuilder();
  const prompt = s.add('user', null, { id: 'prompt' });
  const answer = s.add('assistant', prompt, { id: 'answer' });
  const next = s.add('user', answer, { id: 'next' });
  s.add('assistant', next, { id: 'reply' });
  s.add('system', answer, { id: 'fork' });
  s.add('system', next, { id: 'merge', extraEdges: [{ kind: 'merge', nodeId: 'fork' }] });
  const workspaceNodes: WorkspaceNodeInfo[] = [
    { nodeId: 'fork', kind: 'fork', dir: '/w-fork' },
    { nodeId: 'merge', kind: 'merge', dir: '/w' },
  ];
  return {
    session: { id: 's1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: s.nodes.length, fileCount: 1, branchCount: 0 },
    nodes: s.nodes,
    workspaceNodes,
  };
}

function mounted(graph: SessionGraph) {
  const structure = buildSessionStructure(graph.nodes, undefined, graph.workspaceNodes);
  const store = createGraphStore();
  store.getState().setLayout(structure, layoutSession(structure, new Set()), new Set(), -1);
  const { nodes, edges } = store.getState();
  const node = (id: string) => nodes.find((n) => n.data.nodeId === id)!;
  return { nodes, edges, node };
}

describe('workspace branches in the graph', () => {
  it('draws the fork and the merge in lanes of their own, with badges and tags that agree', () => {
    const { node } = mounted(forkedAndMerged());
    expect(node('fork').position.x).toBeGreaterThan(node('answer').position.x);
    expect(node('next').position.x).toBe(node('answer').position.x);
    expect(node('merge').position.x).toBeGreaterThan(node('next').position.x);
    expect(node('reply').position.x).toBe(node('next').position.x);
    expect(node('answer').data).toMatchObject({ branch: 'workspace', branchWidth: 2 });
    expect(node('next').data.branchTag).toBe('branch 1/2');
    expect(node('fork').data.branchTag).toBe('branch 2/2');
    expect(node('next').data).toMatchObject({ branch: 'workspace', branchWidth: 2 });
    expect(node('merge').data.branchTag).toBe('branch 2/2');
    expect(node('prompt').data.branch).toBeNull();
  });

  it('draws a merge node’s second parent as an edge from theirs, beside the tree edge from ours', () => {
    const { edges } = mounted(forkedAndMerged());
    const into = edges.filter((edge) => edge.target === 'merge');
    expect(into.map((edge) => [edge.source, edge.className?.includes('is-merge') ?? false]).sort()).toEqual([
      ['fork', true],
      ['next', false],
    ]);
    // Routed through the gaps between cards, not a bezier that may cut through them.
    const merge = into.find((edge) => edge.className?.includes('is-merge'));
    expect(merge?.type).toBe('merge');
    expect((merge?.data as { path?: string } | undefined)?.path).toMatch(/^M[\d.,-]+( L[\d.,-]+| Q[\d.,-]+ [\d.,-]+)+$/);
  });

  it('shows the branch badge on the fork point in the rendered view', async () => {
    const view = render(<SessionGraphView graph={forkedAndMerged()} selectedNodeId={null} onSelectNode={() => undefined} />);
    const byId = (id: string) => view.container.querySelector(`[data-node-id="${id}"]`);
    await waitFor(() => expect(byId('fork')).not.toBeNull());
    expect(byId('answer')?.querySelector('[data-testid="branch-badge"]')?.textContent).toBe('2 branches');
    expect(byId('fork')?.querySelector('[data-testid="branch-tag"]')?.textContent).toBe('branch 2/2');
  });
});
