/**
 * From a prepared merge and the user's decisions to the files the target will hold: each path's resolution
 * (explicit content, or one version taken whole), else the automatic result; conflicts nobody settled stop
 * the merge before anything is written, unless one side was chosen for all of them.
 */
import type { SnapshotStore } from '../git/object-store';
import { sameVersion, storeBlobs, type FileVersion } from '../git/workspace-files';
import type { PlannedFileChange } from '../operations/operation-types';
import { ArborError } from '../../shared/errors';
import { encodeText, settleWithSide, type MergedContent, type TreeFile, type TreeMergeFile } from '../../shared/merge';
import type { MergedFile, MergeFileResolutionKind, MergeResolution, MergeSideName } from '../../shared/operations';
import { textEncodingOf } from './file-sides';
import type { PreparedMerge } from './merge-preview';

export type MergeTargets = { readonly status: 'ready'; readonly files: ReadonlyMap<string, MergedContent> } | { readonly status: 'conflicts'; readonly files: readonly string[] };

export function mergeTargets(prepared: PreparedMerge, resolutions: readonly MergeResolution[], conflictSide: MergeSideName | undefined): MergeTargets {
  const byPath = new Map(prepared.merge.files.map((file) => [file.entry.path, file]));
  const decided = new Map<string, MergeResolution>();
  for (const resolution of resolutions) {
    if (!byPath.has(resolution.path)) throw new ArborError('BAD_REQUEST', `${resolution.path} is not part of this merge`, { path: resolution.path });
    decided.set(resolution.path, resolution);
  }
  const files = new Map<string, MergedContent>();
  const unresolved: string[] = [];
  for (const file of prepared.merge.files) {
    const resolution = decided.get(file.entry.path);
    if (resolution !== undefined) files.set(file.entry.path, resolved(prepared, file, resolution));
    else if (file.entry.status !== 'conflicted') files.set(file.entry.path, file.result);
    else if (conflictSide !== undefined) files.set(file.entry.path, settleWithSide(file, conflictSide));
    else unresolved.push(file.entry.path);
  }
  return unresolved.length > 0 ? { status: 'conflicts', files: unresolved } : { status: 'ready', files };
}

function resolved(prepared: PreparedMerge, file: TreeMergeFile, resolution: MergeResolution): MergedContent {
  if (resolution.content !== undefined) {
    if (resolution.content === null) return { kind: 'deleted' };
    // Edited text keeps the merged mode (or a side's when the modes conflicted).
    const mode = file.mergedMode ?? file.ours?.mode ?? file.theirs?.mode ?? '100644';
    // Back to bytes the way merge.file turned them into text; text latin1 cannot hold is written as UTF-8.
    const encoding = textEncodingOf(prepared, file);
    const fits = encoding === 'utf8' || !/[^\u0000-\u00ff]/u.test(resolution.content);
    return { kind: 'text', bytes: encodeText(resolution.content, fits ? encoding : 'utf8'), mode };
  }
  if (resolution.take !== undefined) {
    const version: TreeFile | null = file[resolution.take];
    return version === null ? { kind: 'deleted' } : { kind: 'file', file: version };
  }
  throw new ArborError('BAD_REQUEST', `The resolution of ${resolution.path} says neither content nor take`, { path: resolution.path });
}

/**
 * The plan's changes: every path whose result differs from what the target held at preview time. New
 * contents (merged or edited text, texts rebuilt from transcripts) are stored first, as the engine requires.
 */
export async function plannedChanges(prepared: PreparedMerge, objects: SnapshotStore, files: ReadonlyMap<string, MergedContent>): Promise<PlannedFileChange[]> {
  const pending: { path: string; bytes: Uint8Array; mode: FileVersion['mode'] }[] = [];
  const targets = new Map<string, FileVersion | null>();
  for (const [path, content] of files) {
    if (content.kind === 'deleted') targets.set(path, null);
    else if (content.kind === 'text') pending.push({ path, bytes: content.bytes, mode: content.mode });
    else {
      const inMemory = prepared.blobs.memory.get(content.file.oid);
      if (inMemory !== undefined) pending.push({ path, bytes: inMemory, mode: content.file.mode });
      else targets.set(path, content.file);
    }
  }
  const oids = await storeBlobs(objects, pending.map((file) => file.bytes));
  pending.forEach((file, i) => targets.set(file.path, { oid: oids[i]!, mode: file.mode }));
  const changes: PlannedFileChange[] = [];
  for (const [path, target] of [...targets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const expected = prepared.expected.get(path) ?? null;
    if (!sameVersion(expected, target)) changes.push({ path, expected, target });
  }
  return changes;
}

/** How each file of the merge was settled (what "Continue from the merge" tells the agent), in the preview's order. */
export function mergedFiles(prepared: PreparedMerge, resolutions: readonly MergeResolution[], conflictSide: MergeSideName | undefined): MergedFile[] {
  const decided = new Map(resolutions.map((resolution) => [resolution.path, resolution]));
  return prepared.merge.files.map(({ entry }) => {
    const resolution = decided.get(entry.path);
    const conflicted = entry.status === 'conflicted';
    const how: MergeFileResolutionKind =
      resolution?.content !== undefined ? 'manual'
      : resolution?.take !== undefined ? resolution.take
      : conflicted && conflictSide !== undefined ? conflictSide
      : 'automatic';
    return {
      path: entry.path,
      status: entry.status,
      changedBy: entry.changedBy,
      ...(conflicted ? { conflict: entry.conflict ?? 'content' } : {}),
      resolution: how,
    };
  });
}
