/**
 * A copy of the snapshot repository that is itself a valid git repository (issue 15, the archive): loose
 * objects, packs (each pack before its index, as the pack writer publishes them), refs, packed-refs and the
 * repository's own files. Files a writer has not finished (`*.tmp`, `*.lock`, a pack's `tmp_*`) are left
 * out. The caller holds the store's writer turn, so no gc or prune removes a pack halfway through.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { throwIfAborted } from '../../shared/errors';
import { SnapshotStore } from './object-store';

export interface RepositoryCopyOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { readonly done: number; readonly total: number }) => void;
}

interface PlannedFile {
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
}

/** Copies the repository at `from` into `to` (a folder that does not exist yet); returns the bytes copied. */
export async function copyRepository(from: string, to: string, options: RepositoryCopyOptions = {}): Promise<number> {
  const files: PlannedFile[] = [];
  const dirs: string[] = [];
  await walk(from, to, files, dirs, options.signal);
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  let done = 0;
  for (const file of order(files, from)) {
    throwIfAborted(options.signal);
    // A reflink where the filesystem has them, else a plain copy.
    await copyFile(file.from, file.to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    done += file.bytes;
    options.onProgress?.({ done, total });
  }
  return total;
}

/** The bytes under a folder (the archive's `sizes.snapshots`). */
export async function repositoryBytes(dir: string): Promise<number> {
  const files: PlannedFile[] = [];
  await walk(dir, dir, files, []);
  return files.reduce((sum, file) => sum + file.bytes, 0);
}

/** Which of `oids` the repository in `<dataDir>/snapshots.git` does not hold (none: every row's objects are there). */
export function missingObjects(dataDir: string, oids: readonly string[]): string[] {
  const store = SnapshotStore.open({ dataDir });
  try {
    return oids.filter((oid) => !store.has(oid));
  } finally {
    store.close();
  }
}

/** How many refs the repository has (loose and packed). */
export async function countRefs(dataDir: string): Promise<number> {
  const store = SnapshotStore.open({ dataDir });
  try {
    return (await store.listRefs('refs/')).size;
  } finally {
    store.close();
  }
}

async function walk(from: string, to: string, files: PlannedFile[], dirs: string[], signal?: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  dirs.push(to);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      await walk(source, join(to, entry.name), files, dirs, signal);
      continue;
    }
    if (!entry.isFile() || unfinished(entry.name)) continue;
    const info = await lstat(source).catch(() => null);
    if (info !== null) files.push({ from: source, to: join(to, entry.name), bytes: info.size });
  }
}

function unfinished(name: string): boolean {
  return name.endsWith('.tmp') || name.endsWith('.lock') || name.startsWith('tmp_');
}

/** Objects first (a pack before its index), then refs, HEAD last: the copy is a repository only once whole. */
function order(files: readonly PlannedFile[], root: string): PlannedFile[] {
  const rank = (file: PlannedFile): number => {
    const path = relative(root, file.from).split('\\').join('/');
    if (path.startsWith('objects/')) return path.endsWith('.idx') ? 1 : 0;
    if (path === 'HEAD') return 3;
    return 2;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}
