import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SessionSummary } from '../../../../shared/model';
import { SessionList } from '../../../../renderer/src/sessions/SessionList';
import { createSessionListPrefs } from '../../../../renderer/src/sessions/session-list-prefs';
import { createFakeClient, graphFor, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

/** A Storage over a Map: what localStorage keeps between two windows of the same profile. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const ARBOR = '/home/dev/work/arbor';
const DOCS = '/home/dev/work/docs';
const sessions = [
  session('s1', { title: 'Refactor the importer', project: ARBOR, projectKey: ARBOR, lastActivityAt: '2025-03-03T00:00:00Z', branchCount: 2, bytes: 5_000 }),
  session('s2', { title: 'Write release notes', project: DOCS, projectKey: DOCS, lastActivityAt: '2025-03-02T00:00:00Z', bytes: 90_000 }),
  session('s3', { title: 'Importer bug hunt', project: ARBOR, projectKey: ARBOR, lastActivityAt: '2025-03-01T00:00:00Z', bytes: 20_000 }),
  session('s4', { title: 'Explore the parser', project: null, projectKey: '/p/-home-dev-old', lastActivityAt: '2025-02-01T00:00:00Z', bytes: 700, orphanSubagent: true, branchCount: 5 }),
];

async function setup(list: readonly SessionSummary[] = sessions, storage: Storage = memoryStorage()) {
  const client = createFakeClient({
    'sessions.list': () => ({ sessions: [...list], total: list.length }),
    'sessions.graph': ({ sessionId }) => graphFor(sessionId),
  });
  const prefs = createSessionListPrefs(storage);
  const view = renderWithStore(<SessionList prefs={prefs} />, client);
  await act(() => view.store.getState().loadSessions());
  return { ...view, prefs, storage };
}

const rowIds = () => screen.getAllByTestId('session-row').map((r) => r.getAttribute('data-session-id'));
const groupNames = () => screen.getAllByRole('group').map((g) => g.getAttribute('aria-label'));
const header = (name: string) => within(screen.getByRole('group', { name })).getByTestId('session-group-header');
const list = () => screen.getByRole('listbox', { name: 'Sessions' });
const cursorRow = () => screen.getByTestId('session-list').querySelector('.is-cursor');
const press = (key: string) => act(async () => void fireEvent.keyDown(list(), { key }));

describe('SessionList grouped by project', () => {
  it('groups sessions under a header per project: folder name, full path as tooltip, session count; newest project first', async () => {
    await setup();
    expect(groupNames()).toEqual(['arbor', 'docs', '-home-dev-old']);
    expect(header('arbor').textContent).toContain('2');
    expect(header('arbor').getAttribute('title')).toContain(ARBOR);
    expect(within(screen.getByRole('group', { name: 'arbor' })).getAllByRole('option').map((o) => o.getAttribute('data-session-id'))).toEqual(['s1', 's3']);
    expect(rowIds()).toEqual(['s1', 's3', 's2', 's4']);
    expect(within(list()).getAllByRole('option').map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'false', 'false', 'false']);
    expect(screen.getByTestId('session-count').textContent).toBe('4 sessions in 3 projects');
  });

  it('shows the branch badge, the size and the orphan subagent mark with a tooltip naming the missing parent', async () => {
    await setup();
    const row = (id: string) => screen.getAllByTestId('session-row').find((r) => r.getAttribute('data-session-id') === id)!;
    expect(row('s1').querySelector('.badge--branch')?.textContent).toContain('2');
    expect(row('s1').textContent).toContain('4.9 KB');
    expect(row('s2').querySelector('.badge--branch')).toBeNull();
    const mark = within(row('s4')).getByTestId('orphan-mark');
    expect(mark.textContent).toBe('orphan subagent');
    expect(mark.getAttribute('title')).toMatch(/parent session's transcript was not found/);
    expect(within(row('s1')).queryByTestId('orphan-mark')).toBeNull();
  });

  it('sorts by size and by branches, groups by their largest / most-branched session, and remembers the choice', async () => {
    const storage = memoryStorage();
    const { prefs } = await setup(sessions, storage);
    const select = screen.getByTestId('session-sort') as HTMLSelectElement;
    expect(select.value).toBe('activity');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Last activity', 'Size (bytes)', 'Branches']);
    await act(async () => void fireEvent.change(select, { target: { value: 'size' } }));
    expect(groupNames()).toEqual(['docs', 'arbor', '-home-dev-old']);
    expect(rowIds()).toEqual(['s2', 's3', 's1', 's4']);
    await act(async () => void fireEvent.change(select, { target: { value: 'branches' } }));
    expect(groupNames()).toEqual(['-home-dev-old', 'arbor', 'docs']);
    expect(prefs.getState().sort).toBe('branches');
    cleanup();
    await setup(sessions, storage);
    expect((screen.getByTestId('session-sort') as HTMLSelectElement).value).toBe('branches');
    expect(groupNames()).toEqual(['-home-dev-old', 'arbor', 'docs']);
  });

  it('says size is in nodes when the store has no byte counts', async () => {
    await setup([session('a', { nodeCount: 3 }), session('b', { nodeCount: 30 })]);
    const select = screen.getByTestId('session-sort') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toContain('Size (nodes)');
    await act(async () => void fireEvent.change(select, { target: { value: 'size' } }));
    expect(rowIds()).toEqual(['b', 'a']);
  });

  it('folds a project by clicking its header, and keeps it folded in a new window', async () => {
    const storage = memoryStorage();
    await setup(sessions, storage);
    await act(async () => void fireEvent.click(header('arbor')));
    expect(rowIds()).toEqual(['s2', 's4']);
    expect(header('arbor').getAttribute('data-collapsed')).toBe('true');
    cleanup();
    await setup(sessions, storage);
    expect(rowIds()).toEqual(['s2', 's4']);
    await act(async () => void fireEvent.click(header('arbor')));
    expect(rowIds()).toEqual(['s1', 's3', 's2', 's4']);
  });

  it('keyboard: ↓/↑ move across projects and skip folded ones, ← folds, → unfolds, Enter opens', async () => {
    const { store } = await setup();
    await act(async () => void fireEvent.click(header('docs')));
    list().focus();
    await press('Home');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s1');
    await press('ArrowDown');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s3');
    // The folded project is one stop (its header), its sessions are skipped.
    await press('ArrowDown');
    expect(cursorRow()?.getAttribute('data-project')).toBe(DOCS);
    expect(list().getAttribute('aria-activedescendant')).toBe(screen.getByRole('group', { name: 'docs' }).id);
    await press('ArrowDown');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s4');
    await press('ArrowUp');
    await press('ArrowRight');
    expect(rowIds()).toEqual(['s1', 's3', 's2', 's4']);
    await press('ArrowDown');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s2');
    expect(list().getAttribute('aria-activedescendant')).toBe(cursorRow()?.id);
    await press('Enter');
    expect(store.getState().selectedSessionId).toBe('s2');
    expect(cursorRow()?.getAttribute('aria-selected')).toBe('true');
    // ← on a session folds its project and leaves the cursor on the header.
    await press('ArrowLeft');
    expect(rowIds()).toEqual(['s1', 's3', 's4']);
    expect(cursorRow()?.getAttribute('data-project')).toBe(DOCS);
    await press('ArrowUp');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s3');
    await press('End');
    expect(cursorRow()?.getAttribute('data-session-id')).toBe('s4');
  });

  it('filters across projects, by project name too, and unfolds folded projects that have matches', async () => {
    const { prefs } = await setup();
    await act(async () => void fireEvent.click(header('arbor')));
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'importer' } });
    expect(rowIds()).toEqual(['s1', 's3']);
    expect(groupNames()).toEqual(['arbor']);
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'docs' } });
    expect(rowIds()).toEqual(['s2']);
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'dev-old' } });
    expect(rowIds()).toEqual(['s4']);
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: 'zzz' } });
    expect(screen.queryAllByTestId('session-row')).toHaveLength(0);
    expect(screen.getByTestId('session-list').textContent).toContain('No session matches');
    // The fold the user made comes back once the filter is cleared.
    fireEvent.change(screen.getByTestId('session-filter'), { target: { value: '' } });
    expect(rowIds()).toEqual(['s2', 's4']);
    expect(prefs.getState().collapsed.has(ARBOR)).toBe(true);
  });

  it('opens sessions by click', async () => {
    const { store } = await setup();
    await act(async () => fireEvent.click(screen.getAllByTestId('session-row')[1]!));
    expect(store.getState().selectedSessionId).toBe('s3');
  });

  it('stays virtual: thousands of sessions in many projects render only a window of rows', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      session(`m${i}`, { projectKey: `/work/p${i % 40}`, lastActivityAt: new Date(Date.UTC(2025, 0, 1) - i * 60_000).toISOString() }),
    );
    await setup(many);
    const rendered = screen.getAllByTestId('session-row').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
    expect(screen.getAllByRole('group').length).toBeLessThan(40);
  });

  it('says where sessions will appear when there are none, instead of a blank pane', async () => {
    await setup([]);
    expect(screen.getByTestId('session-list').textContent).toContain('Imported sessions will be listed here.');
    expect(screen.queryAllByTestId('session-row')).toHaveLength(0);
  });
});
