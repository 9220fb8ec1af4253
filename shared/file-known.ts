/** How a file's content at a node is known, in words: the CLI (`arbor files`, `arbor cat`) and the Files tab say it alike. */
import { assertNever } from './errors';
import type { FileUnknownReason, GhostSnapshotMiss } from './model';

/** Why the content is not known, as the end of "not known: …". */
export function describeUnknownReason(reason: FileUnknownReason): string {
  switch (reason) {
    case 'shell':
      return 'a shell command may have changed it';
    case 'subagent':
      return 'a subagent may have changed it';
    case 'unrecorded-outcome':
      return 'a tool call whose outcome is not recorded may have changed it';
    case 'unreadable-result':
      return 'a tool result that cannot be read may have changed it';
    case 'other-tool':
      return 'a tool that does not record its writes may have changed it';
    case 'no-pre-state':
      return 'no step on the path tells its content';
    case 'edit-does-not-apply':
      return 'an edit of it could not be replayed';
    case 'changed-outside-transcript':
      return 'something outside the transcript changed it (a later edit read other contents)';
    default:
      return assertNever(reason, 'reason');
  }
}

/** Why a Codex ghost snapshot told nothing, as a sentence: "The ghost snapshot 1a2b3c4 could not be read: /w is no git repository." */
export function describeGhostMiss(miss: GhostSnapshotMiss): string {
  const commit = `The ghost snapshot ${miss.commit.slice(0, 7)} could not be read`;
  switch (miss.why) {
    case 'no-repository':
      return miss.folder === null ? `${commit}: its turn named no folder.` : `${commit}: ${miss.folder} is no git repository.`;
    case 'no-commit':
      return `${commit}: the repository at ${miss.folder ?? 'its folder'} does not have that commit (gc'd, or another clone).`;
    case 'unreadable':
      return `${commit}: reading it failed${miss.detail === undefined ? '' : ` (${miss.detail})`}.`;
    default:
      return assertNever(miss.why, 'ghost miss');
  }
}
