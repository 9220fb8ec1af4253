import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionGraph } from '../../../../shared/model';
import { SessionGraphView } from '../../../../renderer/src/graph/SessionGraphView';
import { SessionBuilder } from '../../shared/graph/session-builder';

afterEach(cleanup);

/** prompt → answer → a snapshot Arbor took, and a fork branch. */
function graphWithArborNodes(): SessionGraph {
  const s = new SessionBuilder();
  const prompt = s.add('user', null, { id: 'prompt' });
  const answer = s.add('assistant', prompt, { id: 'answer' });
  s.add('system', answer, { id: 'snap' });
  s.add('system', prompt, { id: 'fork' });
  return {
    session: { id: 's1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: s.nodes.length, fileCount: 1, branchCount: 1 },
    nodes: s.nodes,
    workspaceNodes: [
      { nodeId: 'snap', kind: 'snapshot', dir: '/w' },
      { nodeId: 'fork', kind: 'fork', dir: '/w-fork' },
    ],
  };
}

describe('SessionGraphView time-travel marks', () => {
  it('Shift+click chooses a node to compare instead of selecting it, and the node shows it', async () => {
    const onSelectNode = vi.fn();
    const onCompareNode = vi.fn();
    const graph = graphWithArborNodes();
    const view = render(<SessionGraphView graph={graph} selectedNodeId="prompt" onSelectNode={onSelectNode} onCompareNode={onCompareNode} />);
    const byId = (id: string) => view.container.querySelector(`[data-node-id="${id}"]`);
    await waitFor(() => expect(byId('answer')).not.toBeNull());
    fireEvent.click(byId('answer')!, { shiftKey: true });
    expect(onCompareNode).toHaveBeenCalledWith('answer');
    expect(onSelectNode).not.toHaveBeenCalled();
    view.rerender(<SessionGraphView graph={graph} selectedNodeId="prompt" onSelectNode={onSelectNode} onCompareNode={onCompareNode} compareNodeId="answer" />);
    await waitFor(() => expect(byId('answer')?.getAttribute('data-compared')).toBe('true'));
    expect(byId('answer')?.querySelector('[data-testid="compare-tag"]')?.textContent).toBe('compare');
    expect(byId('prompt')?.getAttribute('data-compared')).toBeNull();
  });

  it('marks how each state is known once the states arrive, and draws Arbor’s nodes as what they are', async () => {
    const graph = graphWithArborNodes();
    const props = { graph, selectedNodeId: null, onSelectNode: () => undefined };
    const view = render(<SessionGraphView {...props} />);
    const byId = (id: string) => view.container.querySelector(`[data-node-id="${id}"]`);
    await waitFor(() => expect(byId('snap')).not.toBeNull());
    expect(view.container.querySelectorAll('[data-testid="state-marker"]')).toHaveLength(0);
    expect(byId('snap')?.getAttribute('data-workspace-kind')).toBe('snapshot');
    expect(byId('snap')?.textContent).toContain('Snapshot');
    expect(byId('fork')?.getAttribute('data-workspace-kind')).toBe('fork');
    expect(byId('answer')?.getAttribute('data-workspace-kind')).toBeNull();

    await act(async () => {
      view.rerender(<SessionGraphView {...props} nodeStates={{ prompt: 'reconstructed', answer: 'unknown', snap: 'exact' }} />);
    });
    const known = (id: string) => byId(id)?.querySelector('[data-testid="state-marker"]')?.getAttribute('data-known');
    expect([known('prompt'), known('answer'), known('snap'), known('fork')]).toEqual(['reconstructed', 'unknown', 'exact', undefined]);
  });
});
