/**
 * The file trees a merge compares, whichever way a node's state is known: an exact snapshot (or a live
 * folder captured now) knows every file; a reconstruction knows the files the session touched and nothing
 * else. `combineTrees` turns the three partial views into the full maps the pure tree merge takes.
 */
import type { GitEnvironment } from '../git/ignore-files';
import { existsSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { captureDirectory } from '../git/capture';
import { hashObject } from '../git/git-object';
import type { SnapshotStore } from '../git/object-store';
import { StatCache } from '../git/stat-cache';
import { listSnapshotFiles } from '../git/tree-read';
import { doubtOf, type NodeState } from '../service/workspace-state';
import { replayIsStale } from '../snapshots/rewind';
import type { TreeFile, TreeFiles } from '../../shared/merge';

/** What one node's state says about workspace files (workspace-relative paths). */
export interface TreeView {
  readonly files: TreeFiles;
  /** Whether the state knows the path at all (a known path missing from `files` is absent). */
  knows(path: string): boolean;
  /** Every path the state knows or has (for the union of paths). */
  readonly paths: Iterable<string>;
}

export const EMPTY_TREE: TreeView = { files: new Map(), knows: () => true, paths: [] };

/** Blobs of the merge: the snapshot store, plus texts rebuilt from transcripts (stored only when applied). */
export class MergeBlobs {
  readonly memory = new Map<string, Buffer>();
  constructor(private readonly objects: SnapshotStore) {}
  load = (oid: string): Buffer => this.memory.get(oid) ?? this.objects.readBlob(oid);
  addText(text: string): string {
    const bytes = Buffer.from(text, 'utf8');
    const oid = hashObject('blob', bytes).toString('hex');
    this.memory.set(oid, bytes);
    return oid;
  }
}

export function snapshotTree(objects: SnapshotStore, treeOid: string, except: ReadonlySet<string> = new Set()): TreeView {
  const files = new Map<string, TreeFile>();
  for (const file of listSnapshotFiles(objects, treeOid)) files.set(file.path, { oid: file.oid, mode: file.mode });
  // Files a capture skipped (too large, unreadable) are not known: they must not look deleted.
  return { files, knows: (path) => !except.has(path), paths: [...files.keys()] };
}

/**
 * A live folder's current files: captured now, incrementally (the folder's stat cache), without recording a
 * snapshot node. The caller holds the workspace write queue.
 */
export async function captureLiveTree(objects: SnapshotStore, dir: string, signal: AbortSignal, git?: GitEnvironment): Promise<{ treeOid: string; view: TreeView }> {
  const statCache = await StatCache.forDirectory(objects, dir);
  const captured = await captureDirectory(objects, dir, { signal, statCache, ...(git ? { git } : {}) });
  const skipped = new Set(captured.skipped.map((file) => file.path));
  return { treeOid: captured.treeOid, view: snapshotTree(objects, captured.treeOid, skipped) };
}

/** A reconstructed state as a tree: its known touched files under `root`, as texts (mode assumed 100644). */
export function reconstructedTree(state: NodeState, root: string, blobs: MergeBlobs): TreeView {
  const files = new Map<string, TreeFile>();
  const known = new Set<string>();
  for (const absolute of state.paths()) {
    const path = workspacePath(root, absolute);
    if (path === null) continue;
    const content = state.content(absolute);
    // A replay known to be stale (changed outside the transcript) is as unknown as no replay: never merged as a side's file.
    const doubt = doubtOf(state, absolute);
    if (doubt !== undefined && replayIsStale(doubt.reason)) continue;
    if (content === null) known.add(path);
    else if (typeof content === 'string') {
      known.add(path);
      files.set(path, { oid: blobs.addText(content), mode: '100644' });
    }
    // Unknown content: the path stays unknown, never guessed.
  }
  return { files, knows: (path) => known.has(path), paths: known };
}

/** `absolute` relative to `root` with '/' separators, or null when it lies outside. */
export function workspacePath(root: string, absolute: string): string | null {
  const path = relative(root, absolute);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return null;
  return path.split(sep).join('/');
}

/**
 * A snapshot node stands for its folder as it is now when the folder is the node's live workspace: a fork's
 * directory, or the newest manual or merge snapshot of a folder that still exists. Older snapshots and hook
 * snapshots stand for the moment they were taken.
 */
export function isLiveSnapshot(store: SessionStore, record: SnapshotRecord): boolean {
  if (!existsSync(record.dir)) return false;
  switch (record.kind ?? 'manual') {
    case 'fork':
      return true;
    case 'hook':
      return false;
    case 'manual':
    case 'merge': {
      const newest = store.getSessionSnapshots(record.sessionId).filter((other) => other.dir === record.dir && other.kind !== 'hook').at(-1);
      return newest?.id === record.id;
    }
  }
}

export interface CombinedTrees {
  readonly base: Map<string, TreeFile>;
  readonly ours: Map<string, TreeFile>;
  readonly theirs: Map<string, TreeFile>;
}

/**
 * Fills the gaps of partial views. The base falls back to `baseFallback` (a fork's tree at its fork point)
 * and is otherwise absent where it knows nothing, so two differing sides conflict rather than one silently
 * winning. A side that does not know a path (a reconstruction that never touched it) left it as the base
 * had it, or, when the base does not know it either, as the other side has it.
 */
export function combineTrees(base: TreeView, baseFallback: TreeView | null, ours: TreeView, theirs: TreeView): CombinedTrees {
  const combined: CombinedTrees = { base: new Map(), ours: new Map(), theirs: new Map() };
  const paths = new Set<string>();
  for (const view of [base, baseFallback, ours, theirs]) if (view !== null) for (const path of view.paths) paths.add(path);
  const set = (map: Map<string, TreeFile>, path: string, file: TreeFile | undefined): void => {
    if (file !== undefined) map.set(path, file);
  };
  for (const path of paths) {
    const baseKnows = base.knows(path) || (baseFallback?.knows(path) ?? false);
    const baseFile = base.knows(path) ? base.files.get(path) : baseFallback?.files.get(path);
    set(combined.base, path, baseFile);
    const sideFile = (side: TreeView, other: TreeView): TreeFile | undefined => {
      if (side.knows(path)) return side.files.get(path);
      if (baseKnows) return baseFile;
      return other.knows(path) ? other.files.get(path) : undefined;
    };
    // Nobody knows this path but a side that does not have it: leave it out of the merge.
    if (!ours.knows(path) && !theirs.knows(path) && !baseKnows) continue;
    set(combined.ours, path, sideFile(ours, theirs));
    set(combined.theirs, path, sideFile(theirs, ours));
  }
  return combined;
}
