/**
 * Myers' O(ND) line diff with the heuristics of git's xdiff (xprepare.c / xdiffi.c), reimplemented
 * so that our merges line up hunk for hunk with `git merge-file`:
 *  - common prefix and suffix are trimmed first;
 *  - lines with no match on the other side are discarded before the search, and so are lines that
 *    occur very often on the other side when they sit in a run of discardable lines;
 *  - the middle-snake search gives up on optimality past a cost limit (about sqrt of the size), so
 *    large, very different inputs stay near-linear instead of quadratic.
 * Inputs are interned line ids; the result marks changed lines on each side.
 */

const MAX_EQ_LIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;
const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_COUNT = 20;
const K_HEUR = 4;
const LINE_MAX = 0x7fffffff;

/** Changed flags with a zero sentinel at both ends: line i is at index i + 1. */
export type ChangedFlags = Uint8Array;

/** Reused per-class counters, so many small diffs (conflict refinement) do not allocate per call. */
export class DiffScratch {
  private countsA = new Int32Array(0);
  private countsB = new Int32Array(0);

  counters(classes: number): { a: Int32Array; b: Int32Array } {
    if (this.countsA.length < classes) {
      const size = Math.max(classes, this.countsA.length * 2, 64);
      this.countsA = new Int32Array(size);
      this.countsB = new Int32Array(size);
    }
    return { a: this.countsA, b: this.countsB };
  }
}

/** Integer square root approximation, as xdl_bogosqrt (the exact value matters for matching git). */
function bogoSqrt(n: number): number {
  let i = 1;
  for (; n > 0; n >>= 2) i <<= 1;
  return i;
}

interface Side {
  readonly ids: Int32Array;
  readonly changed: ChangedFlags;
  /** Positions (in ids) of the lines kept for the search. */
  rindex: Int32Array;
  /** ids of the kept lines, compacted. */
  kept: Int32Array;
  keptCount: number;
}

/** Whether a frequent line sits in a run of unmatched lines and can be discarded too (xdl_clean_mmatch). */
function inDiscardableRun(dis: Uint8Array, i: number, start: number, end: number): boolean {
  const s = i - start > SIMSCAN_WINDOW ? i - SIMSCAN_WINDOW : start;
  const e = end - i > SIMSCAN_WINDOW ? i + SIMSCAN_WINDOW : end;
  let before = 0;
  let beforeMulti = 1;
  for (let r = 1; i - r >= s; r++) {
    const d = dis[i - r];
    if (d === 0) before++;
    else if (d === 2) beforeMulti++;
    else break;
  }
  if (before === 0) return false;
  let after = 0;
  let afterMulti = 1;
  for (let r = 1; i + r <= e; r++) {
    const d = dis[i + r];
    if (d === 0) after++;
    else if (d === 2) afterMulti++;
    else break;
  }
  if (after === 0) return false;
  const unmatched = after + before;
  const multi = afterMulti + beforeMulti;
  return multi * KPDIS_RUN < multi + unmatched;
}

function classify(side: Side, otherCounts: Int32Array, start: number, end: number): void {
  const { ids, changed } = side;
  const limit = Math.min(bogoSqrt(ids.length), MAX_EQ_LIMIT);
  const dis = new Uint8Array(ids.length + 1);
  for (let i = start; i <= end; i++) {
    const matches = otherCounts[ids[i] as number] as number;
    dis[i] = matches === 0 ? 0 : matches >= limit ? 2 : 1;
  }
  const rindex = new Int32Array(Math.max(0, end - start + 1));
  const kept = new Int32Array(rindex.length);
  let count = 0;
  for (let i = start; i <= end; i++) {
    const d = dis[i];
    if (d === 1 || (d === 2 && !inDiscardableRun(dis, i, start, end))) {
      rindex[count] = i;
      kept[count] = ids[i] as number;
      count++;
    } else {
      changed[i + 1] = 1;
    }
  }
  side.rindex = rindex;
  side.kept = kept;
  side.keptCount = count;
}

