/**
 * The folders an operation makes and may remove, worked out from its writes before the first one (they are
 * journaled with it): those it creates (`createdDirs`) and those it may remove with their permission bits
 * (`foldersBefore`), so a rollback, a crash recovery and undo bring the folder structure back exactly.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { FileVersion } from '../git/workspace-files';
import type { ReplacedFolder } from './planned-files';
import { parentOf } from './workspace-folders';

/** One write of the operation, as far as folders are concerned. */
export interface FolderWrite {
  readonly path: string;
  readonly after: FileVersion | null;
}

/** The folders above `path`, shallowest first. */
export function ancestorsOf(path: string): string[] {
  const folders: string[] = [];
  for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) folders.push(dir);
  return folders.reverse();
}

/** A folder's recorded permission bits (own keys only: a folder may be called `constructor` or `toString`). */
export const bitsOf = (folders: Readonly<Record<string, number>>, dir: string): number | undefined => (Object.hasOwn(folders, dir) ? folders[dir] : undefined);

/** Shallowest first, then by name. */
export const byDepth = (a: string, b: string): number => a.split('/').length - b.split('/').length || (a < b ? -1 : 1);

/**
 * The folders the operation may remove, with their permission bits as they are now: every folder above a file
 * it deletes (removed if left empty) and every folder standing where it writes a file.
 */
export function foldersItMayRemove(modes: ReadonlyMap<string, number>, replaced: ReadonlyMap<string, readonly ReplacedFolder[]>, writes: readonly FolderWrite[]): Record<string, number> {
  const folders = new Map<string, number>();
  for (const write of writes) {
    if (write.after === null) {
      for (const dir of ancestorsOf(write.path)) {
        const mode = modes.get(dir);
        if (mode !== undefined) folders.set(dir, mode);
      }
    } else {
      for (const folder of replaced.get(write.path) ?? []) folders.set(folder.path, Number(folder.stat.mode & 0o7777n));
    }
  }
  // fromEntries: own properties even for a folder called `__proto__`.
  return Object.fromEntries(folders);
}

/**
 * Folders the writes will create (missing now, or a file the operation deletes first), and for an undo the
 * folders it restores that are missing now; shallowest first.
 */
export function foldersToCreate(root: string, writes: readonly FolderWrite[], restore: readonly string[]): string[] {
  const deleted = new Set(writes.filter((w) => w.after === null).map((w) => w.path));
  const folders = new Set<string>();
  const wanted = [...writes.filter((w) => w.after !== null).map((w) => w.path), ...restore.map((dir) => `${dir}/-`)];
  for (const path of wanted) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (folders.has(folder)) continue;
      let isFolder = false;
      try {
        isFolder = lstatSync(join(root, folder)).isDirectory();
      } catch {
        // missing
      }
      if (!isFolder || deleted.has(folder)) folders.add(folder);
    }
  }
  return [...folders].sort(byDepth);
}
