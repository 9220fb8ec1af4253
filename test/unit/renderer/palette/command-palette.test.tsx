import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaletteLayer } from '../../../../renderer/src/palette/PaletteLayer';
import { paletteRegistry } from '../../../../renderer/src/palette/palette-registry';
import { SearchBox } from '../../../../renderer/src/search/SearchBox';
import { createFakeClient, nodeDetail, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function mount() {
  const client = createFakeClient({
    'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    'sessions.graph': () => new Promise(() => undefined),
    'search.query': ({ query }) => ({
      hits: [{ sessionId: 's2', sessionTitle: 'Second session', nodeId: 'hit-node', kind: 'user', timestamp: null, snippet: `about ${query}` }],
      indexing: false,
      total: 1,
      totalCapped: false,
    }),
  });
  const rendered = renderWithStore(
    <>
      <SearchBox />
      <PaletteLayer />
    </>,
    client,
  );
  return rendered;
}

const palette = () => screen.queryByRole('dialog', { name: 'Command palette' });
const openPalette = () => act(() => void fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));
const type = (text: string) => act(() => void fireEvent.change(screen.getByTestId('palette-input'), { target: { value: text } }));
const press = (key: string) => act(() => void fireEvent.keyDown(screen.getByTestId('palette-input'), { key }));
const titles = () => screen.queryAllByTestId('palette-item').map((item) => item.querySelector('.palette__title')?.textContent);

describe('the command palette', () => {
  it('Ctrl+K opens it focused; "fork" then Enter opens the fork dialog for the selected node', async () => {
    vi.useFakeTimers();
    const { store } = mount();
    await act(() => store.getState().selectNode('n7'));
    openPalette();
    expect(palette()).not.toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('palette-input'));
    type('fork');
    expect(titles()[0]).toBe('Fork from the selected node…');
    press('Enter');
    expect(palette()).toBeNull();
    act(() => void vi.runAllTimers());
    expect(store.getState().timeTravelDialog).toEqual({ kind: 'fork', nodeId: 'n7' });
  });

  it('offers fork, rewind and compare only when they can run', async () => {
    const { store } = mount();
    openPalette();
    type('fork');
    expect(titles()).not.toContain('Fork from the selected node…');
    press('Escape');
    expect(palette()).toBeNull();
    await act(() => store.getState().selectNode('n7'));
    act(() => store.getState().setCompareNode('n9'));
    openPalette();
    type('compare');
    expect(titles()[0]).toBe('Compare the files of the two chosen nodes…');
  });

  it('opens a session by its title or project, and jumps to a node found by its text', async () => {
    vi.useFakeTimers();
    const { store } = mount();
    act(() => store.setState({ sessions: [session('s1', { title: 'Fix the login page' }), session('s2', { title: 'Second session', project: '/src/payments' })] }));
    openPalette();
    type('payments');
    expect(titles()).toContain('Second session');
    await act(async () => void (await vi.advanceTimersByTimeAsync(200)));
    const jump = screen.getAllByTestId('palette-item').find((item) => item.dataset.key?.startsWith('node:'));
    expect(jump).toBeDefined();
    expect(jump!.textContent).toContain('about payments');
    act(() => void fireEvent.mouseDown(jump!));
    act(() => void vi.runAllTimers());
    expect(store.getState().selectedSessionId).toBe('s2');
    expect(store.getState().selectedNodeId).toBe('hit-node');
  });

  it('lists what others registered (the conversation toggle, kind filters) while they are registered', () => {
    const run = vi.fn();
    const remove = paletteRegistry.register([{ id: 'conversation.toggle', title: 'Toggle the conversation view', group: 'View', keys: 'c', run }]);
    mount();
    openPalette();
    type('conversation');
    expect(titles()[0]).toBe('Toggle the conversation view');
    press('Escape');
    act(() => remove());
    openPalette();
    type('conversation');
    expect(titles()).not.toContain('Toggle the conversation view');
  });

  it('arrow keys move the active item and wrap around', async () => {
    const { store } = mount();
    await act(() => store.getState().selectNode('n7'));
    openPalette();
    const items = () => screen.getAllByRole('option');
    expect(items()[0]!.getAttribute('aria-selected')).toBe('true');
    press('ArrowUp');
    expect(items()[items().length - 1]!.getAttribute('aria-selected')).toBe('true');
    press('ArrowDown');
    expect(items()[0]!.getAttribute('aria-selected')).toBe('true');
  });
});

describe('the shortcut overlay and the search key', () => {
  it('? opens "Keyboard shortcuts" listing the table; Escape closes it; ? typed into a field does not', () => {
    mount();
    act(() => void fireEvent.keyDown(window, { key: '?' }));
    const overlay = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(overlay).getAllByTestId('shortcut-row').length).toBeGreaterThan(10);
    act(() => void fireEvent.keyDown(window, { key: 'Escape' }));
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
    act(() => void fireEvent.keyDown(screen.getByTestId('search-input'), { key: '?' }));
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('/ focuses the header search now that Ctrl+K is the palette\'s', () => {
    mount();
    act(() => void fireEvent.keyDown(window, { key: '/' }));
    expect(document.activeElement).toBe(screen.getByTestId('search-input'));
    expect(palette()).toBeNull();
  });
});
