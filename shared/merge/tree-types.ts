/** Types of the tree merge (tree-merge.ts): files by path, and what the automatic merge made of each. */
import type { MergeFileEntry } from '../operations';
import type { TextEncodingName } from './text-bytes';
import type { MergeLabels, MergeRegion, MergeStyle } from './types';

/** Git's file modes: regular, executable, symbolic link (the blob holds the link's target). */
export type TreeFileMode = '100644' | '100755' | '120000';
export const SYMLINK_MODE: TreeFileMode = '120000';

/** One file of a tree: its git blob id and mode. */
export interface TreeFile {
  readonly oid: string;
  readonly mode: TreeFileMode;
}

/** A tree's files by workspace-relative, '/'-separated path. */
export type TreeFiles = ReadonlyMap<string, TreeFile>;

/** Reads a blob's bytes (the snapshot store on the main side; a cache of fetched files in the renderer). */
export type LoadBlob = (oid: string) => Uint8Array | Promise<Uint8Array>;

export interface TreeMergeInput {
  readonly base: TreeFiles;
  readonly ours: TreeFiles;
  readonly theirs: TreeFiles;
  readonly load: LoadBlob;
  /** Marker style and labels for text conflicts (defaults: git's `merge` style, "ours" / "base" / "theirs"). */
  readonly style?: MergeStyle;
  readonly labels?: MergeLabels;
  readonly signal?: AbortSignal;
}

/** What a path holds after the automatic merge (for a conflict: the provisional result, never applied as is). */
export type MergedContent =
  /** An existing blob: one side's content, possibly with the other side's mode. */
  | { readonly kind: 'file'; readonly file: TreeFile }
  /** Text the merge produced (with conflict markers when conflicted). */
  | { readonly kind: 'text'; readonly bytes: Uint8Array; readonly mode: TreeFileMode }
  | { readonly kind: 'deleted' };

export interface TreeMergeFile {
  readonly entry: MergeFileEntry;
  /** The versions merged (after following a rename: the base and the renaming side's old path). */
  readonly base: TreeFile | null;
  readonly ours: TreeFile | null;
  readonly theirs: TreeFile | null;
  readonly result: MergedContent;
  /** Text merges: the regions (so a conflict can be settled per hunk) and how the bytes were decoded. */
  readonly text?: { readonly regions: readonly MergeRegion[]; readonly encoding: TextEncodingName };
  /** Set when the file's mode merged cleanly; a `mode` conflict leaves it unset. */
  readonly mergedMode?: TreeFileMode;
}

export interface TreeMergeResult {
  /** Every path that differs between any two of base, ours and theirs, sorted by path. */
  readonly files: readonly TreeMergeFile[];
  readonly conflicted: number;
}
