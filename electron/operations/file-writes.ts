/**
 * One journaled write: a file (or symlink) goes to a temporary name beside its destination (stageVersion) and
 * takes its place in one rename (placeStaged), so at every instant the path holds either the old or the new
 * version (what crash recovery relies on). Deletion removes the file and the folders it leaves empty, as git
 * does (deleteFile). Staging is synchronous, as in capture: a handful of calls per file, each far cheaper
 * than a thread-pool round trip. The rename is not: replacing a file makes ext4 allocate and start writing
 * the new one's blocks (its `auto_da_alloc` safeguard, ~0.3 ms a file measured here), so the runner does a
 * batch's renames on the thread pool, several at once.
 *
 * Every path goes through `WorkspaceFolders` (workspace-folders.ts), so no write can leave the folder the
 * check saw. Immediately before a file is replaced or deleted it is looked at again (`stillAsSeen`: lstat,
 * and the content hash when the stat differs, so a `touch` alone changes nothing) and a user's edit stops the
 * operation instead of being overwritten. A created file is placed with link(2), which never replaces
 * anything (no-clobber, atomic), then its temporary name is unlinked: measured here, 100 new files placed
 * 4 at once took 7.0 ms that way against 4.6 ms by rename, a price for never losing a file the user made
 * in the meantime (a replaced file still takes one rename). Remaining window, for a replaced or deleted file only: between that lstat
 * and the rename(2) or unlink(2) (no await between them; the rename's thread-pool hand-off is the longest
 * part, microseconds when a pool thread is free). An edit landing there is replaced; the safety snapshot does
 * not hold it. A file modified within RACY_NS of the check is always re-hashed (its timestamp may not show a
 * later write in the same clock tick, git's "racy clean" case).
 */
import { closeSync, fchmodSync, fdatasyncSync, lstatSync, openSync, rmSync, symlinkSync, unlinkSync, writeSync, type BigIntStats } from 'node:fs';
import { link, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SnapshotStore } from '../git/object-store';
import { readWorkspaceFileSync, sameVersion, type FileVersion, type WorkspaceFile } from '../git/workspace-files';
import { nameOf, parentOf, WorkspaceChangedDuringWrite, type WorkspaceFolders } from './workspace-folders';

/** A planned path as the check saw it, to be found again right before it is replaced or deleted. */
export interface SeenFile {
  /** What was there (null: nothing). */
  readonly version: FileVersion | null;
  /** Its lstat then; null: unknown (the content is always hashed again). */
  readonly stat: BigIntStats | null;
  /** When that lstat was taken (ns since the epoch, wall clock like file times). */
  readonly seenAtNs: bigint;
}

/** Modified this close (ns) to the check: the timestamps cannot prove a later write, so the bytes are hashed. */
export const RACY_NS = 50_000_000n;

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** The workspace-relative temporary file of write `seq` of an operation: a fixed name, so recovery can find it. */
export function temporaryFile(path: string, operationId: string, seq: number): string {
  const dir = parentOf(path);
  const name = `.arbor-operation-${operationId}-${seq}.tmp`;
  return dir === '' ? name : `${dir}/${name}`;
}

/** The same, absolute (for tests and messages). */
export function temporaryPath(root: string, path: string, operationId: string, seq: number): string {
  return join(root, dirname(path), nameOf(temporaryFile(path, operationId, seq)));
}

const sameStat = (a: BigIntStats, b: BigIntStats): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.mode === b.mode && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/** The file at `path`, read through the checked folders (null: nothing there, its folder included). */
export function readFile(folders: WorkspaceFolders, path: string): WorkspaceFile | null {
  let dir: string;
  try {
    dir = folders.folder(parentOf(path));
  } catch (error) {
    if (error instanceof WorkspaceChangedDuringWrite && error.missing) return null;
    throw error;
  }
  const file = readWorkspaceFileSync(dir, nameOf(path));
  folders.confirm(parentOf(path));
  return file;
}

/** True when `path` still holds what the check saw. */
export function stillAsSeen(folders: WorkspaceFolders, path: string, seen: SeenFile): boolean {
  let now: BigIntStats;
  try {
    now = lstatSync(folders.entry(path), { bigint: true });
  } catch (error) {
    if (error instanceof WorkspaceChangedDuringWrite) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return seen.version === null;
    throw error;
  }
  if (seen.version === null) return false;
  if (seen.stat !== null && sameStat(now, seen.stat) && seen.stat.mtimeNs + RACY_NS < seen.seenAtNs) return true;
  try {
    return sameVersion(readFile(folders, path), seen.version);
  } catch (error) {
    if (error instanceof WorkspaceChangedDuringWrite) throw error;
    return false; // a folder where the file was, or unreadable: not what was seen
  }
}

