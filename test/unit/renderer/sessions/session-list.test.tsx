import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { SessionList } from '../../../../renderer/src/sessions/SessionList';
import { createFakeClient, graphFor, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const sessions = [
  session('s1', { title: 'Refactor the importer', project: '/home/dev/work/arbor', updatedAt: '2025-03-03T00:00:00Z', branchCount: 2 }),
  session('s2', { title: 'Write release notes', project: '/home/dev/work/docs', updatedAt: '2025-03-02T00:00:00Z' }),
  session('s3', { title: 'Importer bug hunt', project: '/home/dev/work/arbor', updatedAt: '2025-03-01T00:00:00Z' }),
];

async function setup() {
  const client = createFakeClient({
    'sessions.list': () => ({ sessions, total: sessions.length }),
    'sessions.graph': ({ sessionId }) => graphFor(sessionId),
  });
  const view = renderWithStore(<SessionList />, client);
  await act(() => view.store.getState().loadSessions());
  return view;
}

const rowIds = () => screen.getAllByTestId('session-row').map((r) => r.getAttribute('data-session-id'));

describe('SessionList', () => {
  it('lists sessions newest first with project, and a branch badge when there are branches', async () => {
    await setup();
    expect(rowIds()).toEqual(['s1', 's2', 's3']);
    const first = screen.getAllByTestId('session-row')[0]!;
    expect(first.textContent).toContain('Refactor the importer');
    expect(first.textContent).toContain('…/work/arbor');
    expect(first.querySelector('.badge--branch')?.textContent).toContain('2');
    expect(screen.getAllByTestId('session-row')[1]!.querySelector('.badge--branch')).toBeNull();
  });

  it('filters client-side as the user types', async () => {
    await setup();
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'importer' } });
    expect(rowIds()).toEqual(['s1', 's3']);
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'docs' } });
    expect(rowIds()).toEqual(['s2']);
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'zzz' } });
    expect(screen.queryAllByTestId('session-row')).toHaveLength(0);
    expect(screen.getByTestId('session-list').textContent).toContain('No session matches');
  });

  it('opens sessions by click and by keyboard', async () => {
    const { store } = await setup();
    await act(async () => fireEvent.click(screen.getAllByTestId('session-row')[1]!));
    expect(store.getState().selectedSessionId).toBe('s2');
    const list = screen.getByTestId('session-list');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    await act(async () => fireEvent.keyDown(list, { key: 'Enter' }));
    expect(store.getState().selectedSessionId).toBe('s3');
    fireEvent.keyDown(list, { key: 'Home' });
    await act(async () => fireEvent.keyDown(list, { key: 'Enter' }));
    expect(store.getState().selectedSessionId).toBe('s1');
  });

  it('stays virtual: thousands of sessions render only a window of rows', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => session(`m${i}`, { updatedAt: new Date(Date.UTC(2025, 0, 1) - i * 60_000).toISOString() }));
    const client = createFakeClient({ 'sessions.list': () => ({ sessions: many, total: many.length }) });
    const view = renderWithStore(<SessionList />, client);
    await act(() => view.store.getState().loadSessions());
    const rendered = screen.getAllByTestId('session-row').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
  });

  it('says where sessions will appear when there are none, instead of a blank pane', async () => {
    const view = renderWithStore(<SessionList />, createFakeClient({ 'sessions.list': () => ({ sessions: [], total: 0 }) }));
    await act(() => view.store.getState().loadSessions());
    expect(screen.getByTestId('session-list').textContent).toContain('Imported sessions will be listed here.');
    expect(screen.queryAllByTestId('session-row')).toHaveLength(0);
  });
});
