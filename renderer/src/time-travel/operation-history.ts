/** How the History list words the operation journal: kinds, statuses, and which undo reversed what. */
import { assertNever } from '../../../shared/errors';
import type { OperationKind, OperationStatus, OperationSummary } from '../../../shared/operations';

export const OPERATION_KIND_LABELS: Readonly<Record<OperationKind, string>> = {
  rewind: 'Rewind',
  merge: 'Merge',
  undo: 'Undo',
};

export const OPERATION_STATUS_LABELS: Readonly<Record<OperationStatus, string>> = {
  // Only seen after a crash, until recovery puts the old state back.
  applying: 'interrupted',
  applied: 'applied',
  'rolled-back': 'rolled back',
  undone: 'undone',
};

export const OPERATION_STATUS_HINTS: Readonly<Record<OperationStatus, string>> = {
  applying: 'Arbor stopped while this operation was writing; recovery puts the old state back on the next start',
  applied: 'Its files are in the workspace; Undo puts back what it replaced',
  'rolled-back': 'A crash interrupted it and recovery put the old state back',
  undone: 'A later undo put back what it replaced',
};

/** Each undone operation's undo (the newest one when the list holds several). Lists come newest first. */
export function undoneBy(operations: readonly OperationSummary[]): ReadonlyMap<string, OperationSummary> {
  const byTarget = new Map<string, OperationSummary>();
  for (const operation of operations) {
    if (operation.undoes !== null && !byTarget.has(operation.undoes)) byTarget.set(operation.undoes, operation);
  }
  return byTarget;
}

/** What Undo on this row does, in words for its tooltip. */
export function undoHint(operation: OperationSummary): string {
  switch (operation.kind) {
    case 'rewind':
      return 'Put back every file this rewind replaced, byte for byte';
    case 'merge':
      return 'Take the merge result back out of the target folder, byte for byte (the merge node stays, marked undone)';
    case 'undo':
      return 'Undo this undo: write again what the undone operation had written';
    default:
      return assertNever(operation.kind);
  }
}
