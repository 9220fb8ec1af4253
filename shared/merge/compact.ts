/**
 * Post-processing of a line diff as git's xdiff does it (xdl_change_compact, xdl_build_script):
 * slide each group of changed lines as far down as it goes, then back up to line up with a change
 * on the other side if one is in reach. Matching this exactly is what makes conflicts fall where
 * git puts them, e.g. which of several identical `}` lines counts as inserted.
 */
import type { ChangedFlags } from './myers';

/** One change: `countA` lines at `startA` in a became `countB` lines at `startB` in b. */
export interface Hunk {
  readonly startA: number;
  readonly countA: number;
  readonly startB: number;
  readonly countB: number;
}

/** A group of changed lines [start, end) in one file; empty groups sit between unchanged lines. */
interface Group {
  start: number;
  end: number;
}

// `changed` has a zero sentinel on both ends: line i is flag i + 1.
function isChanged(changed: ChangedFlags, line: number): boolean {
  return changed[line + 1] === 1;
}

function groupNext(changed: ChangedFlags, n: number, g: Group): boolean {
  if (g.end === n) return false;
  g.start = g.end + 1;
  g.end = g.start;
  while (isChanged(changed, g.end)) g.end++;
  return true;
}

function groupPrevious(changed: ChangedFlags, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  g.start = g.end;
  while (isChanged(changed, g.start - 1)) g.start--;
  return true;
}

function slideDown(ids: Int32Array, changed: ChangedFlags, g: Group): boolean {
  if (g.end < ids.length && ids[g.start] === ids[g.end]) {
    changed[g.start + 1] = 0;
    g.start++;
    changed[g.end + 1] = 1;
    g.end++;
    while (isChanged(changed, g.end)) g.end++;
    return true;
  }
  return false;
}

function slideUp(ids: Int32Array, changed: ChangedFlags, g: Group): boolean {
  if (g.start > 0 && ids[g.start - 1] === ids[g.end - 1]) {
    g.start--;
    changed[g.start + 1] = 1;
    g.end--;
    changed[g.end + 1] = 0;
    while (isChanged(changed, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

function broken(what: string): never {
  throw new Error(`merge engine: group sync broken ${what}`);
}

/** Slides the change groups of one file (ids / changed) against the other file's groups. */
export function compactChanges(ids: Int32Array, changed: ChangedFlags, otherIds: Int32Array, otherChanged: ChangedFlags): void {
  const n = ids.length;
  const otherN = otherIds.length;
  const g: Group = { start: 0, end: 0 };
  const go: Group = { start: 0, end: 0 };
  while (isChanged(changed, g.end)) g.end++;
  while (isChanged(otherChanged, go.end)) go.end++;

  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(ids, changed, g)) {
          if (!groupPrevious(otherChanged, go)) broken('sliding up');
        }
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!slideDown(ids, changed, g)) break;
          if (!groupNext(otherChanged, otherN, go)) broken('sliding down');
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);

      if (g.end !== earliestEnd && endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!slideUp(ids, changed, g)) broken('sliding to match');
          if (!groupPrevious(otherChanged, go)) broken('sliding to match');
        }
      }
    }
    if (!groupNext(changed, n, g)) break;
    if (!groupNext(otherChanged, otherN, go)) broken('moving to next group');
  }
}

/** Collects the changed-line groups of both files into hunks, in file order (xdl_build_script). */
export function buildHunks(changedA: ChangedFlags, lengthA: number, changedB: ChangedFlags, lengthB: number): Hunk[] {
  const hunks: Hunk[] = [];
  for (let i1 = lengthA, i2 = lengthB; i1 >= 0 || i2 >= 0; i1--, i2--) {
    if (changedA[i1] === 1 || changedB[i2] === 1) {
      const l1 = i1;
      const l2 = i2;
      while (changedA[i1] === 1) i1--;
      while (changedB[i2] === 1) i2--;
      hunks.push({ startA: i1, countA: l1 - i1, startB: i2, countB: l2 - i2 });
    }
  }
  return hunks.reverse();
}