const editedSince = (path: string, seen: SeenFile): WorkspaceChangedDuringWrite =>
  new WorkspaceChangedDuringWrite(path, seen.version === null ? `${path} was created since the operation checked it` : `${path} was changed since the operation checked it`);

/**
 * Permission bits for the new file: an existing file keeps its own (say 0600), with the execute bits set or
 * cleared. `currentBits` is what the caller saw there (undefined: look; null: nothing there).
 */
function permissionsFor(destination: string, executable: boolean, currentBits?: number | null): number {
  let bits = currentBits;
  if (bits === undefined) {
    try {
      const info = lstatSync(destination);
      bits = info.isFile() ? info.mode & 0o777 : null;
    } catch {
      bits = null; // nothing there yet
    }
  }
  if (bits === null) return executable ? 0o755 : 0o644;
  return executable ? bits | ((bits & 0o444) >> 2) | 0o100 : bits & ~0o111;
}

/**
 * Creates `path` exclusively with `bytes`. A temporary file left by an earlier crash at this very step is
 * removed and the creation retried (rare, so handled on failure instead of paying a stat per file).
 */
function writeNew(path: string, bytes: Buffer, durable: boolean, permissions: number): void {
  const mode = 0o600;
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(path, { force: true });
    fd = openSync(path, 'wx', mode);
  }
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    // On the descriptor (no path lookup); explicit, so the umask cannot change what the version says.
    fchmodSync(fd, permissions);
    if (durable) fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A symlink at `path`, with the same recovery as writeNew. */
function symlinkNew(target: Buffer, path: string): void {
  try {
    symlinkSync(target, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(path, { force: true });
    symlinkSync(target, path);
  }
}

/**
 * The first half of making `path` hold `version`: the new version under `temporary` (workspace-relative,
 * beside `path`; its folder exists). `durable` flushes the new bytes to disk first, so a power loss cannot
 * leave an empty file. The caller has checked the path and stored the blob.
 */
export function stageVersion(
  objects: SnapshotStore,
  folders: WorkspaceFolders,
  path: string,
  version: FileVersion,
  temporary: string,
  durable: boolean,
  currentBits?: number | null,
): void {
  const bytes = objects.readBlob(version.oid);
  const at = folders.entry(temporary);
  try {
    if (version.mode === '120000') symlinkNew(bytes, at);
    else writeNew(at, bytes, durable, permissionsFor(folders.entry(path), version.mode === '100755', currentBits));
    folders.confirm(parentOf(path));
  } catch (error) {
    rmSync(at, { force: true });
    throw error;
  }
}

const linkUnsupported = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * The second half: the staged temporary file takes `path`'s place, if `path` still holds what the check saw
 * (else WorkspaceChangedDuringWrite, the temporary file removed). A path that held nothing gets the file by
 * link(2) (never replaces what someone created there since; the hard-link count is briefly two); a symlink,
 * or a filesystem without hard links, checks the absence and renames.
 */
export async function placeStaged(folders: WorkspaceFolders, path: string, temporary: string, version: FileVersion, seen: SeenFile): Promise<void> {
  const from = folders.entry(temporary);
  const to = folders.entry(path);
  try {
    if (seen.version === null && version.mode !== '120000') {
      try {
        await link(from, to);
        await unlink(from);
        folders.confirm(parentOf(path));
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') throw editedSince(path, seen);
        if (!linkUnsupported.has(code)) throw error;
      }
    }
    // No await between the check and the rename: the window the header describes.
    if (!stillAsSeen(folders, path, seen)) throw editedSince(path, seen);
    await rename(from, to);
    folders.confirm(parentOf(path));
  } catch (error) {
    await rm(from, { force: true });
    throw error;
  }
}

/**
 * Deletes `path` if it still holds what the check saw (else WorkspaceChangedDuringWrite), then the folders
 * it leaves empty while `removable` allows (never the root). Returns the folders removed, deepest first.
 */
export function deleteFile(folders: WorkspaceFolders, path: string, seen: SeenFile, removable: (dir: string) => boolean): string[] {
  if (!stillAsSeen(folders, path, seen)) throw editedSince(path, seen);
  try {
    unlinkSync(folders.entry(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  folders.confirm(parentOf(path));
  const removed: string[] = [];
  for (let dir = parentOf(path); dir !== '' && removable(dir); dir = parentOf(dir)) {
    if (!folders.removeFolderIfEmpty(dir)) break; // not empty: its parents are not empty either
    removed.push(dir);
  }
  return removed;
}

/** Removes a temporary file an interrupted write may have left (nothing when its folder is gone). */
export function removeTemporary(folders: WorkspaceFolders, temporary: string): void {
  let at: string;
  try {
    at = folders.entry(temporary);
  } catch (error) {
    if (error instanceof WorkspaceChangedDuringWrite && error.missing) return;
    throw error;
  }
  rmSync(at, { force: true });
}
