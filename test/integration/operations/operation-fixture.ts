/** Temp workspaces, a real session store and snapshot store, and plans between two captured states. */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { captureDirectory } from '../../../electron/git/capture';
import { SnapshotStore } from '../../../electron/git/object-store';
import { diffSnapshots } from '../../../electron/git/tree-read';
import { createOperationRunner, type OperationRunnerOptions } from '../../../electron/operations/operation-runner';
import type { OperationRunner, PlannedFileChange } from '../../../electron/operations/operation-types';

export const FIXED_NOW = (): Date => new Date('2025-06-01T12:00:00.000Z');

export function tempDir(prefix: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `arbor-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface Engine {
  readonly store: SessionStore;
  readonly objects: SnapshotStore;
  readonly runner: OperationRunner;
  close(): void;
}

export function openEngine(dataDir: string, extra: Partial<OperationRunnerOptions> = {}): Engine {
  mkdirSync(dataDir, { recursive: true });
  const store = openSessionStore(join(dataDir, 'arbor.sqlite'));
  const objects = SnapshotStore.open({ dataDir });
  const runner = createOperationRunner({ store, objects: () => objects, now: FIXED_NOW, ...extra });
  return {
    store,
    objects,
    runner,
    close() {
      objects.close();
      store.close();
    },
  };
}

/** A file's content and kind: plain, executable, or a symlink (content = its target). */
export type Entry = { readonly kind: 'file' | 'exec' | 'link'; readonly bytes: Buffer };

export function writeEntry(root: string, path: string, entry: Entry): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  if (entry.kind === 'link') symlinkSync(entry.bytes, full);
  else writeFileSync(full, entry.bytes, { mode: entry.kind === 'exec' ? 0o755 : 0o644 });
}

/** Every file below `root` (ignored ones and `.git` too) as path → kind + base64 bytes. Folders are not listed. */
export function listWorkspace(root: string, dir = '', out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = dir === '' ? name : `${dir}/${name}`;
    const full = join(root, path);
    const info = lstatSync(full);
    if (info.isSymbolicLink()) out.set(path, `link:${readlinkSync(full, { encoding: 'buffer' }).toString('base64')}`);
    else if (info.isDirectory()) listWorkspace(root, path, out);
    else out.set(path, `${info.mode & 0o111 ? 'exec' : 'file'}:${readFileSync(full).toString('base64')}`);
  }
  return out;
}

/**
 * The whole tree below `root`: every file as listWorkspace shows it (with its exact permission bits) and every
 * folder, empty ones included (`dir:` and its bits), so a test can say "the same folder structure, byte for byte".
 */
export function listTree(root: string, dir = '', out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = dir === '' ? name : `${dir}/${name}`;
    const full = join(root, path);
    const info = lstatSync(full);
    if (info.isSymbolicLink()) out.set(path, `link:${readlinkSync(full, { encoding: 'buffer' }).toString('base64')}`);
    else if (info.isDirectory()) {
      out.set(`${path}/`, `dir:${(info.mode & 0o777).toString(8)}`);
      listTree(root, path, out);
    } else out.set(path, `file:${(info.mode & 0o777).toString(8)}:${readFileSync(full).toString('base64')}`);
  }
  return out;
}

/** The plan that turns a workspace holding snapshot `from` into snapshot `to`. */
export function planBetween(objects: SnapshotStore, from: string, to: string): PlannedFileChange[] {
  const diff = diffSnapshots(objects, from, to);
  return [
    ...diff.added.map((f) => ({ path: f.path, expected: null, target: { oid: f.oid, mode: f.mode } })),
    ...diff.modified.map((f) => ({ path: f.path, expected: { oid: f.before.oid, mode: f.before.mode }, target: { oid: f.after.oid, mode: f.after.mode } })),
    ...diff.deleted.map((f) => ({ path: f.path, expected: { oid: f.oid, mode: f.mode }, target: null })),
  ];
}

export async function capture(objects: SnapshotStore, root: string): Promise<string> {
  return (await captureDirectory(objects, root)).treeOid;
}
