/** The session header says its links ("forked from …", "continued in …", "follows …") and each opens the other session at the linked step. */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { SessionLink } from '../../../../shared/model';
import { SessionLinks } from '../../../../renderer/src/session/SessionLinks';
import { createFakeClient, graphFor, nodeDetail } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const links: SessionLink[] = [
  { kind: 'continues', direction: 'later', sessionId: 'cont-0001', title: 'Keep going', nodeId: null },
  { kind: 'fork', direction: 'earlier', sessionId: 'parent-0001', title: 'Write the parser', nodeId: 'fork-point' },
  { kind: 'follows', direction: 'later', sessionId: 'gone-000001-x', title: null, nodeId: null },
];

it('the session header says forked from / continued in / followed by, earlier sessions first', () => {
  renderWithStore(<SessionLinks links={links} />);
  expect(screen.getAllByTestId('session-link').map((item) => item.textContent)).toEqual([
    'forked from Write the parser',
    'continued in Keep going',
    'followed by gone-000 (not imported)',
  ]);
  // A session not imported is named, not offered as a link.
  expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Write the parser', 'Keep going']);
});

it('a header link opens the other session at the linked step (a fork at its fork point)', async () => {
  const client = createFakeClient({
    'sessions.graph': ({ sessionId }) => graphFor(sessionId),
    'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
  });
  const view = renderWithStore(<SessionLinks links={links} />, client);
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Write the parser' })));
  expect(view.store.getState().selectedSessionId).toBe('parent-0001');
  expect(view.store.getState().selectedNodeId).toBe('fork-point');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Keep going' })));
  expect(view.store.getState().selectedSessionId).toBe('cont-0001');
  expect(client.calls.filter((call) => call.method === 'sessions.graph').map((call) => call.request)).toEqual([{ sessionId: 'parent-0001' }, { sessionId: 'cont-0001' }]);
});

it('a session without links shows nothing in the header', () => {
  renderWithStore(<SessionLinks links={undefined} />);
  expect(screen.queryByTestId('session-links')).toBeNull();
});
