/**
 * The files at a node as a folder tree. Paths arrive absolute (nodes.files joins them to the snapshot's
 * folder); the tree is shown relative to their common folder, which is the workspace.
 */
import type { FileChangeStatus, NodeFileEntry } from '../../../shared/model';
import type { UnknownWhy } from './UnknownFileMark';

export interface FileLeaf {
  readonly type: 'file';
  readonly name: string;
  /** The path as the service knows it (absolute), for `nodes.file`. */
  readonly path: string;
  readonly relative: string;
  readonly status?: FileChangeStatus;
  /** Set when the file's content here is not known. */
  readonly unknown?: UnknownWhy;
  /** Bytes, when the content is known. */
  readonly size?: number;
}

export interface FolderNode {
  readonly type: 'folder';
  readonly name: string;
  readonly relative: string;
  readonly children: readonly (FolderNode | FileLeaf)[];
  /** Files anywhere below. */
  readonly count: number;
  /** Files below that this node changed. */
  readonly changed: number;
  /** Files below whose content is not known. */
  readonly unknown: number;
}

/** The deepest folder holding every path ('/' separated; '' when they share none). */
export function commonFolder(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  let prefix = paths[0]!.slice(0, paths[0]!.lastIndexOf('/') + 1);
  for (const path of paths) {
    while (prefix !== '' && !path.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  return prefix.endsWith('/') && prefix.length > 1 ? prefix.slice(0, -1) : prefix;
}

export function relativeTo(root: string, path: string): string {
  if (root === '' || root === '/') return root === '/' ? path.slice(1) : path;
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

interface MutableFolder {
  name: string;
  relative: string;
  folders: Map<string, MutableFolder>;
  files: FileLeaf[];
}

export function buildFileTree(entries: readonly NodeFileEntry[], root: string): FolderNode {
  const top: MutableFolder = { name: '', relative: '', folders: new Map(), files: [] };
  for (const entry of entries) {
    const relative = relativeTo(root, entry.path);
    const parts = relative.split('/');
    let folder = top;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i]!;
      let next = folder.folders.get(name);
      if (!next) folder.folders.set(name, (next = { name, relative: parts.slice(0, i + 1).join('/'), folders: new Map(), files: [] }));
      folder = next;
    }
    folder.files.push({
      type: 'file',
      name: parts.at(-1)!,
      path: entry.path,
      relative,
      ...(entry.status ? { status: entry.status } : {}),
      ...(entry.known === 'unknown' ? { unknown: { since: entry.unknownSince, reason: entry.reason, ...(entry.ghost === undefined ? {} : { ghost: entry.ghost }) } } : { size: entry.size }),
    });
  }
  return freeze(top);
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function freeze(folder: MutableFolder): FolderNode {
  const folders = [...folder.folders.values()].sort(byName).map(freeze);
  const files = [...folder.files].sort(byName);
  return {
    type: 'folder',
    name: folder.name,
    relative: folder.relative,
    children: [...folders, ...files],
    count: files.length + folders.reduce((n, f) => n + f.count, 0),
    changed: files.filter((f) => f.status !== undefined).length + folders.reduce((n, f) => n + f.changed, 0),
    unknown: files.filter((f) => f.unknown !== undefined).length + folders.reduce((n, f) => n + f.unknown, 0),
  };
}
