/**
 * A workspace file as the snapshot store sees it: its git blob id and mode, read straight from disk. Rewind,
 * merge and undo compare these with what a preview saw, so "the workspace changed since" is a byte check.
 */
import { lstatSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ArborError } from '../../shared/errors';
import { hashObject, type FileMode } from './git-object';
import type { SnapshotStore } from './object-store';

/** A file's content (a blob in the snapshot store) and mode. */
export interface FileVersion {
  readonly oid: string;
  readonly mode: FileMode;
}

export interface WorkspaceFile extends FileVersion {
  readonly bytes: Buffer;
}

/**
 * The file at `path` (workspace-relative, '/'-separated) with its bytes, or null when nothing is there.
 * A directory where a file is expected is an error: an operation must not guess what to do with it.
 * Synchronous: an operation checks a few hundred planned files at most, and awaiting three thread-pool
 * round trips per file cost more than the reads (a third of a 100-file rewind's apply).
 */
export function readWorkspaceFileSync(root: string, path: string, known?: Stats): WorkspaceFile | null {
  const full = join(root, path);
  let info: Stats;
  try {
    // A caller that has just lstat'ed the path passes what it saw (one system call fewer per file).
    info = known ?? lstatSync(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw new ArborError('IO', `Cannot read ${full}: ${(error as Error).message}`, { path });
  }
  try {
    if (info.isSymbolicLink()) {
      const bytes = readlinkSync(full, { encoding: 'buffer' });
      return { bytes, mode: '120000', oid: hashObject('blob', bytes).toString('hex') };
    }
    if (!info.isFile()) throw new ArborError('BAD_REQUEST', `${path} is not a file in the workspace`, { path });
    const bytes = readFileSync(full);
    const mode: FileMode = (info.mode & 0o111) !== 0 ? '100755' : '100644';
    return { bytes, mode, oid: hashObject('blob', bytes).toString('hex') };
  } catch (error) {
    if (error instanceof ArborError) throw error;
    throw new ArborError('IO', `Cannot read ${full}: ${(error as Error).message}`, { path });
  }
}

/** The same, for callers in async code (one place reads files; see readWorkspaceFileSync for why it is sync). */
export async function readWorkspaceFile(root: string, path: string): Promise<WorkspaceFile | null> {
  return readWorkspaceFileSync(root, path);
}

export function sameVersion(a: FileVersion | null, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b;
  return a.oid === b.oid && a.mode === b.mode;
}

/** Stores contents in the snapshot store (written once: identical contents share one blob) and returns their ids. */
export async function storeBlobs(store: SnapshotStore, contents: readonly Uint8Array[]): Promise<string[]> {
  const writer = store.createWriter();
  const oids = contents.map((bytes) => writer.write('blob', bytes));
  await writer.finish();
  return oids;
}
