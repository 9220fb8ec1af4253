import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { Inspector } from '../../../../renderer/src/inspector/Inspector';
import { createAppStore } from '../../../../renderer/src/state/store';
import { TimeTravelLayer } from '../../../../renderer/src/time-travel/TimeTravelLayer';
import { createFakeClient, deferred, nodeDetail } from '../fake-client';
import type { RewindPreview } from '../../../../shared/operations';

afterEach(cleanup);

function mount() {
  const preview = deferred<RewindPreview>();
  const client = createFakeClient({ 'nodes.get': ({ nodeId }) => nodeDetail(nodeId), 'rewind.preview': () => preview.promise, 'nodes.files': () => new Promise(() => undefined) });
  const store = createAppStore(client);
  render(
    <AppProvider store={store} client={client}>
      <input data-testid="elsewhere" />
      <Inspector />
      <TimeTravelLayer />
    </AppProvider>,
  );
  return { store, client };
}

describe('time-travel shortcuts and actions', () => {
  it('R opens the rewind preview for the selected node, Shift+F the fork dialog; not while typing', async () => {
    const { store } = mount();
    fireEvent.keyDown(window, { key: 'r' });
    expect(store.getState().timeTravelDialog).toBeNull();
    await act(() => store.getState().selectNode('n7'));
    fireEvent.keyDown(screen.getByTestId('elsewhere'), { key: 'r' });
    expect(store.getState().timeTravelDialog).toBeNull();
    act(() => {
      fireEvent.keyDown(window, { key: 'r' });
    });
    expect(store.getState().timeTravelDialog).toEqual({ kind: 'rewind', nodeId: 'n7' });
    expect(screen.getByTestId('rewind-dialog')).toBeTruthy();
    act(() => {
      fireEvent.keyDown(window, { key: 'Escape' });
    });
    expect(store.getState().timeTravelDialog).toBeNull();
    act(() => {
      fireEvent.keyDown(window, { key: 'F', shiftKey: true });
    });
    expect(store.getState().timeTravelDialog).toEqual({ kind: 'fork', nodeId: 'n7' });
  });

  it('the inspector has Rewind and Fork buttons and a Files tab', async () => {
    const { store, client } = mount();
    await act(() => store.getState().selectNode('n7'));
    act(() => {
      fireEvent.click(screen.getByTestId('action-rewind'));
    });
    expect(store.getState().timeTravelDialog).toEqual({ kind: 'rewind', nodeId: 'n7' });
    act(() => store.getState().closeTimeTravel());
    act(() => {
      fireEvent.click(screen.getByTestId('action-fork'));
    });
    expect(store.getState().timeTravelDialog).toEqual({ kind: 'fork', nodeId: 'n7' });
    act(() => store.getState().closeTimeTravel());
    act(() => {
      fireEvent.click(screen.getByTestId('inspector-tab-files'));
    });
    expect(screen.getByText('Loading the files at this node…')).toBeTruthy();
    expect(client.calls.at(-1)).toEqual({ method: 'nodes.files', request: { nodeId: 'n7' } });
  });
});
