/**
 * Reading snapshots back: a snapshot's files (path, mode, oid), one file's bytes, and the difference
 * between two snapshots. Identical subtrees (same oid) are skipped without being read, so a diff costs
 * in proportion to what changed.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { FileMode, TreeEntry } from './git-object';
import { isRefusedGitPath } from './git-path-names';
import type { SnapshotStore } from './object-store';

export interface SnapshotFile {
  /** `/`-separated, relative to the workspace root. */
  readonly path: string;
  readonly mode: FileMode;
  readonly oid: string;
}

export interface ModifiedFile {
  readonly path: string;
  readonly before: SnapshotFile;
  readonly after: SnapshotFile;
}

export interface SnapshotDiff {
  readonly added: readonly SnapshotFile[];
  /** Content or mode changed. */
  readonly modified: readonly ModifiedFile[];
  readonly deleted: readonly SnapshotFile[];
}

const join2 = (base: string, name: string): string => (base === '' ? name : `${base}/${name}`);

/** Accepts a tree or a commit oid and returns the tree's. */
export function resolveTree(store: SnapshotStore, oid: string): string {
  const object = store.read(oid);
  if (object.type === 'tree') return oid;
  if (object.type === 'commit') return store.readCommit(oid).tree;
  throw new ArborError('BAD_REQUEST', `Object ${oid} is a ${object.type}, not a snapshot`, { oid });
}

/**
 * Guards against tree entries that would escape or clobber the workspace when written out: a `/`, or any
 * name git refuses on some platform (`.GIT`, `git~1`, a symlinked `.gitmodules`, git-path-names.ts).
 */
export function checkEntryName(name: string, mode?: string): void {
  if (name.includes('/') || isRefusedGitPath(name, { symlink: mode === '120000' })) {
    throw new ArborError('INTERNAL', `Unsafe name in snapshot tree: ${JSON.stringify(name)}`, { name });
  }
}

function asFile(path: string, entry: TreeEntry): SnapshotFile | undefined {
  // Gitlinks (160000) cannot come from our captures; they have no content to restore.
  return entry.mode === '40000' || entry.mode === '160000' ? undefined : { path, mode: entry.mode, oid: entry.oid };
}

/** Every file of a snapshot, in git's order (a depth-first walk of sorted trees). */
export function listSnapshotFiles(store: SnapshotStore, treeOid: string, signal?: AbortSignal): SnapshotFile[] {
  const files: SnapshotFile[] = [];
  // Files and subtrees share one stack, pushed in reverse, so pops come out in tree order.
  const stack: (SnapshotFile | { readonly tree: string; readonly path: string })[] = [{ tree: resolveTree(store, treeOid), path: '' }];
  let visited = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!('tree' in item)) {
      files.push(item);
      continue;
    }
    if (++visited % 64 === 0) throwIfAborted(signal);
    const entries = store.readTree(item.tree);
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      checkEntryName(entry.name, entry.mode);
      const path = join2(item.path, entry.name);
      if (entry.mode === '40000') stack.push({ tree: entry.oid, path });
      else {
        const file = asFile(path, entry);
        if (file) stack.push(file);
      }
    }
  }
  return files;
}

/** The entry at `path` (a file or symlink), or undefined when the snapshot has no such file. */
export function findSnapshotFile(store: SnapshotStore, treeOid: string, path: string): SnapshotFile | undefined {
  const parts = path.split('/');
  let oid = resolveTree(store, treeOid);
  for (let i = 0; i < parts.length; i++) {
    const entry = store.readTree(oid).find((e) => e.name === parts[i]);
    if (!entry) return undefined;
    if (i === parts.length - 1) return asFile(path, entry);
    if (entry.mode !== '40000') return undefined;
    oid = entry.oid;
  }
  return undefined;
}

/** A file's bytes as captured (a symlink's bytes are its target). */
export function readSnapshotFile(store: SnapshotStore, treeOid: string, path: string): { readonly mode: FileMode; readonly bytes: Buffer } | undefined {
  const file = findSnapshotFile(store, treeOid, path);
  return file ? { mode: file.mode, bytes: store.readBlob(file.oid) } : undefined;
}

function filesUnder(store: SnapshotStore, prefix: string, entry: TreeEntry): SnapshotFile[] {
  if (entry.mode !== '40000') {
    const file = asFile(prefix, entry);
    return file ? [file] : [];
  }
  return listSnapshotFiles(store, entry.oid).map((f) => ({ ...f, path: join2(prefix, f.path) }));
}

/** What changed from `before` to `after` (tree or commit oids). */
export function diffSnapshots(store: SnapshotStore, before: string, after: string, signal?: AbortSignal): SnapshotDiff {
  const added: SnapshotFile[] = [];
  const modified: ModifiedFile[] = [];
  const deleted: SnapshotFile[] = [];
  const stack: { prefix: string; before: string; after: string }[] = [{ prefix: '', before: resolveTree(store, before), after: resolveTree(store, after) }];
  while (stack.length > 0) {
    throwIfAborted(signal);
    const pair = stack.pop()!;
    if (pair.before === pair.after) continue;
    const left = new Map(store.readTree(pair.before).map((e) => [e.name, e]));
    const right = new Map(store.readTree(pair.after).map((e) => [e.name, e]));
    for (const [name, l] of left) {
      checkEntryName(name, l.mode);
      const path = join2(pair.prefix, name);
      const r = right.get(name);
      if (r) checkEntryName(name, r.mode);
      if (!r) {
        deleted.push(...filesUnder(store, path, l));
      } else if (l.oid === r.oid && l.mode === r.mode) {
        continue;
      } else if (l.mode === '40000' && r.mode === '40000') {
        stack.push({ prefix: path, before: l.oid, after: r.oid });
      } else if (l.mode !== '40000' && r.mode !== '40000') {
        const b = asFile(path, l);
        const a = asFile(path, r);
        if (b && a) modified.push({ path, before: b, after: a });
      } else {
        deleted.push(...filesUnder(store, path, l));
        added.push(...filesUnder(store, path, r));
      }
    }
    for (const [name, r] of right) {
      if (left.has(name)) continue;
      checkEntryName(name, r.mode);
      added.push(...filesUnder(store, join2(pair.prefix, name), r));
    }
  }
  const byPath = (a: { path: string }, b: { path: string }) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
  return { added: added.sort(byPath), modified: modified.sort(byPath), deleted: deleted.sort(byPath) };
}
