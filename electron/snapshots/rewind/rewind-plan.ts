/**
 * A rewind plan: for every path the node's state covers and the workspace does not already match, what the
 * workspace holds now (`expected`) and what it will hold (`target`); and every path in scope that the rewind
 * leaves alone, with the reason. The plan is what the preview shows and exactly what the engine writes.
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ArborError, throwIfAborted } from '../../../shared/errors';
import type { SkippedPath, SkippedPathReason, UnverifiedPath, WorkspaceChanges } from '../../../shared/operations';
import type { GitEnvironment } from '../../git/ignore-files';
import { checkWorkspacePath } from '../../git/materialize';
import { readWorkspaceFileSync, sameVersion, type FileVersion } from '../../git/workspace-files';
import type { PlannedFileChange } from '../../operations/operation-types';
import { checkPathNames, createIgnoreCheck } from '../../operations/path-checks';

export interface RewindPlan extends WorkspaceChanges {
  /** The workspace root (absolute). */
  readonly workspace: string;
  /** Sorted by path. */
  readonly changes: readonly PlannedFileChange[];
  readonly skipped: readonly SkippedPath[];
  /** Changes whose target is a replayed content not known to be right (reconstructed rewinds only). */
  readonly unverified: readonly UnverifiedPath[];
}

/** A path in the node's scope and the version the node has there (null: absent at the node). */
export interface TargetFile {
  /** Workspace-relative, '/'-separated. */
  readonly path: string;
  readonly target: FileVersion | null;
}

export interface PlanOptions {
  readonly signal?: AbortSignal;
  /** Files of the workspace looked at so far (an exact rewind captures the whole workspace first). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Where git finds the user's global excludes file: files it ignores are skipped as ignored. */
  readonly git?: GitEnvironment;
}

/**
 * Turns the node's versions of the paths in scope into a plan: refuses unsafe and ignored paths (listed as
 * skipped), reads what each path holds now, and drops paths that already hold their target.
 */
export async function planChanges(
  workspace: string,
  targets: readonly TargetFile[],
  skippedBefore: readonly SkippedPath[],
  options: PlanOptions = {},
): Promise<RewindPlan> {
  const ignored = createIgnoreCheck(workspace, options.git);
  const deleted = new Set(targets.filter((file) => file.target === null).map((file) => file.path));
  const safeFolders = new Set<string>();
  const skipped: SkippedPath[] = [...skippedBefore];
  const changes: PlannedFileChange[] = [];
  let count = 0;
  for (const { path, target } of targets) {
    if (++count % 64 === 0) throwIfAborted(options.signal);
    const refusal = refusalOf(workspace, path, ignored, deleted, safeFolders);
    if (refusal !== null) {
      skipped.push({ path, reason: refusal });
      continue;
    }
    const expected = await currentVersion(workspace, path);
    if (expected === 'unreadable') {
      skipped.push({ path, reason: 'unsafe-path' });
      continue;
    }
    if (sameVersion(expected, target)) continue;
    changes.push({ path, expected, target });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { workspace, changes, skipped, unverified: [], ...changesOf(changes) };
}

function refusalOf(
  workspace: string,
  path: string,
  ignored: (path: string) => boolean,
  deleted: ReadonlySet<string>,
  safeFolders: Set<string>,
): SkippedPathReason | null {
  try {
    checkWorkspacePath(workspace, path, safeFolders);
  } catch (error) {
    if (!(error instanceof ArborError)) throw error;
    // A symlink (or file) stands where the node has a folder: the plan deletes it before writing below it,
    // which the engine allows (checkPlanPaths); anything else on the way is unsafe.
    const parts = path.split('/');
    const replaced = parts
      .slice(0, -1)
      .map((_, i) => parts.slice(0, i + 1).join('/'))
      .find((folder) => deleted.has(folder));
    if (replaced === undefined) return 'unsafe-path';
    try {
      checkWorkspacePath(workspace, replaced);
      checkPathNames(path);
    } catch (inner) {
      if (inner instanceof ArborError) return 'unsafe-path';
      throw inner;
    }
  }
  return ignored(path) ? 'ignored' : null;
}

/**
 * What the path holds now. A folder where the node has a file counts as nothing there: the engine accepts
 * it when the plan removes everything inside (the exact diff lists those files as deleted).
 */
async function currentVersion(workspace: string, path: string): Promise<FileVersion | null | 'unreadable'> {
  try {
    // Synchronous: awaiting the thread pool per file cost more than the reads themselves.
    const file = readWorkspaceFileSync(workspace, path);
    return file === null ? null : { oid: file.oid, mode: file.mode };
  } catch (error) {
    const info = await lstat(join(workspace, path)).catch(() => null);
    if (info?.isDirectory()) return null;
    if (error instanceof ArborError) return 'unreadable';
    throw error;
  }
}

export function changesOf(changes: readonly PlannedFileChange[]): WorkspaceChanges {
  const written: string[] = [];
  const created: string[] = [];
  const deleted: string[] = [];
  for (const change of changes) (change.target === null ? deleted : change.expected === null ? created : written).push(change.path);
  return { written, created, deleted };
}

/** The plan's fingerprint: the workspace, the node, and every change's path, expected and target versions. */
export function planToken(nodeId: string, plan: Pick<RewindPlan, 'workspace' | 'changes'>): string {
  const hash = createHash('sha256');
  const version = (v: FileVersion | null): string => (v === null ? '-' : `${v.mode}:${v.oid}`);
  hash.update(`${plan.workspace}\0${nodeId}\0`);
  for (const change of plan.changes) hash.update(`${change.path}\0${version(change.expected)}\0${version(change.target)}\n`);
  return hash.digest('hex').slice(0, 32);
}

/**
 * The paths where two plans of the same rewind differ: what a preview saw there is no longer what the
 * workspace holds (or the change is no longer needed).
 */
export function differingPaths(before: readonly PlannedFileChange[], after: readonly PlannedFileChange[]): string[] {
  const key = (change: PlannedFileChange): string =>
    `${change.expected?.mode ?? '-'}:${change.expected?.oid ?? '-'}>${change.target?.mode ?? '-'}:${change.target?.oid ?? '-'}`;
  const old = new Map(before.map((change) => [change.path, key(change)]));
  const now = new Map(after.map((change) => [change.path, key(change)]));
  const paths = new Set<string>();
  for (const [path, value] of old) if (now.get(path) !== value) paths.add(path);
  for (const [path, value] of now) if (old.get(path) !== value) paths.add(path);
  return [...paths].sort();
}
