/** The sessions list marks one line of work across session ids (issue 13): "continues <title>", a fork, a missing link. */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { SessionList } from '../../../../renderer/src/sessions/SessionList';
import { createSessionListPrefs } from '../../../../renderer/src/sessions/session-list-prefs';
import { createFakeClient, graphFor, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const noStorage: Storage = { length: 0, clear: () => {}, getItem: () => null, key: () => null, removeItem: () => {}, setItem: () => {} };
const P = '/home/dev/work/arbor';
const sessions = [
  session('b', { title: 'Keep going', projectKey: P, lastActivityAt: '2026-03-03T00:00:00Z', links: [
    { kind: 'continues', direction: 'earlier', sessionId: 'a', title: 'Start the parser', nodeId: null },
    { kind: 'continues', direction: 'later', sessionId: 'c', title: null, nodeId: null },
  ] }),
  session('a', { title: 'Start the parser', projectKey: P, lastActivityAt: '2026-03-02T00:00:00Z', links: [{ kind: 'continues', direction: 'later', sessionId: 'b', title: 'Keep going', nodeId: null }] }),
  session('f', { title: 'Try another way', projectKey: '/home/dev/work/other', lastActivityAt: '2026-03-01T00:00:00Z', links: [{ kind: 'fork', direction: 'earlier', sessionId: 'a', title: 'Start the parser', nodeId: 'n1' }] }),
  session('plain', { title: 'Unrelated', projectKey: P, lastActivityAt: '2026-02-01T00:00:00Z' }),
];

it('continued-in: the later session says "continues <title>", the earlier "continued in <title>", a fork "forked from <title>"', async () => {
  const client = createFakeClient({
    'sessions.list': () => ({ sessions: [...sessions], total: sessions.length }),
    'sessions.graph': ({ sessionId }) => graphFor(sessionId),
  });
  const view = renderWithStore(<SessionList prefs={createSessionListPrefs(noStorage)} />, client);
  await act(() => view.store.getState().loadSessions());
  const mark = (id: string) => {
    const row = screen.getAllByTestId('session-row').find((r) => r.getAttribute('data-session-id') === id)!;
    return within(row).queryByTestId('lineage-mark');
  };
  // Listed under the session it continues, a row says so in its tooltip (the title keeps the room), every
  // link listed, a continuation not imported named by its id.
  const row = (id: string) => screen.getAllByTestId('session-row').find((r) => r.getAttribute('data-session-id') === id)!;
  expect(mark('b')).toBeNull();
  expect(row('b').getAttribute('data-depth')).toBe('1');
  expect(row('b').getAttribute('title')).toBe('continues Start the parser\ncontinued in c (not imported)');
  // What goes on from a session is summed up on its row (and the sessions are listed under it).
  expect(mark('a')).toBeNull();
  const summary = (id: string) => within(screen.getAllByTestId('session-row').find((r) => r.getAttribute('data-session-id') === id)!).queryByTestId('lineage-summary');
  expect(summary('a')?.textContent).toBe('▾ continued in 1');
  // In another project than its origin, a fork is listed on its own and marked.
  expect(mark('f')?.textContent).toBe('forked from Start the parser');
  expect(mark('f')?.getAttribute('title')).toBe('forked from Start the parser');
  expect(mark('plain')).toBeNull();
});

it('the sessions list groups linked sessions: a fork, a continuation or a follower under its origin, indented and foldable', async () => {
  const origin = session('o', { title: 'Origin', projectKey: P, lastActivityAt: '2026-03-01T00:00:00Z', links: [
    { kind: 'fork', direction: 'later', sessionId: 'f1', title: 'Fork one', nodeId: 'n1' },
    { kind: 'fork', direction: 'later', sessionId: 'f2', title: 'Fork two', nodeId: 'n2' },
    { kind: 'continues', direction: 'later', sessionId: 'c1', title: 'Continued', nodeId: null },
  ] });
  const listed = [
    session('newest', { title: 'Newest, unrelated', projectKey: P, lastActivityAt: '2026-03-09T00:00:00Z' }),
    session('f1', { title: 'Fork one', projectKey: P, lastActivityAt: '2026-03-05T00:00:00Z', links: [{ kind: 'fork', direction: 'earlier', sessionId: 'o', title: 'Origin', nodeId: 'n1' }] }),
    session('c1', { title: 'Continued', projectKey: P, lastActivityAt: '2026-03-04T00:00:00Z', links: [
      { kind: 'continues', direction: 'earlier', sessionId: 'o', title: 'Origin', nodeId: null },
      { kind: 'follows', direction: 'later', sessionId: 'x1', title: 'Follower', nodeId: null },
    ] }),
    session('x1', { title: 'Follower', projectKey: P, lastActivityAt: '2026-03-06T00:00:00Z', links: [{ kind: 'follows', direction: 'earlier', sessionId: 'c1', title: 'Continued', nodeId: null }] }),
    session('f2', { title: 'Fork two', projectKey: P, lastActivityAt: '2026-03-03T00:00:00Z', links: [{ kind: 'fork', direction: 'earlier', sessionId: 'o', title: 'Origin', nodeId: 'n2' }] }),
    origin,
  ];
  const client = createFakeClient({ 'sessions.list': () => ({ sessions: [...listed], total: listed.length }) });
  const view = renderWithStore(<SessionList prefs={createSessionListPrefs(noStorage)} />, client);
  await act(() => view.store.getState().loadSessions());
  const rows = () => screen.getAllByTestId('session-row').map((row) => [row.getAttribute('data-session-id'), Number(row.getAttribute('data-depth') ?? 0)]);
  // Newest first at the top; each linked session under its origin, newest first among them.
  expect(rows()).toEqual([['newest', 0], ['o', 0], ['f1', 1], ['c1', 1], ['x1', 2], ['f2', 1]]);
  const originRow = screen.getAllByTestId('session-row').find((row) => row.getAttribute('data-session-id') === 'o')!;
  const toggle = within(originRow).getByTestId('lineage-summary');
  expect(toggle.textContent).toBe('▾ 2 forks, continued in 1');
  await act(async () => fireEvent.click(toggle));
  expect(rows()).toEqual([['newest', 0], ['o', 0]]);
  expect(within(screen.getAllByTestId('session-row').find((row) => row.getAttribute('data-session-id') === 'o')!).getByTestId('lineage-summary').getAttribute('aria-expanded')).toBe('false');
  // Folding did not open the session.
  expect(view.store.getState().selectedSessionId).toBeNull();
  await act(async () => fireEvent.click(within(screen.getAllByTestId('session-row').find((row) => row.getAttribute('data-session-id') === 'o')!).getByTestId('lineage-summary')));
  expect(rows()).toHaveLength(6);
});
