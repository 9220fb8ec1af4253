/** "Merge…" loads the merge's code on demand: one view on screen while it loads, one session per click burst. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MergePreview } from '../../../../shared/operations';
import { MergeAction } from '../../../../renderer/src/merge/MergeAction';
import { createFakeClient, deferred } from '../fake-client';
import { renderWithStore } from '../render';
import { mergePreview } from './merge-fixtures';

afterEach(cleanup);

// The view's code arrives when the test says so, like a chunk still on its way over the network.
const viewArrives = vi.hoisted(() => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
});
vi.mock('../../../../renderer/src/merge/MergeView', async (importOriginal) => {
  await viewArrives.gate;
  return importOriginal();
});

describe('MergeAction', () => {
  it('regression: shows exactly one merge view while the merge loads, and starts one merge for a double click', async () => {
    const preview = deferred<MergePreview>();
    const client = createFakeClient({ 'merge.preview': () => preview.promise });
    const view = renderWithStore(<MergeAction />, client);
    await act(async () => {
      view.store.setState({ selectedNodeId: 'node-ours', compareNodeId: 'node-theirs' });
    });
    expect(screen.queryAllByTestId('merge-view')).toHaveLength(0);
    const button = screen.getByTestId('merge-open');
    await act(async () => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    expect(screen.getAllByTestId('merge-view')).toHaveLength(1);
    // The session module arrived: the preview was asked for once, and the view (still waiting) is alone.
    await waitFor(() => expect(client.calls.filter((c) => c.method === 'merge.preview')).toHaveLength(1));
    await act(async () => new Promise((done) => setTimeout(done, 20)));
    expect(screen.getAllByTestId('merge-view')).toHaveLength(1);
    expect(screen.getByTestId('merge-view').textContent).toBe('Opening the merge…');
    viewArrives.open();
    await waitFor(() => expect(screen.getByTestId('merge-view').getAttribute('role')).toBe('dialog'));
    expect(screen.getAllByTestId('merge-view')).toHaveLength(1);
    expect(client.calls.find((c) => c.method === 'merge.preview')?.request).toMatchObject({ nodeIdA: 'node-ours', nodeIdB: 'node-theirs' });
    await act(async () => preview.resolve(mergePreview()));
    await screen.findByTestId('merge-sides');
    expect(screen.getAllByTestId('merge-view')).toHaveLength(1);
  });
});
