import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArborError } from '../../../../shared/errors';
import { ConnectionStatus, ErrorBanner } from '../../../../renderer/src/app/Banners';
import { clearNoticesOnMove } from '../../../../renderer/src/state/notice-slice';
import { createFakeClient, nodeDetail } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

describe('banners and the status line', () => {
  it('regression: an error banner about one node stayed up after the user selected another', async () => {
    const client = createFakeClient({ 'nodes.get': ({ nodeId }) => nodeDetail(nodeId) });
    const { store } = renderWithStore(<ErrorBanner />, client);
    const stop = clearNoticesOnMove(store);
    await act(() => store.getState().selectNode('n1'));
    act(() => store.getState().reportError(new ArborError('NOT_FOUND', 'gone'), 'Could not load the node'));
    expect(screen.getByTestId('app-error').textContent).toContain('gone');
    await act(() => store.getState().selectNode('n2'));
    expect(screen.queryByTestId('app-error')).toBeNull();
    // Without a move, a new error stays.
    act(() => store.getState().reportError(new ArborError('INTERNAL', 'still here')));
    act(() => store.getState().setCompareNode('n3'));
    expect(screen.getByTestId('app-error').textContent).toContain('still here');
    stop();
  });

  it('the status line says Disconnected while the connection is lost, and the import status again after', () => {
    const client = createFakeClient();
    renderWithStore(<ConnectionStatus connected={<span>Sessions up to date</span>} />, client);
    expect(screen.getByText('Sessions up to date')).toBeTruthy();
    act(() => client.setConnection('disconnected'));
    expect(screen.getByTestId('connection-status').textContent).toBe('Disconnected');
    expect(screen.queryByText('Sessions up to date')).toBeNull();
    act(() => client.setConnection('connected'));
    expect(screen.getByText('Sessions up to date')).toBeTruthy();
  });
});
