/**
 * Pure rules of the merge view over the service's preview: how each file is shown, how many conflicts
 * are left, whether Apply may run, and which resolutions it sends.
 */
import { assertNever } from '../../../shared/errors';
import type { MergeFileEntry, MergeFileSides, MergePreview, MergeResolution, MergeSideName } from '../../../shared/operations';
import { openConflictCount, settleRemaining } from './merge-document';
import type { EditorState } from '@codemirror/state';

/** A whole-file decision for conflicts no text merge can settle (binary, modify/delete, mode, symlink). */
export type FileChoice = 'ours' | 'theirs' | 'delete';

/** `text`: three panes and an editable result. `choice`: pick a side. `notice`: nothing to merge by hand. */
export type FileViewKind = 'text' | 'choice' | 'notice';

export function fileViewKind(entry: MergeFileEntry, sides: MergeFileSides): FileViewKind {
  if (entry.status === 'conflicted') {
    switch (entry.conflict) {
      case 'binary':
      case 'modify/delete':
      case 'mode':
      case 'symlink':
        return 'choice';
      case 'content':
      case 'add/add':
      case undefined:
        return sides.binary ? 'choice' : 'text';
      default:
        return assertNever(entry.conflict);
    }
  }
  if (sides.binary || entry.status === 'deleted') return 'notice';
  return 'text';
}

/** The order the file list shows: conflicts first, then by path. */
export function orderFiles(files: readonly MergeFileEntry[]): MergeFileEntry[] {
  return [...files].sort((a, b) => Number(b.status === 'conflicted') - Number(a.status === 'conflicted') || a.path.localeCompare(b.path));
}

/** What the user has done with one file so far (the documents themselves live outside React state). */
export interface FileProgress {
  readonly load: 'loading' | 'ready' | 'error';
  readonly view: FileViewKind | null;
  /** Conflicts still open in the result (text files). */
  readonly openConflicts: number;
  /** The user edited the result or took a hunk: its content is sent on apply. */
  readonly changed: boolean;
  readonly choice: FileChoice | null;
}

/** Conflicts a file still has: from the user's work when it is open, else from the preview. */
export function fileConflictsLeft(entry: MergeFileEntry, progress: FileProgress | undefined): number {
  if (entry.status !== 'conflicted') return 0;
  if (progress !== undefined && progress.load === 'ready') {
    if (progress.view === 'choice') return progress.choice === null ? 1 : 0;
    if (progress.view === 'text') return progress.openConflicts;
  }
  return entry.conflict === 'content' || entry.conflict === 'add/add' ? Math.max(1, entry.conflicts) : 1;
}

export function conflictsLeft(preview: MergePreview, files: Readonly<Record<string, FileProgress>>): number {
  let left = 0;
  for (const entry of preview.files) left += fileConflictsLeft(entry, files[entry.path]);
  return left;
}

/** A conflicted file the user has fully settled (the ✓ in the list). */
export function fileSettled(entry: MergeFileEntry, progress: FileProgress | undefined): boolean {
  return entry.status === 'conflicted' && progress?.load === 'ready' && fileConflictsLeft(entry, progress) === 0;
}

/**
 * The resolutions Apply sends: every file the user changed. Conflicts still open in a changed file
 * take `conflictSide` here, so the file is sent whole; untouched files are left to the service.
 */
export function buildResolutions(
  preview: MergePreview,
  files: Readonly<Record<string, FileProgress>>,
  documentOf: (path: string) => EditorState | undefined,
  conflictSide: MergeSideName | null,
): MergeResolution[] {
  const resolutions: MergeResolution[] = [];
  for (const entry of preview.files) {
    const progress = files[entry.path];
    if (progress === undefined || progress.load !== 'ready') continue;
    if (progress.view === 'choice') {
      if (progress.choice === 'delete') resolutions.push({ path: entry.path, content: null });
      else if (progress.choice !== null) resolutions.push({ path: entry.path, take: progress.choice });
      continue;
    }
    if (progress.view !== 'text' || !progress.changed) continue;
    let state = documentOf(entry.path);
    if (state === undefined) continue;
    if (conflictSide !== null && openConflictCount(state) > 0) state = settleRemaining(state, conflictSide);
    resolutions.push({ path: entry.path, content: state.doc.toString() });
  }
  return resolutions;
}

export const FILE_STATUS_LABELS: Readonly<Record<MergeFileEntry['status'], string>> = {
  clean: 'merged',
  conflicted: 'conflict',
  added: 'added',
  deleted: 'deleted',
};
