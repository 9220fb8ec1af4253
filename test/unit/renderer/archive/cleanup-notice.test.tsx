/** The archive's notice and marks in the renderer (issue 15): the cleanup notice said until dismissed, "source deleted" in the header. */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { CleanupNoticeBanner } from '../../../../renderer/src/archive/CleanupNoticeBanner';
import { SourceDeletedNote } from '../../../../renderer/src/session/SourceDeletedNote';
import { createFakeClient, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const NOTICE = { kind: 'cleanup-default', days: 30, settingsFile: '/home/u/.claude/settings.json', setting: 'cleanupPeriodDays', exampleDays: 365 } as const;

it('says what the default means and how to change it, and dismissing it tells the store', async () => {
  const client = createFakeClient({ 'archive.notice': () => ({ notice: NOTICE }), 'archive.dismissNotice': () => ({ notice: null }) });
  await act(async () => void renderWithStore(<CleanupNoticeBanner />, client));
  const region = screen.getByRole('region', { name: 'Claude Code transcript cleanup' });
  expect(region.textContent).toContain('Claude Code deletes transcripts older than 30 days; Arbor keeps what it imported.');
  expect(region.textContent).toContain('/home/u/.claude/settings.json');
  expect(region.textContent).toContain('{ "cleanupPeriodDays": 365 }');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Dismiss' })));
  expect(screen.queryByTestId('cleanup-notice')).toBeNull();
  expect(client.calls.map((call) => call.method)).toEqual(['archive.notice', 'archive.dismissNotice']);
});

it('shows nothing when the service has no notice', async () => {
  await act(async () => void renderWithStore(<CleanupNoticeBanner />, createFakeClient({ 'archive.notice': () => ({ notice: null }) })));
  expect(screen.queryByTestId('cleanup-notice')).toBeNull();
});

it('notes "source deleted" in the header only for a session the list marked', async () => {
  const { store } = renderWithStore(
    <>
      <SourceDeletedNote sessionId="gone" />
      <SourceDeletedNote sessionId="here" />
    </>,
  );
  expect(screen.queryByTestId('source-deleted-note')).toBeNull();
  act(() => store.setState({ sessions: [session('gone', { sourceDeleted: true }), session('here')] }));
  expect(screen.getAllByTestId('source-deleted-note')).toHaveLength(1);
  expect(screen.getByTestId('source-deleted-note').getAttribute('title')).toMatch(/store keeps everything it imported/);
});
