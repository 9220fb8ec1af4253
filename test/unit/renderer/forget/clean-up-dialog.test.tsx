/**
 * The Clean up dialog (renderer/src/forget/CleanUpDialog.tsx) against a fake service: an orphan fork's folder and
 * transcript are shown as paths cut in the middle on one line (TruncatedPath), each whole in its text and tooltip.
 */
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GcReport } from '../../../../shared/forget';
import { CleanUpDialog } from '../../../../renderer/src/forget/CleanUpDialog';
import { createFakeClient, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const DIR = '/home/dev/.local/share/arbor/forks/parser-work-2026-12-02-f1';
const TRANSCRIPT = '/home/dev/.claude/projects/-home-dev-.local-share-arbor-forks-parser-work-2026-12-02-f1/2b7c0000-0000-4000-8000-0000000000b2.jsonl';

const report: GcReport = {
  dryRun: true,
  reclaimed: { bytes: 0, objects: 0, folders: 0 },
  orphans: [{ fork: 'f1', sessionId: 's1', dir: DIR, transcript: TRANSCRIPT }],
  orphansRemoved: [],
  expired: [],
  problems: [],
};

describe('CleanUpDialog', () => {
  it("shows an orphan fork's folder and transcript whole in text and tooltip, with the last segment apart from the folders that give way", async () => {
    const client = createFakeClient({ 'store.gc': () => report, 'forks.list': () => ({ forks: [] }) });
    const view = renderWithStore(<CleanUpDialog onClose={() => undefined} />, client);
    await act(async () => {
      view.store.setState({ sessions: [session('s1', { title: 'parser work' })] });
    });
    const transcript = await screen.findByTestId('clean-up-transcript');
    expect(transcript.getAttribute('title')).toBe(TRANSCRIPT);
    expect(transcript.querySelector('.truncated-path__whole')?.textContent).toBe(TRANSCRIPT);
    expect(transcript.querySelector('.truncated-path__tail')?.textContent).toBe('2b7c0000-0000-4000-8000-0000000000b2.jsonl');
    expect(transcript.querySelector('.truncated-path__head')?.textContent).toBe(TRANSCRIPT.slice(0, TRANSCRIPT.lastIndexOf('/') + 1));
    const dir = screen.getByTestId('clean-up-dir');
    expect(dir.getAttribute('title')).toBe(DIR);
    expect(dir.querySelector('.truncated-path__tail')?.textContent).toBe('parser-work-2026-12-02-f1');
    // The checkbox is named by the whole folder it removes (not the two halves drawn apart).
    expect(screen.getByRole('checkbox', { name: DIR })).toBeTruthy();
  });
});
