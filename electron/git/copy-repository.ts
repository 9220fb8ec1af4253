/**
 * A copy of the snapshot repository that is itself a valid git repository (issue 15, the archive): loose
 * objects, packs (each pack before its index, as the pack writer publishes them), refs, packed-refs and the
 * repository's own files. Files a writer has not finished (`*.tmp`, `*.lock`, a pack's `tmp_*`) are left
 * out. A copy taken without the store's writer turn may miss what a prune removed meanwhile; a second pass
 * (`update`) made holding the turn, so no gc or prune runs, copies only what changed since (packs and loose
 * objects are named by their content, so one already there is the same) and removes what the store no
 * longer has: the turn is held for the difference, not the whole repository.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { throwIfAborted } from '../../shared/errors';
import { SnapshotStore } from './object-store';

export interface RepositoryCopyOptions {
  readonly signal?: AbortSignal;
  /**
   * `to` holds an earlier copy: objects already there are kept, everything else is copied again, and files the
   * repository no longer has are removed. Without it `to` must not exist, and a file a prune removed while it
   * is copied is left out (the update pass, under the writer turn, settles it).
   */
  readonly update?: boolean;
  readonly onProgress?: (progress: { readonly done: number; readonly total: number }) => void;
}

interface PlannedFile {
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
}

/** Copies the repository at `from` into `to` (a folder that does not exist yet); returns the bytes copied. */
export async function copyRepository(from: string, to: string, options: RepositoryCopyOptions = {}): Promise<number> {
  const update = options.update === true;
  const files: PlannedFile[] = [];
  const dirs: string[] = [];
  await walk(from, to, files, dirs, options.signal);
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const wanted = update ? await copiesToRedo(files, from) : files;
  const total = wanted.reduce((sum, file) => sum + file.bytes, 0);
  let done = 0;
  for (const file of order(wanted, from)) {
    throwIfAborted(options.signal);
    try {
      // A reflink where the filesystem has them, else a plain copy.
      await copyFile(file.from, file.to, (update ? 0 : constants.COPYFILE_EXCL) | constants.COPYFILE_FICLONE);
    } catch (error) {
      // Pruned since it was listed: only a copy without the writer turn meets it, and its update settles it.
      if (update || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    done += file.bytes;
    options.onProgress?.({ done, total });
  }
  if (update) await removeGone(files, to);
  return total;
}

/** The files an update copies: all but the objects the earlier copy already holds whole. */
async function copiesToRedo(files: readonly PlannedFile[], root: string): Promise<PlannedFile[]> {
  const redo: PlannedFile[] = [];
  for (const file of files) {
    const there = await lstat(file.to).catch(() => null);
    if (there === null || there.size !== file.bytes || !namedByContent(relative(root, file.from))) redo.push(file);
  }
  return redo;
}

/** Removes the copy's files the repository no longer has (a pack a prune rewrote, a deleted ref). */
async function removeGone(files: readonly PlannedFile[], to: string): Promise<void> {
  const kept = new Set(files.map((file) => file.to));
  const copied: PlannedFile[] = [];
  await walk(to, to, copied, []);
  for (const file of copied) if (!kept.has(file.from)) await rm(file.from, { force: true });
}

/** Loose objects and packs: their names are their content's hash, so a file of the same name is the same. */
function namedByContent(path: string): boolean {
  const parts = path.split(/[\\/]/);
  return parts[0] === 'objects' && ((/^[0-9a-f]{2}$/.test(parts[1] ?? '') && parts.length === 3) || (parts[1] === 'pack' && /^pack-[0-9a-f]+\.(pack|idx|rev)$/.test(parts[2] ?? '')));
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
  const entries = await readdir(from, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    // A loose objects' folder a prune emptied: only a copy without the writer turn meets it.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
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
