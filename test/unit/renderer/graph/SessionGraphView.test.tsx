import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionGraph } from '../../../../shared/model';
import { SessionGraphView } from '../../../../renderer/src/graph/SessionGraphView';
import { SessionBuilder } from '../../shared/graph/session-builder';

/** prompt → answer → hook with two rewound prompts; the second runs 8 tool steps. */
function sampleGraph(): SessionGraph {
  const s = new SessionBuilder();
  const prompt = s.add('user', null, { id: 'prompt' });
  const answer = s.add('assistant', prompt, { id: 'answer' });
  const hook = s.add('system', answer, { id: 'hook' });
  s.add('user', hook, { id: 'first' });
  const second = s.add('user', hook, { id: 'second' });
  s.chain(second, 8);
  return {
    session: {
      id: 's1',
      source: 'claude-code',
      title: 't',
      project: null,
      startedAt: null,
      updatedAt: null,
      nodeCount: s.nodes.length,
      fileCount: 1,
      branchCount: 1,
    },
    nodes: s.nodes,
  };
}

afterEach(cleanup);

describe('SessionGraphView', () => {
  it('renders nodes with kinds, a branch badge, a folded run, and selects on click', async () => {
    const onSelectNode = vi.fn();
    const graph = sampleGraph();
    const view = render(
      <div style={{ width: 1000, height: 700 }}>
        <SessionGraphView graph={graph} selectedNodeId={null} onSelectNode={onSelectNode} />
      </div>,
    );
    await waitFor(() => expect(view.container.querySelectorAll('[data-testid="graph-node"]').length).toBeGreaterThan(0));
    const byId = (id: string) => view.container.querySelector(`[data-node-id="${id}"]`);
    expect(byId('prompt')?.getAttribute('data-kind')).toBe('user');
    expect(byId('hook')?.querySelector('[data-testid="branch-badge"]')?.textContent).toBe('2 branches');
    // The split is marked on both sides: the fork point's badge and each branch's first node.
    expect(byId('first')?.querySelector('[data-testid="branch-tag"]')?.textContent).toBe('branch 1/2');
    expect(byId('second')?.querySelector('[data-testid="branch-tag"]')?.textContent).toBe('branch 2/2');
    expect(byId('answer')?.querySelector('[data-testid="branch-tag"]')).toBeNull();
    const run = view.container.querySelector('[data-fold-id="run:n5"]');
    expect(run?.textContent).toContain('8 steps');
    fireEvent.click(byId('answer')!);
    expect(onSelectNode).toHaveBeenCalledWith('answer');
  });

  it('a folded run without tool calls said nothing under "N steps": it names its kinds', async () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt' });
    s.chain(prompt, 6, ['thinking', 'progress']); // a thinking and hook run: steps with no tool call
    const graph = { ...sampleGraph(), nodes: s.nodes };
    const view = render(
      <div style={{ width: 1000, height: 700 }}>
        <SessionGraphView graph={graph} selectedNodeId={null} onSelectNode={vi.fn()} />
      </div>,
    );
    await waitFor(() => expect(view.container.querySelector('[data-fold-id^="run:"]')).not.toBeNull());
    const run = view.container.querySelector('[data-fold-id^="run:"]')!;
    expect(run.textContent).toMatch(/steps/);
    expect(run.textContent).toMatch(/(thinking|hook) ×3/);
  });

  it('reveals a node hidden in a fold when selected from outside, and navigates by keyboard', async () => {
    const onSelectNode = vi.fn();
    const graph = sampleGraph();
    const view = render(<SessionGraphView graph={graph} selectedNodeId={null} onSelectNode={onSelectNode} />);
    await waitFor(() => expect(view.container.querySelector('[data-fold-id="run:n5"]')).not.toBeNull());
    view.rerender(<SessionGraphView graph={graph} selectedNodeId="n9" onSelectNode={onSelectNode} />);
    await waitFor(() => expect(view.container.querySelector('[data-node-id="n9"]')?.getAttribute('data-selected')).toBe('true'));
    expect(view.container.querySelector('[data-fold-id="run:n5"]')).toBeNull();
    const root = view.getByTestId('graph');
    await act(async () => {
      fireEvent.keyDown(root, { key: 'ArrowUp' });
    });
    expect(onSelectNode).toHaveBeenLastCalledWith('n8');
    await act(async () => {
      fireEvent.keyDown(root, { key: 'b' });
    });
    expect(onSelectNode).toHaveBeenLastCalledWith('hook');
    await act(async () => {
      fireEvent.keyDown(root, { key: 'ArrowDown' });
    });
    expect(onSelectNode).toHaveBeenLastCalledWith('first');
    await act(async () => {
      fireEvent.keyDown(root, { key: 'ArrowRight' });
    });
    expect(onSelectNode).toHaveBeenLastCalledWith('second');
  });

  it('a screen reader follows arrow-key moves: the tree names the cursor treeitem as its active descendant', async () => {
    const view = render(<SessionGraphView graph={sampleGraph()} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(view.container.querySelector('[data-node-id="prompt"]')).not.toBeNull());
    const tree = view.getByRole('tree', { name: 'Session graph' });
    expect(tree.getAttribute('aria-activedescendant')).toBeNull();
    const active = (): HTMLElement | null => {
      const id = tree.getAttribute('aria-activedescendant');
      return id === null ? null : view.container.ownerDocument.getElementById(id);
    };
    await act(async () => {
      fireEvent.keyDown(tree, { key: 'ArrowDown' });
    });
    await waitFor(() => expect(active()?.getAttribute('data-node-id')).toBe('prompt'));
    expect(active()?.getAttribute('role')).toBe('treeitem');
    await act(async () => {
      fireEvent.keyDown(tree, { key: 'ArrowDown' });
    });
    await waitFor(() => expect(active()?.getAttribute('data-node-id')).toBe('answer'));
    // A fold group is a treeitem the cursor reaches too.
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowDown']) {
      await act(async () => {
        fireEvent.keyDown(tree, { key });
      });
    }
    await waitFor(() => expect(active()?.getAttribute('data-fold-id')).toBe('run:n5'));
  });
});