interface Split {
  i1: number;
  i2: number;
  minLow: boolean;
  minHigh: boolean;
}

interface SearchEnv {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly kvdf: Int32Array;
  readonly kvdb: Int32Array;
  /** Offset added to a diagonal number to index kvdf / kvdb (diagonals may be negative). */
  readonly base: number;
  readonly maxCost: number;
}

/** Finds the middle snake of the box, or a good-enough split once the cost limit is hit (xdl_split). */
function split(env: SearchEnv, off1: number, lim1: number, off2: number, lim2: number, needMin: boolean, spl: Split): void {
  const { a, b, kvdf, kvdb, base } = env;
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[base + fmid] = off1;
  kvdb[base + bmid] = lim1;

  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[base + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[base + ++fmax + 1] = -1;
    else --fmax;

    for (let d = fmax; d >= fmin; d -= 2) {
      const left = kvdf[base + d - 1] as number;
      const right = kvdf[base + d + 1] as number;
      let i1 = left >= right ? left + 1 : right;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && a[i1] === b[i2]) {
        i1++;
        i2++;
      }
      if (i1 - prev1 > SNAKE_COUNT) gotSnake = true;
      kvdf[base + d] = i1;
      if (odd && bmin <= d && d <= bmax && (kvdb[base + d] as number) <= i1) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLow = spl.minHigh = true;
        return;
      }
    }

    if (bmin > dmin) kvdb[base + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[base + ++bmax + 1] = LINE_MAX;
    else --bmax;

    for (let d = bmax; d >= bmin; d -= 2) {
      const left = kvdb[base + d - 1] as number;
      const right = kvdb[base + d + 1] as number;
      let i1 = left < right ? left : right - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && a[i1 - 1] === b[i2 - 1]) {
        i1--;
        i2--;
      }
      if (prev1 - i1 > SNAKE_COUNT) gotSnake = true;
      kvdb[base + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= (kvdf[base + d] as number)) {
        spl.i1 = i1;
        spl.i2 = i2;
        spl.minLow = spl.minHigh = true;
        return;
      }
    }

    if (needMin) continue;

    // Past the trigger cost, accept a diagonal that has come far along a long snake.
    if (gotSnake && ec > HEUR_MIN_COST) {
      let best = 0;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kvdf[base + d] as number;
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > K_HEUR * ec && v > best && off1 + SNAKE_COUNT <= i1 && i1 < lim1 && off2 + SNAKE_COUNT <= i2 && i2 < lim2) {
          for (let k = 1; a[i1 - k] === b[i2 - k]; k++) {
            if (k === SNAKE_COUNT) {
              best = v;
              spl.i1 = i1;
              spl.i2 = i2;
              break;
            }
          }
        }
      }
      if (best > 0) {
        spl.minLow = true;
        spl.minHigh = false;
        return;
      }
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kvdb[base + d] as number;
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_COUNT && off2 < i2 && i2 <= lim2 - SNAKE_COUNT) {
          for (let k = 0; a[i1 + k] === b[i2 + k]; k++) {
            if (k === SNAKE_COUNT - 1) {
              best = v;
              spl.i1 = i1;
              spl.i2 = i2;
              break;
            }
          }
        }
      }
      if (best > 0) {
        spl.minLow = false;
        spl.minHigh = true;
        return;
      }
    }

    // Enough: take the furthest-reaching path, which keeps the worst case near-linear.
    if (ec >= env.maxCost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kvdf[base + d] as number, lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kvdb[base + d] as number);
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) {
        spl.i1 = fbest1;
        spl.i2 = fbest - fbest1;
        spl.minLow = true;
        spl.minHigh = false;
      } else {
        spl.i1 = bbest1;
        spl.i2 = bbest - bbest1;
        spl.minLow = false;
        spl.minHigh = true;
      }
      return;
    }
  }
}

