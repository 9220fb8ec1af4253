/** The session header's folder: the one in force at the selected node (a Codex turn_context can move it), else the session's own. */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { SessionFolder } from '../../../../renderer/src/session/SessionFolder';
import { createFakeClient } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

it('shows the folder in force at the node, and says where the session started when it moved', async () => {
  const client = createFakeClient({ 'nodes.folder': ({ nodeId }) => ({ folder: nodeId === 'late' ? '/work/second' : '/work/first' }) });
  renderWithStore(<SessionFolder project="/work/first" nodeId="early" />, client);
  await waitFor(() => expect(client.calls.some((call) => call.method === 'nodes.folder')).toBe(true));
  expect(screen.getByTestId('session-folder').textContent).toBe('/work/first');
  expect(screen.getByTestId('session-folder').getAttribute('title')).toBe('/work/first');

  cleanup();
  renderWithStore(<SessionFolder project="/work/first" nodeId="late" />, client);
  await waitFor(() => expect(screen.getByTestId('session-folder').textContent).toBe('/work/second'));
  expect(screen.getByTestId('session-folder').getAttribute('title')).toBe('/work/second (the session started in /work/first)');
});

it('shows the session\'s own folder when the answer cannot be had', async () => {
  const client = createFakeClient({});
  renderWithStore(<SessionFolder project="/work/first" nodeId="n1" />, client);
  expect(screen.getByTestId('session-folder').textContent).toBe('/work/first');
});
