/** Regressions from the e2e screenshots: clicks that did not select, the camera on open and on refresh, clipped badges. */
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeId, SessionGraph } from '../../../../shared/model';
import { SessionGraphView } from '../../../../renderer/src/graph/SessionGraphView';
import { OPEN_ZOOM } from '../../../../renderer/src/graph/view-actions';
import { SessionBuilder } from '../../shared/graph/session-builder';
import { sessionGraphOf, zoomOf } from './graph-test-helpers';

/** A long conversation (prompt/answer turns, nothing folds) with one unanswered tool call at the end. */
function longGraph(turns: number): SessionGraph {
  const s = new SessionBuilder();
  let at: NodeId | null = null;
  for (let k = 0; k < turns; k++) {
    at = s.add('user', at, { id: `u${k}` });
    at = s.add('assistant', at, { id: `a${k}` });
  }
  s.add('tool_call', at, { id: 'call' });
  s.nodes[s.nodes.length - 1] = { ...s.nodes[s.nodes.length - 1]!, toolCalls: [{ id: 't1', name: 'Bash', outcome: 'missing' }] };
  return sessionGraphOf(s.nodes);
}

const frame = () => act(() => new Promise((done) => setTimeout(done, 20)));

afterEach(cleanup);

describe('the session graph', () => {
  it('selects on the first click even when the pointer moves a few pixels while pressed', async () => {
    const onSelectNode = vi.fn();
    const view = render(<SessionGraphView graph={longGraph(2)} selectedNodeId={null} onSelectNode={onSelectNode} />);
    await waitFor(() => expect(view.container.querySelector('[data-node-id="a0"]')).not.toBeNull());
    const node = view.container.querySelector('[data-node-id="a0"]')!;
    // d3-zoom used to treat any travel as a pan and swallow the click that followed.
    fireEvent.mouseDown(node, { clientX: 100, clientY: 100, button: 0, view: window });
    fireEvent.mouseMove(window, { clientX: 102, clientY: 101, view: window });
    fireEvent.mouseUp(window, { clientX: 102, clientY: 101, button: 0, view: window });
    fireEvent.click(node, { clientX: 102, clientY: 101, button: 0, view: window });
    expect(onSelectNode).toHaveBeenCalledWith('a0');
  });

  it('opens a long session at a readable zoom, not fitted down to unlabeled pills', async () => {
    const view = render(<SessionGraphView graph={longGraph(60)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBe(OPEN_ZOOM));
    expect(view.container.querySelector('[data-node-id="u0"] .graph-node__label')).not.toBeNull();
  });

  it('a jump from search while zoomed out zooms back in to the node', async () => {
    const graph = longGraph(60);
    const view = render(<SessionGraphView graph={graph} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(zoomOf(view.container)).toBe(OPEN_ZOOM));
    // Fit on a session too long to read whole shows the turn overview (no step is drawn).
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    await waitFor(() => expect(view.queryByTestId('graph-overview')).not.toBeNull());
    view.rerender(<SessionGraphView graph={graph} selectedNodeId="a30" onSelectNode={vi.fn()} />);
    await waitFor(() => expect(view.queryByTestId('graph-overview')).toBeNull());
    await waitFor(() => expect(zoomOf(view.container)).toBeGreaterThanOrEqual(OPEN_ZOOM));
    const selected = view.container.querySelector('[data-node-id="a30"]');
    expect(selected?.getAttribute('data-selected')).toBe('true');
    expect(selected?.querySelector('.graph-node__label')).not.toBeNull();
  });

  it('a live refresh of the open session keeps the camera where the user put it, and the cursor on the selection', async () => {
    const graph = longGraph(60);
    const onSelectNode = vi.fn();
    const view = render(<SessionGraphView graph={graph} selectedNodeId="a30" onSelectNode={onSelectNode} />);
    await waitFor(() => expect(view.container.querySelector('[data-node-id="a30"]')?.getAttribute('data-selected')).toBe('true'));
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'f' });
    });
    const overview = await waitFor(() => view.getByTestId('graph-overview'));
    const fitted = overview.dataset.zoom;
    view.rerender(<SessionGraphView graph={{ ...graph, nodes: [...graph.nodes] }} selectedNodeId="a30" onSelectNode={onSelectNode} />);
    await frame();
    await frame();
    expect(view.getByTestId('graph-overview').dataset.zoom).toBe(fitted);
    await act(async () => {
      fireEvent.keyDown(view.getByTestId('graph'), { key: 'ArrowUp' });
    });
    expect(onSelectNode).toHaveBeenLastCalledWith('u30');
  });

  it('an unanswered call says "no result" in the node, keeping "outcome not recorded" for readers', async () => {
    const view = render(<SessionGraphView graph={longGraph(1)} selectedNodeId={null} onSelectNode={vi.fn()} />);
    await waitFor(() => expect(view.container.querySelector('[data-node-id="call"]')).not.toBeNull());
    const node = view.container.querySelector<HTMLElement>('[data-node-id="call"]')!;
    const badge = node.querySelector<HTMLElement>('.graph-node__missing')!;
    expect(badge.querySelector('[aria-hidden="true"]')?.textContent).toBe('no result');
    expect(badge.title).toMatch(/^outcome not recorded/);
    expect(node.textContent).toContain('outcome not recorded');
    expect(node.title).toContain('outcome not recorded');
    // The badge sits beside the tool name, not inside the text that gets cut with an ellipsis.
    expect(badge.parentElement?.querySelector('.graph-node__name')?.textContent).toBe('Bash');
  });
});