/** Divide and conquer over boxes (xdl_recs_cmp), with an explicit stack instead of recursion. */
function compareBoxes(sideA: Side, sideB: Side, env: SearchEnv, minimal: boolean): void {
  const { a, b } = env;
  const stack: number[] = [0, sideA.keptCount, 0, sideB.keptCount, minimal ? 1 : 0];
  const spl: Split = { i1: 0, i2: 0, minLow: false, minHigh: false };
  while (stack.length > 0) {
    const needMin = stack.pop() === 1;
    let lim2 = stack.pop() as number;
    let off2 = stack.pop() as number;
    let lim1 = stack.pop() as number;
    let off1 = stack.pop() as number;
    while (off1 < lim1 && off2 < lim2 && a[off1] === b[off2]) {
      off1++;
      off2++;
    }
    while (off1 < lim1 && off2 < lim2 && a[lim1 - 1] === b[lim2 - 1]) {
      lim1--;
      lim2--;
    }
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) sideB.changed[(sideB.rindex[off2] as number) + 1] = 1;
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) sideA.changed[(sideA.rindex[off1] as number) + 1] = 1;
    } else {
      spl.i1 = spl.i2 = 0;
      split(env, off1, lim1, off2, lim2, needMin, spl);
      // Order does not matter: each box only marks its own lines.
      stack.push(spl.i1, lim1, spl.i2, lim2, spl.minHigh ? 1 : 0);
      stack.push(off1, spl.i1, off2, spl.i2, spl.minLow ? 1 : 0);
    }
  }
}

/**
 * Marks the changed lines of a → b. `classes` bounds the ids (interner size); `minimal` disables
 * the cost heuristics (git's --minimal).
 */
export function markChanges(
  a: Int32Array,
  b: Int32Array,
  classes: number,
  scratch: DiffScratch,
  minimal = false,
): { changedA: ChangedFlags; changedB: ChangedFlags } {
  const sideA: Side = { ids: a, changed: new Uint8Array(a.length + 2), rindex: new Int32Array(0), kept: new Int32Array(0), keptCount: 0 };
  const sideB: Side = { ids: b, changed: new Uint8Array(b.length + 2), rindex: new Int32Array(0), kept: new Int32Array(0), keptCount: 0 };

  const shortest = Math.min(a.length, b.length);
  let start = 0;
  while (start < shortest && a[start] === b[start]) start++;
  let tail = 0;
  const tailLimit = shortest - start;
  while (tail < tailLimit && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const endA = a.length - tail - 1;
  const endB = b.length - tail - 1;

  // Occurrence counts over the whole files, as xdiff's classifier keeps them.
  const counts = scratch.counters(classes);
  const countsA = counts.a;
  const countsB = counts.b;
  for (let i = 0; i < a.length; i++) countsA[a[i] as number] = (countsA[a[i] as number] as number) + 1;
  for (let i = 0; i < b.length; i++) countsB[b[i] as number] = (countsB[b[i] as number] as number) + 1;
  classify(sideA, counts.b, start, endA);
  classify(sideB, counts.a, start, endB);
  for (let i = 0; i < a.length; i++) counts.a[a[i] as number] = 0;
  for (let i = 0; i < b.length; i++) counts.b[b[i] as number] = 0;

  const diagonals = sideA.keptCount + sideB.keptCount + 3;
  const env: SearchEnv = {
    a: sideA.kept,
    b: sideB.kept,
    kvdf: new Int32Array(diagonals + 1),
    kvdb: new Int32Array(diagonals + 1),
    base: sideB.keptCount + 1,
    maxCost: Math.max(bogoSqrt(diagonals), MAX_COST_MIN),
  };
  compareBoxes(sideA, sideB, env, minimal);
  return { changedA: sideA.changed, changedB: sideB.changed };
}
