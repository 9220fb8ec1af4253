/** The Files tab's unknown mark says why a Codex ghost snapshot above could not tell a file's content. */
import { expect, it } from 'vitest';
import { unknownSentence } from '../../../../renderer/src/files/UnknownFileMark';

const commit = '1234567890abcdef1234567890abcdef12345678';

it('names the ghost snapshot and why it could not be read, after the reason the content is unknown', () => {
  expect(unknownSentence({ since: null, reason: 'no-pre-state', ghost: { commit, why: 'no-repository', folder: '/w/app' } }, null)).toBe(
    'Content not known here: no step on the path tells its content. The ghost snapshot 1234567 could not be read: /w/app is no git repository.',
  );
  expect(unknownSentence({ since: null, reason: 'no-pre-state', ghost: { commit, why: 'no-commit', folder: '/w/app' } }, null)).toContain(
    'the repository at /w/app does not have that commit',
  );
  expect(unknownSentence({ since: 'n1', reason: 'shell', ghost: { commit, why: 'unreadable', folder: '/w/app', detail: 'incorrect header check' } }, 'Bash: make')).toBe(
    'Content not known here since “Bash: make”: a shell command may have changed it. The ghost snapshot 1234567 could not be read: reading it failed (incorrect header check).',
  );
  expect(unknownSentence({ since: null, reason: 'no-pre-state' }, null)).toBe('Content not known here: no step on the path tells its content.');
});
