/**
 * The fork's new folder, holding the fork point's files. An exact snapshot is written out whole. A
 * reconstructed state covers only the files the session touched, so the folder starts as a copy of the
 * source workspace's non-ignored files (captured into the snapshot store, then written out: the source is
 * only read) and the touched files are then set to their content at the node — or deleted where the node
 * had none. Files whose content at the node is unknown keep the copy's version and are reported; so does a
 * file whose replay is known to be stale (changed outside the transcript). A replay only in doubt (a shell
 * command since) is written and reported as unverified, as a rewind does (plan-sources.ts).
 */
import { lstat, mkdir, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { workspacePath } from '../snapshots/rewind';
import { captureDirectory } from '../git/capture';
import type { GitEnvironment } from '../git/ignore-files';
import { checkWorkspacePath, materializeSnapshot } from '../git/materialize';
import type { SnapshotStore } from '../git/object-store';
import { StatCache } from '../git/stat-cache';
import { UNKNOWN_CONTENT } from '../snapshots/reconstruct';
import { replayIsStale } from '../snapshots/rewind';
import { doubtOf, type NodeState } from '../service/workspace-state';
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { SkippedPath, UnverifiedPath } from '../../shared/operations';

export type ForkPhase = 'copy' | 'apply' | 'capture' | 'transcript';

export interface ForkWorkspaceOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (phase: ForkPhase, done: number, total: number) => void;
  /** Where git finds the user's global excludes file: the copy leaves out what it ignores, as git would. */
  readonly git?: GitEnvironment;
  /** Folders the session's files were moved from into the source (Claude Code's `relocated`), latest first. */
  readonly formerDirs?: readonly string[];
}

/** Refuses a target that exists and is not an empty folder; says whether Arbor will have to create it. */
export async function checkForkTarget(target: string): Promise<{ readonly exists: boolean }> {
  let entries: string[];
  try {
    const info = await stat(target);
    if (!info.isDirectory()) throw new ArborError('BAD_REQUEST', `${target} exists and is not a folder`, { path: target });
    entries = await readdir(target);
  } catch (error) {
    if (error instanceof ArborError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw new ArborError('IO', `Cannot read ${target}: ${String(error)}`, { path: target });
  }
  if (entries.length > 0) throw new ArborError('BAD_REQUEST', `${target} is not empty: a fork needs a new or empty folder`, { path: target });
  return { exists: true };
}

/** True when `inner` is `outer` or lies below it. */
export function isInside(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/** The path with symlinks resolved as far as it exists (the rest, not yet created, appended as given). */
export async function resolvedPath(path: string): Promise<string> {
  const missing: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch {
      if (dirname(at) === at) return path;
      missing.push(basename(at));
    }
  }
}

/** Writes an exact snapshot's whole tree into the (new or empty) target. */
export async function writeExactFork(objects: SnapshotStore, treeOid: string, target: string, options: ForkWorkspaceOptions): Promise<void> {
  await materializeSnapshot(objects, treeOid, target, {
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: ({ filesDone, filesTotal }) => options.onProgress?.('copy', filesDone, filesTotal),
  });
}

export interface ReconstructedForkResult {
  /** False when the source workspace was not found: the folder holds only the files the session touched. */
  readonly sourceCopied: boolean;
  readonly skipped: readonly SkippedPath[];
  /** Files set to the transcript's replay although it is not verified at the node. */
  readonly unverified: readonly UnverifiedPath[];
}

/** Copies `source` (when it exists) into the target, then applies the node's reconstructed files on top. */
export async function writeReconstructedFork(
  objects: SnapshotStore,
  source: string,
  state: NodeState,
  target: string,
  options: ForkWorkspaceOptions,
): Promise<ReconstructedForkResult> {
  const { signal } = options;
  const sourceCopied = await isFolder(source);
  if (sourceCopied) {
    const statCache = await StatCache.forDirectory(objects, source);
    const captured = await captureDirectory(objects, source, {
      ...(signal ? { signal } : {}),
      ...(options.git ? { git: options.git } : {}),
      statCache,
      onProgress: ({ filesDone, filesTotal }) => options.onProgress?.('copy', filesDone, filesTotal * 2),
    });
    await materializeSnapshot(objects, captured.treeOid, target, {
      ...(signal ? { signal } : {}),
      onProgress: ({ filesDone, filesTotal }) => options.onProgress?.('copy', filesTotal + filesDone, filesTotal * 2),
    });
  } else {
    await mkdir(target, { recursive: true });
  }
  const { skipped, unverified } = await applyNodeFiles(source, state, target, options);
  return { sourceCopied, skipped, unverified };
}

async function applyNodeFiles(
  source: string,
  state: NodeState,
  target: string,
  options: ForkWorkspaceOptions,
): Promise<{ skipped: SkippedPath[]; unverified: UnverifiedPath[] }> {
  const skipped: SkippedPath[] = [];
  const unverified: UnverifiedPath[] = [];
  const paths = state.paths();
  const touched = new Set(paths);
  let done = 0;
  for (const path of paths) {
    throwIfAborted(options.signal);
    options.onProgress?.('apply', done++, paths.length);
    const relativePath = workspacePath(source, options.formerDirs, path, touched).split(sep).join('/');
    if (relativePath === '' || relativePath.startsWith('../') || relativePath === '..' || isAbsolute(relativePath)) {
      skipped.push({ path, reason: 'outside-workspace' });
      continue;
    }
    const content = state.content(path);
    const doubt = doubtOf(state, path);
    if (content === UNKNOWN_CONTENT || (typeof content === 'object' && content !== null) || (doubt !== undefined && replayIsStale(doubt.reason))) {
      skipped.push({ path: relativePath, reason: 'unknown-content' });
      continue;
    }
    try {
      checkWorkspacePath(target, relativePath);
    } catch {
      skipped.push({ path: relativePath, reason: 'unsafe-path' });
      continue;
    }
    const file = join(target, relativePath);
    const existing = await lstat(file).catch(() => null);
    if (existing?.isDirectory()) {
      skipped.push({ path: relativePath, reason: 'unsafe-path' });
      continue;
    }
    try {
      // A symlink in the copy would redirect the write: it is replaced, never followed.
      if (content === null || existing?.isSymbolicLink()) await rm(file, { force: true });
      if (content !== null) {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, content);
      }
      if (doubt !== undefined) unverified.push({ path: relativePath, since: doubt.since, reason: doubt.reason });
    } catch (error) {
      throw new ArborError('IO', `Cannot write ${file}: ${String(error)}`, { path: file });
    }
  }
  options.onProgress?.('apply', paths.length, paths.length);
  return { skipped, unverified };
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Undoes a fork that failed half-way: the folder was new or empty, so it goes back to that. */
export async function discardForkFolder(target: string, existed: boolean): Promise<void> {
  if (!existed) {
    await rm(target, { recursive: true, force: true });
    return;
  }
  const entries = await readdir(target).catch(() => []);
  for (const entry of entries) await rm(join(target, entry), { recursive: true, force: true });
}
