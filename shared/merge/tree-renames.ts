/**
 * Exact renames: a side that deleted a file and added one with the same content (same blob) moved it. The
 * other side's edits to the old path then follow the file to its new path instead of conflicting with a
 * deletion. Renames combined with edits on the same side are not detected (they stay a delete plus an add).
 */
import type { TreeFiles } from './tree-types';

export interface DetectedRename {
  readonly from: string;
  readonly to: string;
  readonly by: 'ours' | 'theirs';
}

export function detectRenames(base: TreeFiles, ours: TreeFiles, theirs: TreeFiles): DetectedRename[] {
  return [...renamesOf('ours', base, ours, theirs), ...renamesOf('theirs', base, theirs, ours)];
}

function renamesOf(by: 'ours' | 'theirs', base: TreeFiles, side: TreeFiles, other: TreeFiles): DetectedRename[] {
  const deletedByOid = new Map<string, string[]>();
  for (const [path, file] of base) {
    if (side.has(path)) continue;
    const list = deletedByOid.get(file.oid);
    if (list === undefined) deletedByOid.set(file.oid, [path]);
    else list.push(path);
  }
  if (deletedByOid.size === 0) return [];
  const renames: DetectedRename[] = [];
  const added = [...side.keys()].filter((path) => !base.has(path)).sort();
  for (const to of added) {
    // The other side put its own file there: that is an add/add at `to`, not a place to move edits to.
    if (other.has(to)) continue;
    const candidates = deletedByOid.get(side.get(to)!.oid);
    if (candidates === undefined || candidates.length === 0) continue;
    // Several identical deleted files: pair them in path order, one each.
    candidates.sort();
    const from = candidates.shift()!;
    renames.push({ from, to, by });
  }
  return renames;
}
