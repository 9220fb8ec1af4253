import { describeGhostMiss, describeUnknownReason } from '../../../shared/file-known';
import type { FileUnknownReason, GhostSnapshotMiss, NodeId } from '../../../shared/model';

/** Why a file's content at a node is not known: from which step (null: no step on the path told it), and why. */
export interface UnknownWhy {
  readonly since: NodeId | null;
  readonly reason: FileUnknownReason;
  readonly ghost?: GhostSnapshotMiss;
}

/**
 * "Content not known here since “Bash: npm run build”: a shell command may have changed it." and, when a
 * Codex ghost snapshot above could have told it, why its commit could not be read.
 */
export function unknownSentence(why: UnknownWhy, stepLabel: string | null | undefined): string {
  const since = why.since === null ? '' : ` since ${stepLabel ? `“${stepLabel}”` : 'an earlier step'}`;
  const ghost = why.ghost === undefined ? '' : ` ${describeGhostMiss(why.ghost)}`;
  return `Content not known here${since}: ${describeUnknownReason(why.reason)}.${ghost}`;
}

/**
 * The tree's mark for a file whose content is not known, shown before any click: a dashed "?" in the
 * colours of the graph's unknown-state marker, beside (not instead of) the A/M/D status mark.
 */
export function UnknownFileMark({ description }: { readonly description: string }) {
  return (
    <span className="file-unknown" role="img" aria-label={description} title={description} data-testid="file-unknown">
      ?
    </span>
  );
}
