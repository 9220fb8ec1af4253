/** The graph view's hand-over to the turn overview: Fit on a huge session, keyboard moves, the minimap toggle. */
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeId, SessionGraph } from '../../../../../shared/model';
import { SessionGraphView } from '../../../../../renderer/src/graph/SessionGraphView';
import { DETAIL_ZOOM } from '../../../../../renderer/src/graph/mount-items';
import { READABLE_OVERVIEW_ZOOM } from '../../../../../renderer/src/graph/overview/overview-camera';
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
    const view = render(<SessionGraphView graph={graphOf(3)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBeGreaterThan(0));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    await waitFor(() => expect(zoomOf(view.container)).not.toBe(OPEN_ZOOM));
    expect(zoomOf(view.container)).toBeGreaterThanOrEqual(DETAIL_ZOOM);
    expect(view.queryByTestId('graph-overview')).toBeNull();
  });

  it('Fit on the demo-sized session (90 nodes) lands on readable turn cards, not unreadable tiny step cards', async () => {
    const view = render(<SessionGraphView graph={graphOf(45)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBe(OPEN_ZOOM));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    await waitFor(() => expect(view.queryByTestId('graph-overview')).not.toBeNull());
    // The step graph would have fitted at ~0.2: pills. The overview's cards carry their text from CARD_TEXT_ZOOM.
    expect(Number(view.getByTestId('graph-overview').dataset.zoom ?? NaN)).toBeGreaterThanOrEqual(READABLE_OVERVIEW_ZOOM);
  });

  it('the + and − buttons zoom the overview while it shows, and zooming in far enough opens the steps', async () => {
    const view = render(<SessionGraphView graph={graphOf(600)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBe(OPEN_ZOOM));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    const overview = await waitFor(() => view.getByTestId('graph-overview'));
    const zoom = (): number => Number(overview.dataset.zoom ?? NaN);
    await waitFor(() => expect(zoom()).toBeGreaterThan(0));
    const before = zoom();
    fireEvent.click(view.getByRole('button', { name: 'Zoom out' }));
    await waitFor(() => expect(zoom()).toBeCloseTo(before / 1.2, 2));
    fireEvent.click(view.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(zoom()).toBeCloseTo(before, 2));
    for (let k = 0; k < 20 && view.queryByTestId('graph-overview'); k++) {
      await act(async () => {
        fireEvent.click(view.getByRole('button', { name: 'Zoom in' }));
      });
    }
    expect(view.queryByTestId('graph-overview')).toBeNull();
    await waitFor(() => expect(view.container.querySelectorAll('[data-testid="graph-node"]').length).toBeGreaterThan(0));
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
