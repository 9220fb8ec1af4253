/** The graph view's hand-over to the turn overview: Fit on a huge session, keyboard moves, the minimap toggle. */
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeId, SessionGraph } from '../../../../../shared/model';
import { SessionGraphView } from '../../../../../renderer/src/graph/SessionGraphView';
import { OPEN_ZOOM } from '../../../../../renderer/src/graph/view-actions';
import { SessionBuilder } from '../../../shared/graph/session-builder';
import { sessionGraphOf, zoomOf } from '../graph-test-helpers';

function graphOf(turns: number): SessionGraph {
  const s = new SessionBuilder();
  let at: NodeId | null = null;
  for (let k = 0; k < turns; k++) {
    at = s.add('user', at, { id: `u${k}` });
    at = s.add('assistant', at, { id: `a${k}` });
  }
  return sessionGraphOf(s.nodes);
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the turn overview in the graph view', () => {
  it('Fit on a session too long to read fitted shows the overview and mounts no step nodes; a keyboard move comes back readable', async () => {
    const onSelectNode = vi.fn();
    const view = render(<SessionGraphView graph={graphOf(600)} selectedNodeId={null} onSelectNode={onSelectNode} />);
    await waitFor(() => expect(zoomOf(view.container)).toBe(OPEN_ZOOM));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    await waitFor(() => expect(view.queryByTestId('graph-overview')).not.toBeNull());
    await waitFor(() => expect(view.container.querySelectorAll('[data-testid="graph-node"]').length).toBe(0));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'ArrowDown' });
    });
    await waitFor(() => expect(view.queryByTestId('graph-overview')).toBeNull());
    expect(zoomOf(view.container)).toBe(OPEN_ZOOM);
    expect(onSelectNode).toHaveBeenCalled();
    await waitFor(() => expect(view.container.querySelectorAll('[data-testid="graph-node"]').length).toBeGreaterThan(0));
  });

  it('Fit on a session that reads fitted keeps the step graph', async () => {
    const view = render(<SessionGraphView graph={graphOf(20)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBeGreaterThan(0));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    await waitFor(() => expect(zoomOf(view.container)).toBeLessThan(OPEN_ZOOM));
    expect(view.queryByTestId('graph-overview')).toBeNull();
  });

  it('the minimap hides on request and stays hidden in the next view', async () => {
    const first = render(<SessionGraphView graph={graphOf(5)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(first.getByTestId('graph-minimap').getAttribute('data-hidden')).toBe('false'));
    fireEvent.click(first.getByTestId('minimap-toggle'));
    expect(first.getByTestId('graph-minimap').getAttribute('data-hidden')).toBe('true');
    cleanup();
    const second = render(<SessionGraphView graph={graphOf(5)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    expect(second.getByTestId('graph-minimap').getAttribute('data-hidden')).toBe('true');
  });
});
