/**
 * The merge plan: walks the two change lists base→ours and base→theirs side by side and decides,
 * for each stretch, whether one side's change is taken or both sides touched it (a conflict), as
 * git's xdl_do_merge does. Conflicts are then narrowed by diffing ours against theirs inside each.
 */
import type { Hunk } from './compact';
import { diffIds } from './diff';
import { type LineText, textHasAlnum } from './lines';
import type { DiffScratch } from './myers';

export const EntryMode = {
  Conflict: 0,
  Ours: 1,
  Theirs: 2,
  Both: 3,
  /** A conflict whose two sides turned out identical. */
  Identical: 4,
} as const;
export type EntryMode = (typeof EntryMode)[keyof typeof EntryMode];

/**
 * One stretch of the merge. `oursStart/oursCount` and `theirsStart/theirsCount` point into each
 * side's post-image; `baseStart/baseCount` into the common base.
 */
export interface PlanEntry {
  mode: EntryMode;
  baseStart: number;
  baseCount: number;
  oursStart: number;
  oursCount: number;
  theirsStart: number;
  theirsCount: number;
}

/** How hard conflicts are narrowed (git's XDL_MERGE_* levels). */
export const MergeLevel = {
  Minimal: 0,
  Eager: 1,
  Zealous: 2,
  ZealousAlnum: 3,
} as const;
export type MergeLevel = (typeof MergeLevel)[keyof typeof MergeLevel];

export interface MergeFiles {
  readonly base: Int32Array;
  readonly ours: Int32Array;
  readonly theirs: Int32Array;
  readonly baseLines: LineText;
  readonly oursLines: LineText;
  readonly theirsLines: LineText;
  readonly classes: number;
  readonly scratch: DiffScratch;
}

/** Adds an entry, folding it into the previous one when they touch (which makes a conflict). */
function append(plan: PlanEntry[], entry: PlanEntry): void {
  const last = plan[plan.length - 1];
  if (last && (entry.oursStart <= last.oursStart + last.oursCount || entry.theirsStart <= last.theirsStart + last.theirsCount)) {
    if (entry.mode !== last.mode) last.mode = EntryMode.Conflict;
    last.baseCount = entry.baseStart + entry.baseCount - last.baseStart;
    last.oursCount = entry.oursStart + entry.oursCount - last.oursStart;
    last.theirsCount = entry.theirsStart + entry.theirsCount - last.theirsStart;
  } else {
    plan.push(entry);
  }
}

