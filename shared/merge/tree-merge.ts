/**
 * Three-way merge of two trees with their base, file by file, the way git's merge-ort settles each path:
 * a side that left a file alone takes the other side's version; two different changes to a text file go
 * through mergeText; what cannot be mixed (binary content, a deletion against an edit, two different
 * symlink targets, two different mode changes) is a conflict that keeps both versions. Pure, so the merge
 * view can re-run it.
 */
import { throwIfAborted } from '../errors';
import type { MergeConflictKind, MergeFileEntry, MergeFileStatus, MergeSideName } from '../operations';
import { mergeText } from './merge-text';
import { commonEncoding, decodeText, encodeText, isBinaryBytes } from './text-bytes';
import { detectRenames } from './tree-renames';
import {
  SYMLINK_MODE,
  type MergedContent,
  type TreeFile,
  type TreeMergeFile,
  type TreeMergeInput,
  type TreeMergeResult,
} from './tree-types';


export function sameFile(a: TreeFile | null, b: TreeFile | null): boolean {
  if (a === null || b === null) return a === b;
  return a.oid === b.oid && a.mode === b.mode;
}

export async function mergeTrees(input: TreeMergeInput): Promise<TreeMergeResult> {
  const { base, ours, theirs, signal } = input;
  const files: TreeMergeFile[] = [];
  const done = new Set<string>();

  for (const rename of await detectRenames(base, ours, theirs, input.load, signal)) {
    const [side, other] = rename.by === 'ours' ? [ours, theirs] : [theirs, ours];
    const otherOld = other.get(rename.from) ?? null;
    // The other side deleted or moved the file too: nothing of it to carry; plain paths settle it.
    if (otherOld === null || done.has(rename.from) || done.has(rename.to)) continue;
    throwIfAborted(signal);
    const baseOld = base.get(rename.from) ?? null;
    const moved = side.get(rename.to) ?? null;
    const [o, t] = rename.by === 'ours' ? [moved, otherOld] : [otherOld, moved];
    const merged = (await mergePath(rename.to, baseOld, o, t, input)) ?? (await withBinary(takeSide(rename.to, baseOld, o, t, rename.by, moved), input));
    const otherChanged = !sameFile(otherOld, baseOld);
    const changedBy: MergeFileEntry['changedBy'] = otherChanged ? 'both' : rename.by;
    const status: MergeFileStatus = merged.entry.status === 'conflicted' ? 'conflicted' : 'clean';
    files.push({ ...merged, entry: { ...merged.entry, status, changedBy, renamedFrom: rename.from } });
    // The old path goes away with the rename; the other side's edits to it moved with the file.
    files.push({
      entry: { path: rename.from, status: 'deleted', changedBy: rename.by, conflicts: 0 },
      base: baseOld,
      ours: ours.get(rename.from) ?? null,
      theirs: theirs.get(rename.from) ?? null,
      result: { kind: 'deleted' },
    });
    done.add(rename.from).add(rename.to);
  }

  const paths = new Set<string>([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  let checked = 0;
  for (const path of paths) {
    if (done.has(path)) continue;
    if (++checked % 256 === 0) throwIfAborted(signal);
    const merged = await mergePath(path, base.get(path) ?? null, ours.get(path) ?? null, theirs.get(path) ?? null, input);
    if (merged !== null) files.push(merged);
  }
  files.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));
  return { files, conflicted: files.filter((file) => file.entry.status === 'conflicted').length };
}

