/**
 * The paths a rewind may touch and the node's version of each (DESIGN.md rule 2):
 * - an exact snapshot covers the whole tree: its files against the workspace's current non-ignored files
 *   (captured incrementally, then compared tree to tree so unchanged folders are skipped unread);
 * - a reconstruction covers only the files the session touched, mapped from the session's folder onto the
 *   chosen workspace; files whose content at the node is not known are skipped, never guessed. A replay in
 *   doubt is written only when nothing shows it stale: a file changed outside the transcript is skipped
 *   (`unknown-content`); one a shell command (or another unreplayable step) may have changed is written with
 *   its replay and listed as unverified, so the preview says so before anything is written (undo restores it).
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import type { FileUnknownReason, NodeId } from '../../../shared/model';
import type { SkippedPath, UnverifiedPath } from '../../../shared/operations';
import { captureDirectory, type CaptureProgress } from '../../git/capture';
import { hashObject, type FileMode } from '../../git/git-object';
import type { SnapshotStore } from '../../git/object-store';
import { StatCache } from '../../git/stat-cache';
import { diffSnapshots } from '../../git/tree-read';
import { readWorkspaceFile, storeBlobs } from '../../git/workspace-files';
import { UNKNOWN_CONTENT, type FileContent } from '../reconstruct';
import { planChanges, type PlanOptions, type RewindPlan, type TargetFile } from './rewind-plan';

/** Plans a rewind of `workspace` to an exact snapshot's tree. Captures the workspace (call inside the write queue). */
export async function planExactRewind(objects: SnapshotStore, treeOid: string, workspace: string, options: PlanOptions = {}): Promise<RewindPlan> {
  const statCache = await StatCache.forDirectory(objects, workspace);
  const { onProgress } = options;
  const current = await captureDirectory(objects, workspace, {
    statCache,
    ...(options.git ? { git: options.git } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(onProgress ? { onProgress: (progress: CaptureProgress) => onProgress(progress.filesDone, progress.filesTotal) } : {}),
  });
  const diff = diffSnapshots(objects, current.treeOid, treeOid, options.signal);
  const targets: TargetFile[] = [
    ...diff.added.map((file) => ({ path: file.path, target: { oid: file.oid, mode: file.mode } })),
    ...diff.modified.map(({ path, after }) => ({ path, target: { oid: after.oid, mode: after.mode } })),
    ...diff.deleted.map((file) => ({ path: file.path, target: null })),
  ];
  // Files too large to capture now are not compared: they stay as they are, and the preview says so.
  const skipped: SkippedPath[] = current.skipped.map((file) => ({ path: file.path, reason: file.reason === 'too-large' ? 'too-large' : 'unsafe-path' }));
  return planChanges(workspace, targets, skipped, options);
}

/** The node's state of the files a session touched (absolute paths), as the reconstruction knows it. */
export interface TouchedFiles {
  /** The folder the session ran in; touched paths are mapped relative to it. */
  readonly projectDir: string;
  /**
   * Folders the session's files were moved from into projectDir (Claude Code's `relocated`), latest first: a
   * touched path there maps to the same place in projectDir, unless projectDir's own copy was touched too.
   */
  readonly formerDirs?: readonly string[];
  readonly paths: readonly string[];
  /** Text, null (absent at the node) or UNKNOWN_CONTENT. */
  content(path: string): FileContent | { readonly binary: true; readonly oid: string };
  /** Why a file's known content is not known to be right here (undefined: it is right). */
  doubtOf?(path: string): { readonly since: NodeId | null; readonly reason: FileUnknownReason } | undefined;
}

/** A replay known to be stale is not written; any other doubt is written and shown (see the header). */
export const replayIsStale = (reason: FileUnknownReason): boolean => reason === 'changed-outside-transcript';

/**
 * Plans a rewind of `workspace` to a reconstructed state: only the touched files, never anything else. The
 * target contents are stored in the snapshot store first, so the engine can write them (call inside the
 * write queue).
 */
export async function planReconstructedRewind(objects: SnapshotStore, files: TouchedFiles, workspace: string, options: PlanOptions = {}): Promise<RewindPlan> {
  const skipped: SkippedPath[] = [];
  const targets: TargetFile[] = [];
  const contents = new Map<string, Buffer>();
  const doubted = new Map<string, UnverifiedPath>();
  const touched = new Set(files.paths);
  for (const absolute of files.paths) {
    const path = workspacePath(files.projectDir, files.formerDirs, absolute, touched);
    if (path === '' || path.startsWith('..') || isAbsolute(path)) {
      skipped.push({ path: absolute, reason: 'outside-workspace' });
      continue;
    }
    const relativePath = sep === '/' ? path : path.split(sep).join('/');
    const content = files.content(absolute);
    const doubt = files.doubtOf?.(absolute);
    if (content === UNKNOWN_CONTENT || (doubt !== undefined && replayIsStale(doubt.reason))) {
      skipped.push({ path: relativePath, reason: 'unknown-content' });
      continue;
    }
    if (doubt !== undefined) doubted.set(relativePath, { path: relativePath, since: doubt.since, reason: doubt.reason });
    if (content === null) {
      targets.push({ path: relativePath, target: null });
      continue;
    }
    const mode = await modeFor(workspace, relativePath);
    if (mode === 'symlink') {
      // The session edited the file the link points to; replacing the link with a file would be a guess.
      skipped.push({ path: relativePath, reason: 'unsafe-path' });
      continue;
    }
    if (typeof content === 'object') {
      targets.push({ path: relativePath, target: { oid: content.oid, mode } });
      continue;
    }
    const bytes = Buffer.from(content, 'utf8');
    const oid = hashObject('blob', bytes).toString('hex');
    contents.set(oid, bytes);
    targets.push({ path: relativePath, target: { oid, mode } });
  }
  const plan = await planChanges(workspace, targets, skipped, options);
  // Store only what will be written; identical contents are one blob.
  const toStore = [...new Set(plan.changes.flatMap((change) => (change.target === null ? [] : [change.target.oid])))].flatMap((oid) => {
    const bytes = contents.get(oid);
    return bytes === undefined ? [] : [bytes];
  });
  if (toStore.length > 0) await storeBlobs(objects, toStore);
  const unverified = plan.changes.flatMap((change) => {
    const doubt = doubted.get(change.path);
    return doubt === undefined ? [] : [doubt];
  });
  return { ...plan, unverified };
}

/**
 * Where a touched path lies in the workspace (OS separators; outside: starts with `..` or is absolute): relative
 * to projectDir, or to a folder the files were moved from (TouchedFiles.formerDirs).
 */
export function workspacePath(projectDir: string, formerDirs: readonly string[] | undefined, absolute: string, touched: ReadonlySet<string>): string {
  const path = relative(projectDir, absolute);
  if (!(path === '' || path.startsWith('..') || isAbsolute(path))) return path;
  for (const former of formerDirs ?? []) {
    const moved = relative(former, absolute);
    if (moved === '' || moved.startsWith('..') || isAbsolute(moved)) continue;
    // The file as it is in the folder now was touched after the move: that state is the newer one.
    return touched.has(join(projectDir, moved)) ? path : moved;
  }
  return path;
}

/** A transcript records text, not modes: the file keeps its executable bit. */
async function modeFor(workspace: string, path: string): Promise<FileMode | 'symlink'> {
  try {
    const file = await readWorkspaceFile(workspace, path);
    if (file?.mode === '120000') return 'symlink';
    return file?.mode === '100755' ? '100755' : '100644';
  } catch {
    return '100644';
  }
}