function sameLines(a: Int32Array, aStart: number, b: Int32Array, bStart: number, count: number): boolean {
  for (let i = 0; i < count; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** Walks both change lists (hunks index base as A, the side as B). */
export function planMerge(files: MergeFiles, oursHunks: readonly Hunk[], theirsHunks: readonly Hunk[], level: MergeLevel): PlanEntry[] {
  const plan: PlanEntry[] = [];
  let x1 = 0;
  let x2 = 0;
  while (x1 < oursHunks.length && x2 < theirsHunks.length) {
    const h1 = oursHunks[x1] as Hunk;
    const h2 = theirsHunks[x2] as Hunk;
    if (h1.startA + h1.countA < h2.startA) {
      append(plan, {
        mode: EntryMode.Ours,
        baseStart: h1.startA,
        baseCount: h1.countA,
        oursStart: h1.startB,
        oursCount: h1.countB,
        theirsStart: h2.startB - h2.startA + h1.startA,
        theirsCount: h1.countA,
      });
      x1++;
      continue;
    }
    if (h2.startA + h2.countA < h1.startA) {
      append(plan, {
        mode: EntryMode.Theirs,
        baseStart: h2.startA,
        baseCount: h2.countA,
        oursStart: h1.startB - h1.startA + h2.startA,
        oursCount: h2.countA,
        theirsStart: h2.startB,
        theirsCount: h2.countB,
      });
      x2++;
      continue;
    }
    const identical =
      level !== MergeLevel.Minimal &&
      h1.startA === h2.startA &&
      h1.countA === h2.countA &&
      h1.countB === h2.countB &&
      sameLines(files.ours, h1.startB, files.theirs, h2.startB, h1.countB);
    if (!identical) {
      // Widen both sides to cover the same base range.
      const off = h1.startA - h2.startA;
      const ffo = off + h1.countA - h2.countA;
      let i0 = h1.startA;
      let i1 = h1.startB;
      let i2 = h2.startB;
      if (off > 0) {
        i0 -= off;
        i1 -= off;
      } else {
        i2 += off;
      }
      let chg0 = h1.startA + h1.countA - i0;
      let chg1 = h1.startB + h1.countB - i1;
      let chg2 = h2.startB + h2.countB - i2;
      if (ffo < 0) {
        chg0 -= ffo;
        chg1 -= ffo;
      } else {
        chg2 += ffo;
      }
      append(plan, { mode: EntryMode.Conflict, baseStart: i0, baseCount: chg0, oursStart: i1, oursCount: chg1, theirsStart: i2, theirsCount: chg2 });
    }
    const end1 = h1.startA + h1.countA;
    const end2 = h2.startA + h2.countA;
    if (end1 >= end2) x2++;
    if (end2 >= end1) x1++;
  }
  const theirsDelta = files.theirs.length - files.base.length;
  for (; x1 < oursHunks.length; x1++) {
    const h1 = oursHunks[x1] as Hunk;
    append(plan, {
      mode: EntryMode.Ours,
      baseStart: h1.startA,
      baseCount: h1.countA,
      oursStart: h1.startB,
      oursCount: h1.countB,
      theirsStart: h1.startA + theirsDelta,
      theirsCount: h1.countA,
    });
  }
  const oursDelta = files.ours.length - files.base.length;
  for (; x2 < theirsHunks.length; x2++) {
    const h2 = theirsHunks[x2] as Hunk;
    append(plan, {
      mode: EntryMode.Theirs,
      baseStart: h2.startA,
      baseCount: h2.countA,
      oursStart: h2.startA + oursDelta,
      oursCount: h2.countA,
      theirsStart: h2.startB,
      theirsCount: h2.countB,
    });
  }
  return plan;
}

/** Splits each conflict into the parts where ours and theirs really differ (xdl_refine_conflicts). */
export function refineConflicts(files: MergeFiles, plan: readonly PlanEntry[]): PlanEntry[] {
  const out: PlanEntry[] = [];
  for (const entry of plan) {
    if (entry.mode !== EntryMode.Conflict || entry.oursCount === 0 || entry.theirsCount === 0) {
      out.push(entry);
      continue;
    }
    const ours = files.ours.subarray(entry.oursStart, entry.oursStart + entry.oursCount);
    const theirs = files.theirs.subarray(entry.theirsStart, entry.theirsStart + entry.theirsCount);
    const hunks = diffIds(ours, theirs, files.classes, files.scratch);
    if (hunks.length === 0) {
      entry.mode = EntryMode.Identical;
      out.push(entry);
      continue;
    }
    for (const h of hunks) {
      out.push({
        mode: EntryMode.Conflict,
        baseStart: entry.baseStart,
        baseCount: entry.baseCount,
        oursStart: entry.oursStart + h.startA,
        oursCount: h.countA,
        theirsStart: entry.theirsStart + h.startB,
        theirsCount: h.countB,
      });
    }
  }
  return out;
}

/** Drops lines that both sides share at the edges of each conflict (zdiff3). */
export function trimConflictEdges(files: MergeFiles, plan: readonly PlanEntry[]): void {
  const { ours, theirs } = files;
  for (const m of plan) {
    if (m.mode !== EntryMode.Conflict) continue;
    while (m.oursCount > 0 && m.theirsCount > 0 && ours[m.oursStart] === theirs[m.theirsStart]) {
      m.oursCount--;
      m.theirsCount--;
      m.oursStart++;
      m.theirsStart++;
    }
    while (m.oursCount > 0 && m.theirsCount > 0 && ours[m.oursStart + m.oursCount - 1] === theirs[m.theirsStart + m.theirsCount - 1]) {
      m.oursCount--;
      m.theirsCount--;
    }
  }
}

function anyAlnum(lines: LineText, start: number, count: number): boolean {
  return count > 0 && textHasAlnum(lines.text, lines.start(start), lines.start(start + count));
}

/**
 * Joins conflicts separated by at most 3 lines, or (alnum level) by lines with no letter or
 * digit, such as `}` and blanks: one bigger conflict reads better than several tiny ones.
 */
export function simplifyNonConflicts(files: MergeFiles, plan: PlanEntry[], joinNonAlnum: boolean): PlanEntry[] {
  const out: PlanEntry[] = [];
  for (const next of plan) {
    const m = out[out.length - 1];
    if (m && m.mode === EntryMode.Conflict && next.mode === EntryMode.Conflict) {
      const begin = m.oursStart + m.oursCount;
      const end = next.oursStart;
      if (end - begin <= 3 || (joinNonAlnum && !anyAlnum(files.oursLines, begin, end - begin))) {
        m.oursCount = next.oursStart + next.oursCount - m.oursStart;
        m.theirsCount = next.theirsStart + next.theirsCount - m.theirsStart;
        const baseEnd = Math.max(m.baseStart + m.baseCount, next.baseStart + next.baseCount);
        m.baseStart = Math.min(m.baseStart, next.baseStart);
        m.baseCount = baseEnd - m.baseStart;
        continue;
      }
    }
    out.push(next);
  }
  return out;
}
