/** The sessions list marks one line of work across session ids (issue 13): "continues <title>", a fork, a missing link. */
import { afterEach, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
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
  session('f', { title: 'Try another way', projectKey: P, lastActivityAt: '2026-03-01T00:00:00Z', links: [{ kind: 'fork', direction: 'earlier', sessionId: 'a', title: 'Start the parser', nodeId: 'n1' }] }),
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
  expect(mark('b')?.textContent).toBe('continues Start the parser');
  // The tooltip lists every link, a continuation not imported named by its id.
  expect(mark('b')?.getAttribute('title')).toBe('continues Start the parser\ncontinued in c (not imported)');
  expect(mark('a')?.textContent).toBe('continued in Keep going');
  expect(mark('f')?.textContent).toBe('forked from Start the parser');
  expect(mark('plain')).toBeNull();
});
