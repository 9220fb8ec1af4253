/**
 * The palette's "Show side effects…" (renderer/src/palette/builtin-actions.ts) opens the session header's
 * "Side effects" dialog (SideEffectsButton), for the open session only, and is offered only while one is open.
 */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PaletteLayer } from '../../../../renderer/src/palette/PaletteLayer';
import { ledgerDialogStore } from '../../../../renderer/src/session/ledger-dialog-store';
import { SideEffectsButton } from '../../../../renderer/src/session/SideEffectsButton';
import { createFakeClient } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(() => {
  cleanup();
  ledgerDialogStore.getState().close();
});

function mount() {
  const client = createFakeClient({ 'effects.ledger': ({ target }) => ({ sessionId: target, through: null, entries: [], unrecorded: 0, replays: 0 }) });
  return renderWithStore(
    <>
      <SideEffectsButton sessionId="s1" />
      <PaletteLayer />
    </>,
    client,
  );
}

const openPalette = () => act(() => void fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));
const type = (text: string) => act(() => void fireEvent.change(screen.getByTestId('palette-input'), { target: { value: text } }));
const titles = () => screen.queryAllByTestId('palette-item').map((item) => item.querySelector('.palette__title')?.textContent);

describe('Show side effects… in the palette', () => {
  it('is offered only while a session is open', async () => {
    mount();
    openPalette();
    type('side effects');
    expect(titles()).not.toContain('Show side effects…');
  });

  it("opens the header's Side effects dialog for the open session, which closes as the link's does", async () => {
    const { store, client } = mount();
    await act(async () => {
      store.setState({ selectedSessionId: 's1' });
    });
    openPalette();
    type('side effects');
    expect(titles()[0]).toBe('Show side effects…');
    await act(async () => void fireEvent.keyDown(screen.getByTestId('palette-input'), { key: 'Enter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Side effects' });
    expect(await screen.findByText('No step of this session reached outside the workspace.')).toBeTruthy();
    expect(client.calls.filter((call) => call.method === 'effects.ledger')).toEqual([{ method: 'effects.ledger', request: { target: 's1' } }]);
    await act(async () => void fireEvent.click(within(dialog).getByText('Close', { selector: 'button.primary-button' })));
    expect(dialog.isConnected).toBe(false);
    expect(ledgerDialogStore.getState().sessionId).toBeNull();
    // The header's link opens it again.
    await act(async () => void fireEvent.click(screen.getByTestId('open-ledger')));
    expect(screen.getByRole('dialog', { name: 'Side effects' })).toBeTruthy();
  });
});
