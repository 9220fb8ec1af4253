import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeSummary, SessionGraph } from '../../../../shared/model';
import { SessionGraphView } from '../../../../renderer/src/graph/SessionGraphView';
import { SessionBuilder } from '../../shared/graph/session-builder';
import { paletteRegistry } from '../../../../renderer/src/palette/palette-registry';

function graphOf(nodes: NodeSummary[]): SessionGraph {
  return {
    session: { id: 's1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: nodes.length, fileCount: 0, branchCount: 0 },
    nodes,
  };
}

/** prompt → failed Edit (hook lines after it) → error result → reply; the prompt was rewound once. */
function readingGraph(): SessionGraph {
  const s = new SessionBuilder();
  const prompt = s.add('user', null, { id: 'prompt', label: 'Fix the failing test' });
  const call = s.add('tool_call', prompt, { id: 'call', label: 'Edit src/a.ts' });
  const at = s.nodes.length - 1;
  s.nodes[at] = { ...s.nodes[at]!, toolCalls: [{ id: 't1', name: 'Edit', outcome: 'error' }] };
  const hook = s.add('progress', call, { id: 'hook', label: 'Hook PostToolUse:Edit' });
  const result = s.add('error', hook, { id: 'result', label: '✗ Edit — String to replace not found' });
  const reply = s.add('assistant', result, { id: 'reply', label: 'The edit failed; retrying with the exact text' });
  s.add('system', reply, { id: 'stop', label: 'Stop hooks: 1 ran' });
  s.add('user', reply, { id: 'again', label: 'Try once more' });
  s.add('user', reply, { id: 'other', label: 'Never mind, revert it' });
  return graphOf(s.nodes);
}

afterEach(cleanup);

const nodeOf = (container: HTMLElement, id: string) => container.querySelector(`[data-node-id="${id}"]`);

describe('graph reading', () => {
  it('marks the failed call on its own card and names the call on its result card', async () => {
    const view = render(<SessionGraphView graph={readingGraph()} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(nodeOf(view.container, 'call')).not.toBeNull());
    const call = nodeOf(view.container, 'call')!;
    expect(call.getAttribute('data-failed')).toBe('true');
    expect(call.querySelector('[data-testid="failed-mark"]')).not.toBeNull();
    expect(call.querySelector('[data-testid="card-title"]')?.textContent).toBe('Edit');
    expect(call.querySelector('[data-testid="card-text"]')?.textContent).toBe('src/a.ts');
    const result = nodeOf(view.container, 'result')!;
    expect(result.querySelector('[data-testid="card-title"]')?.textContent).toBe('← Edit src/a.ts');
    expect(nodeOf(view.container, 'prompt')?.className).toMatch(/\blane-\d\b/);
  });

  it('hides hook lines and stop-hook summaries by default, counts them on their step and shows them on demand', async () => {
    const view = render(<SessionGraphView graph={readingGraph()} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(nodeOf(view.container, 'call')).not.toBeNull());
    expect(nodeOf(view.container, 'hook')).toBeNull();
    expect(nodeOf(view.container, 'stop')).toBeNull();
    const chip = nodeOf(view.container, 'call')!.querySelector('[data-testid="hidden-lines"]')!;
    expect(chip.textContent).toBe('+1');
    // The branch point counts the two prompts drawn below it; the hidden stop-hook line is no branch.
    expect(nodeOf(view.container, 'reply')?.querySelector('[data-testid="branch-badge"]')?.textContent).toBe('2 branches');
    await act(async () => {
      fireEvent.click(chip);
    });
    await waitFor(() => expect(nodeOf(view.container, 'hook')).not.toBeNull());
    expect(nodeOf(view.container, 'stop')).toBeNull();
    await act(async () => {
      fireEvent.click(view.getByTestId('graph-show-all-lines'));
    });
    await waitFor(() => expect(nodeOf(view.container, 'stop')).not.toBeNull());
  });

  it('a kind filter hides tool calls and keeps a selection it hid in view on its nearest step', async () => {
    const view = render(<SessionGraphView graph={readingGraph()} selectedNodeId="call" onSelectNode={vi.fn()} />);
    await waitFor(() => expect(nodeOf(view.container, 'call')?.getAttribute('data-selected')).toBe('true'));
    await act(async () => {
      fireEvent.click(view.getByTestId('graph-filter-tools'));
    });
    await waitFor(() => expect(nodeOf(view.container, 'call')).toBeNull());
    expect(view.getByTestId('graph-filter-tools').getAttribute('aria-pressed')).toBe('false');
    // The error result is an error, not a tool call line: it stays.
    expect(nodeOf(view.container, 'result')).not.toBeNull();
    expect(nodeOf(view.container, 'prompt')?.className).toContain('holds-selection');
    expect(view.getByTestId('selection-hidden-note').textContent).toContain('hidden');
  });

  it('the palette runs the same kind filters while the graph is shown, and offers none once it is gone', async () => {
    const view = render(<SessionGraphView graph={readingGraph()} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(nodeOf(view.container, 'call')).not.toBeNull());
    const action = paletteRegistry.actions().find((a) => a.id === 'filter.kind.tools');
    expect(action?.group).toBe('Filter');
    await act(async () => {
      action!.run();
    });
    await waitFor(() => expect(nodeOf(view.container, 'call')).toBeNull());
    expect(view.getByTestId('graph-filter-tools').getAttribute('aria-pressed')).toBe('false');
    // Run again, it reads the filters as they are now (not as they were when registered): tool calls return.
    await act(async () => {
      paletteRegistry.actions().find((a) => a.id === 'filter.kind.tools')!.run();
    });
    await waitFor(() => expect(nodeOf(view.container, 'call')).not.toBeNull());
    view.unmount();
    expect(paletteRegistry.actions().some((a) => a.id.startsWith('filter.'))).toBe(false);
  });
});
