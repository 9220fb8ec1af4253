/**
 * The Delete dialog (renderer/src/forget/DeleteSessionDialog.tsx) against a fake service: a session others go on
 * from is refused until "also delete" is ticked, the tick asks for the plan with its forks, the deletion sends
 * `withForks`, closes the open session and reloads the list; a failure stays in the dialog with its code.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDeletePlan } from '../../../../shared/forget';
import { ArborError } from '../../../../shared/errors';
import { DeleteSessionDialog } from '../../../../renderer/src/forget/DeleteSessionDialog';
import { createFakeClient, session, type Handlers } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

function plan(withForks: boolean): SessionDeletePlan {
  return {
    sessionIds: withForks ? ['s1', 's2'] : ['s1'],
    missing: [],
    dependants: withForks ? [] : [{ sessionId: 's2', kind: 'fork', of: 's1', title: 'the fork' }],
    nodes: withForks ? 12 : 8,
    records: 1,
    rawBytes: 2048,
    indexEntries: 8,
    snapshots: 1,
    operations: 0,
    files: [{ path: '/p/s1.jsonl', onDisk: true }],
    forks: [{ fork: 'f1', dir: '/forks/f1', dirCreated: true, transcript: '/p/f1.jsonl' }],
  };
}

async function open(handlers: Handlers) {
  const client = createFakeClient({ 'sessions.list': () => ({ sessions: [], total: 0 }), ...handlers });
  const view = renderWithStore(<DeleteSessionDialog sessionId="s1" onClose={() => undefined} />, client);
  await act(async () => {
    view.store.setState({ sessions: [session('s1', { title: 'parser work' })], selectedSessionId: 's1' });
  });
  return view;
}

const confirm = () => screen.getByTestId('delete-confirm') as HTMLButtonElement;

describe('DeleteSessionDialog', () => {
  it('refuses while a fork goes on from the session, deletes both once "also delete" is ticked', async () => {
    const { client, store } = await open({
      'sessions.delete': (request) =>
        request.dryRun === true
          ? { status: 'preview', plan: plan(request.withForks === true) }
          : { status: 'deleted', plan: plan(true), reclaimed: { bytes: 4096, objects: 3, folders: 1 }, tombstones: 1, problems: [] },
    });
    expect(screen.getByTestId('delete-refused').textContent).toContain('1 session goes on from this one');
    expect(screen.getByTestId('delete-dependants').textContent).toContain('the fork');
    expect(confirm().disabled).toBe(true);

    await act(async () => {
      fireEvent.click(screen.getByTestId('delete-with-forks'));
    });
    expect(screen.queryByTestId('delete-refused')).toBeNull();
    expect(screen.getByTestId('delete-nodes').textContent).toBe('12 nodes in 2 sessions');
    expect(confirm().disabled).toBe(false);
    expect(confirm().textContent).toBe('Delete 2 sessions');

    await act(async () => {
      fireEvent.click(confirm());
    });
    const sent = client.calls.filter((c) => c.method === 'sessions.delete').map((c) => c.request);
    expect(sent.at(-1)).toEqual({ sessionIds: ['s1'], withForks: true });
    expect(screen.getByTestId('delete-done').textContent).toContain('Deleted “parser work” and 1 session going on from it');
    expect(screen.getByTestId('delete-reclaimed').textContent).toContain('Reclaimed 4 KB · 3 snapshot objects · 1 fork folder.');
    expect(store.getState().selectedSessionId).toBeNull();
    expect(client.calls.map((c) => c.method)).toContain('sessions.list');
  });

  it('shows a failed deletion in the dialog, with its code, and keeps the Delete button', async () => {
    await open({
      'sessions.delete': (request) => {
        if (request.dryRun === true) return { status: 'preview', plan: { ...plan(false), dependants: [] } };
        throw new ArborError('INTERNAL', 'the disk is full');
      },
    });
    expect(confirm().disabled).toBe(false);
    await act(async () => {
      fireEvent.click(confirm());
    });
    expect(screen.getByTestId('time-travel-error').getAttribute('data-code')).toBe('INTERNAL');
    expect(screen.getByTestId('time-travel-error').textContent).toContain('the disk is full');
    expect(confirm().disabled).toBe(false);
  });
});