/** One path's merge; null when ours, theirs and base all hold the same version. */
async function mergePath(
  path: string,
  b: TreeFile | null,
  o: TreeFile | null,
  t: TreeFile | null,
  input: TreeMergeInput,
): Promise<TreeMergeFile | null> {
  if (sameFile(o, t)) return sameFile(o, b) ? null : withBinary(takeSide(path, b, o, t, 'both', o), input);
  if (sameFile(o, b)) return withBinary(takeSide(path, b, o, t, 'theirs', t), input);
  if (sameFile(t, b)) return withBinary(takeSide(path, b, o, t, 'ours', o), input);

  const binary = await anyBinary([b, o, t], input);
  const flags = binary ? { binary: true as const } : {};
  if (o === null || t === null) {
    // Git leaves the edited version in place; the user chooses between it and the deletion.
    const kept = (o ?? t)!;
    return conflict(path, b, o, t, 'modify/delete', { kind: 'file', file: kept }, flags);
  }

  const mode = mergeValue(b?.mode, o.mode, t.mode);
  const oid = mergeValue(b?.oid, o.oid, t.oid);
  const hasSymlink = [b, o, t].some((file) => file?.mode === SYMLINK_MODE);
  if (oid !== CONFLICT) {
    // Only the modes disagree.
    const file = { oid, mode: mode === CONFLICT ? o.mode : mode };
    if (mode === CONFLICT) return conflict(path, b, o, t, hasSymlink ? 'symlink' : 'mode', { kind: 'file', file }, flags);
    return { entry: entry(path, b === null ? 'added' : 'clean', 'both', flags), base: b, ours: o, theirs: t, result: { kind: 'file', file }, mergedMode: mode };
  }
  // A link's target is one value: two different targets cannot be mixed line by line.
  if (hasSymlink) return conflict(path, b, o, t, 'symlink', { kind: 'file', file: o }, flags);
  if (binary) return conflict(path, b, o, t, 'binary', { kind: 'file', file: o }, flags);

  const [baseBytes, oursBytes, theirsBytes] = await Promise.all([b === null ? new Uint8Array(0) : input.load(b.oid), input.load(o.oid), input.load(t.oid)]);
  const encoding = commonEncoding([baseBytes, oursBytes, theirsBytes]);
  const merged = mergeText(decodeText(baseBytes, encoding), decodeText(oursBytes, encoding), decodeText(theirsBytes, encoding), {
    ...(input.style === undefined ? {} : { style: input.style }),
    ...(input.labels === undefined ? {} : { labels: input.labels }),
  });
  const resultMode = mode === CONFLICT ? o.mode : mode;
  const result: MergedContent = { kind: 'text', bytes: encodeText(merged.text, encoding), mode: resultMode };
  const text = { regions: merged.regions, encoding };
  if (merged.conflicts > 0 || mode === CONFLICT) {
    const kind: MergeConflictKind = merged.conflicts === 0 ? 'mode' : b === null ? 'add/add' : 'content';
    return { ...conflict(path, b, o, t, kind, result, flags), entry: { ...entry(path, 'conflicted', 'both', flags), conflict: kind, conflicts: merged.conflicts }, text };
  }
  return { entry: entry(path, b === null ? 'added' : 'clean', 'both', flags), base: b, ours: o, theirs: t, result, text, mergedMode: mode };
}

const CONFLICT = Symbol('conflict');

/** A value changed by at most one side merges; two different changes conflict. */
function mergeValue<T>(base: T | undefined, ours: T, theirs: T): T | typeof CONFLICT {
  if (ours === theirs) return ours;
  if (ours === base) return theirs;
  if (theirs === base) return ours;
  return CONFLICT;
}

function entry(path: string, status: MergeFileStatus, changedBy: MergeFileEntry['changedBy'], flags: { binary?: true }): MergeFileEntry {
  return { path, status, changedBy, conflicts: 0, ...flags };
}

/** One side's version wins (the other side left the file as the base had it, or both agree). */
function takeSide(
  path: string,
  b: TreeFile | null,
  o: TreeFile | null,
  t: TreeFile | null,
  changedBy: MergeSideName | 'both',
  winner: TreeFile | null,
): TreeMergeFile {
  const status: MergeFileStatus = winner === null ? 'deleted' : b === null ? 'added' : 'clean';
  const result: MergedContent = winner === null ? { kind: 'deleted' } : { kind: 'file', file: winner };
  return { entry: entry(path, status, changedBy, {}), base: b, ours: o, theirs: t, result, ...(winner === null ? {} : { mergedMode: winner.mode }) };
}

function conflict(
  path: string,
  b: TreeFile | null,
  o: TreeFile | null,
  t: TreeFile | null,
  kind: MergeConflictKind,
  result: MergedContent,
  flags: { binary?: true },
): TreeMergeFile {
  const mode = o !== null && t !== null ? mergeValue(b?.mode, o.mode, t.mode) : CONFLICT;
  return {
    entry: { ...entry(path, 'conflicted', 'both', flags), conflict: kind },
    base: b,
    ours: o,
    theirs: t,
    result,
    ...(mode === CONFLICT ? {} : { mergedMode: mode }),
  };
}

async function withBinary(file: TreeMergeFile, input: TreeMergeInput): Promise<TreeMergeFile> {
  if (!(await anyBinary([file.base, file.ours, file.theirs], input))) return file;
  return { ...file, entry: { ...file.entry, binary: true } };
}

async function anyBinary(files: readonly (TreeFile | null)[], input: TreeMergeInput): Promise<boolean> {
  for (const file of files) {
    // A link's target is never shown as file content; it is not "binary" either.
    if (file === null || file.mode === SYMLINK_MODE) continue;
    if (isBinaryBytes(await input.load(file.oid))) return true;
  }
  return false;
}
