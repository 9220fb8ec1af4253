/**
 * One journaled write: a file (or symlink) goes to a temporary name beside its destination, is flushed to
 * disk and renamed over the old one, so at every instant the path holds either the old or the new version
 * (what crash recovery relies on). Deletion removes the file and the folders it leaves empty, as git does.
 * The calls are synchronous, as in capture: a handful per file, each far cheaper than a thread-pool round
 * trip; the runner gives the event loop a turn between files.
 */
import { chmodSync, closeSync, fdatasyncSync, lstatSync, mkdirSync, openSync, renameSync, rmdirSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SnapshotStore } from '../git/object-store';
import type { FileVersion } from '../git/workspace-files';

/** The temporary file of write `seq` of an operation: a fixed name, so recovery can find and remove it. */
export function temporaryPath(root: string, path: string, operationId: string, seq: number): string {
  return join(root, dirname(path), `.arbor-operation-${operationId}-${seq}.tmp`);
}

/** Permission bits for the new file: an existing file keeps its own (say 0600), with the execute bits set or cleared. */
function permissionsFor(destination: string, executable: boolean): number {
  try {
    const info = lstatSync(destination);
    if (info.isFile()) {
      const bits = info.mode & 0o777;
      return executable ? bits | ((bits & 0o444) >> 2) | 0o100 : bits & ~0o111;
    }
  } catch {
    // nothing there yet
  }
  return executable ? 0o755 : 0o644;
}

function writeNew(path: string, bytes: Buffer, durable: boolean): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (durable) fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes `dir` and then its parents while they are empty, stopping at the workspace root. */
export function removeEmptyFolders(root: string, dir: string): void {
  let at = dir;
  while (at !== '' && at !== '.') {
    try {
      rmdirSync(join(root, at));
    } catch {
      return; // not empty (or already gone): its parents are not empty either
    }
    at = dirname(at);
  }
}

/**
 * Makes `path` hold `version` (null: removes it). The caller has checked the path and stored the blob.
 * `durable` flushes the new bytes to disk before the rename, so a power loss cannot leave an empty file.
 */
export function writeVersion(objects: SnapshotStore, root: string, path: string, version: FileVersion | null, temporary: string, durable: boolean): void {
  const destination = join(root, path);
  if (version === null) {
    rmSync(destination, { force: true });
    removeEmptyFolders(root, dirname(path));
    return;
  }
  const bytes = objects.readBlob(version.oid);
  mkdirSync(dirname(destination), { recursive: true });
  rmSync(temporary, { force: true }); // left by an earlier crash at this very step
  try {
    if (version.mode === '120000') {
      symlinkSync(bytes, temporary);
    } else {
      const permissions = permissionsFor(destination, version.mode === '100755');
      writeNew(temporary, bytes, durable);
      chmodSync(temporary, permissions);
    }
    renameSync(temporary, destination);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
