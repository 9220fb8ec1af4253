import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeDiff } from '../../../../shared/model';
import { CompareBar } from '../../../../renderer/src/time-travel/CompareBar';
import { CompareDialog, diffSides } from '../../../../renderer/src/time-travel/CompareDialog';
import { TimeTravelLayer } from '../../../../renderer/src/time-travel/TimeTravelLayer';
import { createFakeClient, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const ROOT = '/home/dev/projects/arbor';
const diff: NodeDiff = {
  nodeIdA: 'a',
  nodeIdB: 'b',
  files: [
    { path: `${ROOT}/README.md`, status: 'modified', before: 'one\ntwo\n', after: 'one\nthree\n' },
    { path: `${ROOT}/src/json.ts`, status: 'added', before: null, after: 'export {};\n' },
    { path: `${ROOT}/old.txt`, status: 'deleted', before: 'gone\n', after: null },
  ],
};

const graph = { session: session('s1', { project: ROOT }), nodes: [nodeSummary('a', { label: 'first prompt' }), nodeSummary('b', { label: 'later step' })] };

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

describe('Compare', () => {
  it('lists added, modified and deleted files and toggles between side-by-side and unified diffs', async () => {
    const client = createFakeClient({ 'nodes.diff': () => diff });
    const view = renderWithStore(<TimeTravelLayer />, client);
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', graph, timeTravelDialog: { kind: 'compare', nodeIdA: 'a', nodeIdB: 'b' } });
    });
    await screen.findByTestId('compare-view');
    expect(client.calls.find((c) => c.method === 'nodes.diff')?.request).toEqual({ nodeIdA: 'a', nodeIdB: 'b' });
    expect(screen.getByTestId('compare-dialog').textContent).toContain('“first prompt” → “later step”');
    const rows = screen.getAllByTestId('compare-file');
    expect(rows.map((r) => [r.getAttribute('data-path'), r.querySelector('[data-status]')?.getAttribute('data-status')])).toEqual([
      ['README.md', 'modified'],
      ['src/json.ts', 'added'],
      ['old.txt', 'deleted'],
    ]);
    expect(screen.getByText('3 files: 1 added, 1 modified, 1 deleted')).toBeTruthy();

    // Side by side first: two editors, the old text on the left.
    let shown = await screen.findByTestId('diff-view');
    expect(shown.getAttribute('data-layout')).toBe('split');
    // The editors load lazily (lazy-editors.tsx): on a busy machine the view is there before they are.
    await waitFor(() => expect(shown.querySelectorAll('.cm-editor')).toHaveLength(2));
    await click(screen.getByText('Unified'));
    await waitFor(() => expect(screen.getByTestId('diff-view').getAttribute('data-layout')).toBe('unified'));
    shown = screen.getByTestId('diff-view');
    expect(shown.getAttribute('data-layout')).toBe('unified');
    expect(shown.querySelectorAll('.cm-editor')).toHaveLength(1);
    expect(shown.querySelector('.cm-deletedChunk')?.textContent).toContain('two');

    await click(rows[1]!);
    expect(screen.getByText('New file.')).toBeTruthy();
    expect((await screen.findByTestId('code-view')).textContent).toContain('export {};');

    await click(screen.getByTestId('compare-swap'));
    expect(view.store.getState().timeTravelDialog).toEqual({ kind: 'compare', nodeIdA: 'b', nodeIdB: 'a' });
  });

  it('reads a deleted file’s old text and marks unknown content', () => {
    const sides = diffSides({ path: '/x', status: 'deleted', before: 'gone', after: null });
    expect(sides.before.text).toBe('gone');
    expect(sides.after.exists).toBe(false);
    const unknown = diffSides({ path: '/x', status: 'modified', before: null, after: 'now', unknown: true });
    expect(unknown.before.known).toBe(false);
    expect(unknown.after.known).toBe(true);
  });

  it('the compare bar opens the comparison of the selection with the Shift+clicked node, and clears it', async () => {
    const view = renderWithStore(<CompareBar />, createFakeClient());
    expect(screen.queryByTestId('compare-bar')).toBeNull();
    await act(async () => {
      view.store.setState({ graph, selectedSessionId: 's1', selectedNodeId: 'a', compareNodeId: 'b' });
    });
    expect(screen.getByTestId('compare-bar').textContent).toContain('“first prompt”→“later step”');
    await click(screen.getByTestId('compare-open'));
    expect(view.store.getState().timeTravelDialog).toEqual({ kind: 'compare', nodeIdA: 'a', nodeIdB: 'b' });
    await click(screen.getByLabelText('Stop comparing'));
    expect(view.store.getState().compareNodeId).toBeNull();
  });

  it('says when the two nodes have the same files', () => {
    renderWithStore(<CompareDialog nodeIdA="a" nodeIdB="b" onClose={() => undefined} />, createFakeClient({ 'nodes.diff': () => ({ ...diff, files: [] }) }));
    return screen.findByText('The two nodes have the same files with the same content.');
  });
});
