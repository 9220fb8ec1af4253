/** The session header's "Continue:" line for a Codex thread (a fork Arbor wrote, or any rollout): `cd <folder> && codex resume <id>`, copyable. */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { SessionResume } from '../../../../renderer/src/session/SessionResume';
import { renderWithStore } from '../render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '019e0000-0000-7000-8000-00000000d002';

it('shows the command with the folder shortened, and copies it whole', async () => {
  const writeText = vi.fn(async () => undefined);
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  renderWithStore(<SessionResume session={{ id: ID, source: 'codex', project: '/home/u/forks/date fix' }} />);
  // The folder part gives way on a narrow header; the command with its id stays whole.
  expect(screen.getByText('cd …/forks/date fix &&')).toBeTruthy();
  expect(screen.getByText(`codex resume ${ID}`)).toBeTruthy();
  expect(screen.getByTestId('session-resume').getAttribute('title')).toBe(`cd '/home/u/forks/date fix' && codex resume ${ID}`);
  await act(async () => fireEvent.click(screen.getByTestId('copy-button')));
  expect(writeText).toHaveBeenCalledWith(`cd '/home/u/forks/date fix' && codex resume ${ID}`);
});

it('says nothing for a Claude Code session, or a rollout whose thread id is not a UUID', () => {
  renderWithStore(
    <>
      <SessionResume session={{ id: ID, source: 'claude-code', project: '/p' }} />
      <SessionResume session={{ id: 'spawn-test-uuid', source: 'codex', project: '/p' }} />
    </>,
  );
  expect(screen.queryByTestId('session-resume')).toBeNull();
});
