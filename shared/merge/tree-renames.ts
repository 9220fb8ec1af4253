/**
 * Renames: a side that deleted a file and added one like it moved it. The other side's edits to the old path
 * then follow the file to its new path instead of conflicting with a deletion (agents often move a file and
 * edit it in the same step). First exact renames (same blob); then, among the files left, a deleted and an
 * added file at least half alike, as git's default `-M50%` decides: the bytes of the lines they share over
 * the larger file's size. Symlinks, binary files and files over 1 MB are only ever paired exactly.
 */
import { throwIfAborted } from '../errors';
import { isBinaryBytes } from './text-bytes';
import { SYMLINK_MODE, type LoadBlob, type TreeFiles } from './tree-types';

export interface DetectedRename {
  readonly from: string;
  readonly to: string;
  readonly by: 'ours' | 'theirs';
  /** How alike the two files are, 0–1 (1: the same blob). */
  readonly similarity: number;
}

/** git's default rename threshold. */
export const RENAME_SIMILARITY = 0.5;
const MAX_COMPARED_BYTES = 1024 * 1024;
/** Past this many deleted × added pairs on one side, only exact renames are looked for (git's rename limit). */
const MAX_PAIRS = 10_000;

/** Exact renames; with `load`, also renames with edits. */
export async function detectRenames(base: TreeFiles, ours: TreeFiles, theirs: TreeFiles, load?: LoadBlob, signal?: AbortSignal): Promise<DetectedRename[]> {
  const renames: DetectedRename[] = [];
  for (const [by, side, other] of [
    ['ours', ours, theirs],
    ['theirs', theirs, ours],
  ] as const) {
    const deleted = [...base.keys()].filter((path) => !side.has(path)).sort();
    // The other side put its own file there: that is an add/add at `to`, not a place to move edits to.
    const added = [...side.keys()].filter((path) => !base.has(path) && !other.has(path)).sort();
    const exact = exactRenames(by, base, side, deleted, added);
    renames.push(...exact);
    if (load === undefined) continue;
    const paired = new Set(exact.flatMap((rename) => [rename.from, rename.to]));
    // Only a file the other side still has can carry its edits over; other deletions are settled by path.
    const sources = deleted.filter((path) => !paired.has(path) && other.has(path));
    renames.push(...(await similarRenames(by, base, side, sources, added.filter((path) => !paired.has(path)), load, signal)));
  }
  return renames;
}

function exactRenames(by: 'ours' | 'theirs', base: TreeFiles, side: TreeFiles, deleted: readonly string[], added: readonly string[]): DetectedRename[] {
  const deletedByOid = new Map<string, string[]>();
  for (const path of deleted) {
    const oid = base.get(path)!.oid;
    const list = deletedByOid.get(oid);
    if (list === undefined) deletedByOid.set(oid, [path]);
    else list.push(path);
  }
  const renames: DetectedRename[] = [];
  for (const to of added) {
    // Several identical deleted files: pair them in path order, one each.
    const from = deletedByOid.get(side.get(to)!.oid)?.shift();
    if (from !== undefined) renames.push({ from, to, by, similarity: 1 });
  }
  return renames;
}

async function similarRenames(
  by: 'ours' | 'theirs',
  base: TreeFiles,
  side: TreeFiles,
  deleted: readonly string[],
  added: readonly string[],
  load: LoadBlob,
  signal: AbortSignal | undefined,
): Promise<DetectedRename[]> {
  if (deleted.length === 0 || added.length === 0 || deleted.length * added.length > MAX_PAIRS) return [];
  const sources = await fingerprints(deleted, base, load, signal);
  const targets = await fingerprints(added, side, load, signal);
  const pairs: { from: string; to: string; similarity: number }[] = [];
  for (const [to, target] of targets) {
    throwIfAborted(signal);
    for (const [from, source] of sources) {
      const larger = Math.max(source.size, target.size);
      // Even sharing every line of the smaller file could not reach the threshold.
      if (Math.min(source.size, target.size) < RENAME_SIMILARITY * larger) continue;
      const similarity = larger === 0 ? 1 : sharedBytes(source.lines, target.lines) / larger;
      if (similarity >= RENAME_SIMILARITY) pairs.push({ from, to, similarity });
    }
  }
  // The most alike first; each file is paired once.
  pairs.sort((a, b) => b.similarity - a.similarity || (a.to < b.to ? -1 : a.to > b.to ? 1 : a.from < b.from ? -1 : 1));
  const used = new Set<string>();
  const renames: DetectedRename[] = [];
  for (const pair of pairs) {
    if (used.has(`-${pair.from}`) || used.has(`+${pair.to}`)) continue;
    used.add(`-${pair.from}`).add(`+${pair.to}`);
    renames.push({ ...pair, by });
  }
  return renames;
}

interface Fingerprint {
  readonly size: number;
  /** Per distinct line (hash and length), how many times it occurs. */
  readonly lines: ReadonlyMap<number, number>;
}

async function fingerprints(paths: readonly string[], files: TreeFiles, load: LoadBlob, signal: AbortSignal | undefined): Promise<Map<string, Fingerprint>> {
  const out = new Map<string, Fingerprint>();
  for (const path of paths) {
    throwIfAborted(signal);
    const file = files.get(path)!;
    if (file.mode === SYMLINK_MODE) continue;
    const bytes = await load(file.oid);
    if (bytes.length > MAX_COMPARED_BYTES || isBinaryBytes(bytes)) continue;
    out.set(path, { size: bytes.length, lines: lineCounts(bytes) });
  }
  return out;
}

const LENGTH_UNIT = 2 ** 32;

/** Lines (each with its newline) as FNV-1a hash + length keys; a rare collision only nudges a score. */
function lineCounts(bytes: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  let hash = 0x811c9dc5;
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    if (byte === 0x0a || i === bytes.length - 1) {
      const key = (hash >>> 0) + ((i + 1 - start) % 2 ** 20) * LENGTH_UNIT;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      hash = 0x811c9dc5;
      start = i + 1;
    }
  }
  return counts;
}

function sharedBytes(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const [key, count] of small) {
    const other = large.get(key);
    if (other !== undefined) shared += Math.min(count, other) * Math.floor(key / LENGTH_UNIT);
  }
  return shared;
}
