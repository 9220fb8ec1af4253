/**
 * What the workspace holds now at each planned path, compared with what the preview saw. A folder where
 * the preview saw nothing is accepted only when the plan deletes every file in it (a folder that becomes
 * a file); anything else there means the workspace changed since the preview.
 */
import { lstatSync, type BigIntStats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { readWorkspaceFileSync, sameVersion, type FileVersion } from '../git/workspace-files';
import { nowNs, type SeenFile } from './file-writes';
import type { GitEnvironment } from '../git/ignore-files';
import type { PlannedFileChange } from './operation-types';
import { createIgnoreCheck } from './path-checks';

export interface PlannedFiles {
  /** Each planned path's current version (null: nothing, or a folder the plan empties). */
  readonly current: ReadonlyMap<string, FileVersion | null>;
  /** The current bytes of every file there, for the safety snapshot. */
  readonly bytes: ReadonlyMap<string, Buffer>;
  /** Permission bits of each planned path that is a regular file now (null: not a file), as lstat saw them. */
  readonly permissions: ReadonlyMap<string, number | null>;
  /** What each planned path held and its lstat, to be compared again right before its write (file-writes.ts). */
  readonly seen: ReadonlyMap<string, SeenFile>;
  /** For a planned file where a folder stands now: that folder and every folder below it, parents first. */
  readonly replacedFolders: ReadonlyMap<string, readonly ReplacedFolder[]>;
  /** Paths whose current version is not the expected one, sorted. */
  readonly changed: readonly string[];
}

/** A folder the operation removes to put a file where it stands (empty once the plan's deletions ran). */
export interface ReplacedFolder {
  readonly path: string;
  readonly stat: BigIntStats;
}

/** Every file (not folder) below `folder`, workspace-relative; the folders below it go to `folders`, parents first. */
async function filesBelow(root: string, folder: string, folders: ReplacedFolder[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      folders.push({ path, stat: lstatSync(join(root, path), { bigint: true }) });
      found.push(...(await filesBelow(root, path, folders)));
    } else found.push(path);
  }
  return found;
}

/** True when the plan removes every file in the folder (empty folders below it may stay); refuses when an ignored file is in the way. */
async function planEmptiesFolder(
  root: string,
  folder: string,
  byPath: ReadonlyMap<string, PlannedFileChange>,
  folders: ReplacedFolder[],
  git: GitEnvironment | undefined,
): Promise<boolean> {
  const ignored = createIgnoreCheck(root, git);
  for (const path of await filesBelow(root, folder, folders)) {
    if (byPath.get(path)?.target === null) continue;
    if (ignored(path)) throw new ArborError('BAD_REQUEST', `${folder} holds the ignored file ${path}, which the operation would have to remove`, { path: folder });
    return false;
  }
  return true;
}

export async function readPlannedFiles(root: string, changes: readonly PlannedFileChange[], signal?: AbortSignal, git?: GitEnvironment): Promise<PlannedFiles> {
  const byPath = new Map(changes.map((change) => [change.path, change]));
  const current = new Map<string, FileVersion | null>();
  const bytes = new Map<string, Buffer>();
  const permissions = new Map<string, number | null>();
  const seen = new Map<string, SeenFile>();
  const replacedFolders = new Map<string, ReplacedFolder[]>();
  const changed: string[] = [];
  for (const change of changes) {
    throwIfAborted(signal);
    let info: BigIntStats | null = null;
    let missing = false;
    // Before the bytes are hashed: a write after this lstat shows in the stat the write phase compares.
    const seenAtNs = nowNs();
    try {
      info = lstatSync(join(root, change.path), { bigint: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Anything but "nothing there" is left to readWorkspaceFileSync, which reports it.
      missing = code === 'ENOENT' || code === 'ENOTDIR';
    }
    if (info?.isDirectory()) {
      current.set(change.path, null);
      seen.set(change.path, { version: null, stat: null, seenAtNs });
      const folders: ReplacedFolder[] = [{ path: change.path, stat: info }];
      if (change.expected !== null || !(await planEmptiesFolder(root, change.path, byPath, folders, git))) changed.push(change.path);
      else if (change.target !== null) replacedFolders.set(change.path, folders);
      continue;
    }
    const file = missing ? null : readWorkspaceFileSync(root, change.path);
    permissions.set(change.path, info?.isFile() ? Number(info.mode & 0o777n) : null);
    current.set(change.path, file && { oid: file.oid, mode: file.mode });
    seen.set(change.path, { version: file && { oid: file.oid, mode: file.mode }, stat: file ? info : null, seenAtNs });
    if (file) bytes.set(change.path, file.bytes);
    if (!sameVersion(file, change.expected)) changed.push(change.path);
  }
  return { current, bytes, permissions, seen, replacedFolders, changed: changed.sort() };
}
