/**
 * The three versions of a merge as line ids. Only the base is hashed line by line: the lines all
 * three share at the start and at the end, and then each run of a side's lines that equals the
 * base's where the side is (most of a side, between its edits), take the base's ids, the run found
 * by comparing the texts a run at a time. The diffs still see every line: git counts a line's
 * occurrences over the whole files and slides changes across the shared edges, so trimming them
 * from the diff would change its output.
 */
import { LineInterner, LineText } from './lines';

export interface MergeSides {
  readonly base: LineText;
  readonly ours: LineText;
  readonly theirs: LineText;
  readonly baseIds: Int32Array;
  readonly oursIds: Int32Array;
  readonly theirsIds: Int32Array;
  /** How many distinct lines there are: every id is below it. */
  readonly classes: number;
}

/** After a line the base does not have where the side is, how far ahead the base is searched for it. */
const RESYNC_WINDOW = 64;
/** How many lines after it must match too before the side counts as back in step with the base. */
const RESYNC_CONFIRM = 4;
/** At most this many candidates are compared per line, so very different files stay cheap. */
const RESYNC_TRIES = 3;

// Compared a chunk at a time by the engine's own string comparison, not a character at a time
// (=== between two slices is a memory compare; startsWith at an offset is many times slower).
const FIRST_CHUNK = 64;

/** Length of the common start of a and b, at most `limit`. */
function commonStart(a: string, b: string, limit: number): number {
  let n = 0;
  let chunk = FIRST_CHUNK;
  while (n < limit) {
    const size = Math.min(chunk, limit - n);
    if (a.slice(n, n + size) === b.slice(n, n + size)) {
      n += size;
      chunk *= 2;
    } else if (size > 8) {
      chunk = size >> 1;
    } else {
      while (n < limit && a.charCodeAt(n) === b.charCodeAt(n)) n++;
      return n;
    }
  }
  return n;
}

/** Length of the common end of a and b, at most `limit`. */
function commonEnd(a: string, b: string, limit: number): number {
  let n = 0;
  let chunk = FIRST_CHUNK;
  while (n < limit) {
    const size = Math.min(chunk, limit - n);
    if (a.slice(a.length - n - size, a.length - n) === b.slice(b.length - n - size, b.length - n)) {
      n += size;
      chunk *= 2;
    } else if (size > 8) {
      chunk = size >> 1;
    } else {
      while (n < limit && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
      return n;
    }
  }
  return n;
}

/** Index of the first line ending past `offset` (lines before it end at or before it). */
function linesEndingBy(lines: LineText, offset: number): number {
  let low = 0;
  let high = lines.count;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((lines.ends[mid] as number) <= offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whole lines shared by the three texts: `start` lines at the beginning, `end` lines at the end. */
export function sharedEdges(base: LineText, ours: LineText, theirs: LineText): { start: number; end: number } {
  const b = base.text;
  const shortest = Math.min(b.length, ours.text.length, theirs.text.length);
  let chars = commonStart(b, ours.text, shortest);
  chars = commonStart(b, theirs.text, chars);
  // Only lines ended by a "\n" inside the shared start are whole in all three ("a" vs "a\nb").
  const startChars = chars === 0 ? 0 : b.lastIndexOf('\n', chars - 1) + 1;
  const start = linesEndingBy(base, startChars);

  let tail = commonEnd(b, ours.text, shortest - chars);
  tail = commonEnd(b, theirs.text, tail);
  // A line of the shared end starts after a "\n" that is itself shared, so it starts a line in all three.
  const newline = tail === 0 ? -1 : b.indexOf('\n', b.length - tail);
  const end = newline === -1 ? 0 : base.count - linesEndingBy(base, newline + 1);
  return { start, end };
}

/** Whether lines [j, j + n) of the base and [i, i + n) of the side are the same text. */
function sameLines(base: LineText, j: number, side: LineText, i: number, n: number): boolean {
  const baseStart = base.start(j);
  const baseEnd = base.ends[j + n - 1] as number;
  const sideStart = side.start(i);
  if ((side.ends[i + n - 1] as number) - sideStart !== baseEnd - baseStart) return false;
  // Equal text of equal length from two line starts: the same lines, "\n" for "\n".
  return side.text.slice(sideStart, sideStart + baseEnd - baseStart) === base.text.slice(baseStart, baseEnd);
}

/** How many lines from base line j on equal the side's from line i on, found by galloping. */
function sameRun(base: LineText, j: number, baseTo: number, side: LineText, i: number, sideTo: number): number {
  const limit = Math.min(baseTo - j, sideTo - i);
  let good = 0;
  let bad = limit + 1;
  let probe = Math.min(1, limit);
  while (probe > good && probe < bad) {
    if (sameLines(base, j, side, i, probe)) good = probe;
    else bad = probe;
    probe = bad > limit ? Math.min(good * 2, limit) : (good + bad) >> 1;
  }
  return good;
}

/**
 * Where the side is in the base again after line i - 1 (id `id`) did not follow on at base line j:
 * just after the nearest copy of that line, behind or ahead, that the next few lines follow too.
 * Code repeats `}` and blank lines too often for one line to tell, and a wrong guess only costs
 * time: lines are copied from the base only once their text is compared.
 */
function resync(base: LineText, baseIds: Int32Array, baseTo: number, side: LineText, i: number, sideTo: number, id: number, j: number): number {
  const confirm = Math.min(RESYNC_CONFIRM, sideTo - i);
  let tries = 0;
  for (let distance = 0; distance < RESYNC_WINDOW && tries < RESYNC_TRIES; distance++) {
    for (const k of distance === 0 ? [j] : [j - distance, j + distance]) {
      if (k < 0 || k + 1 + confirm > baseTo || baseIds[k] !== id) continue;
      tries++;
      if (confirm === 0 || sameLines(base, k + 1, side, i, confirm)) return k + 1;
    }
  }
  return j;
}

/** Ids of the side's lines [from, to): runs equal to the base's copied, other lines interned. */
function internSide(interner: LineInterner, base: LineText, baseIds: Int32Array, baseTo: number, side: LineText, ids: Int32Array, from: number, to: number): void {
  let j = from;
  for (let i = from; i < to; ) {
    const run = j < baseTo ? sameRun(base, j, baseTo, side, i, to) : 0;
    if (run > 0) {
      ids.set(baseIds.subarray(j, j + run), i);
      i += run;
      j += run;
      continue;
    }
    const id = interner.internLine(side, i);
    ids[i++] = id;
    j = resync(base, baseIds, baseTo, side, i, to, id, j);
  }
}

export function internSides(baseText: string, oursText: string, theirsText: string): MergeSides {
  const base = new LineText(baseText);
  const ours = new LineText(oursText);
  const theirs = new LineText(theirsText);
  const interner = new LineInterner();
  const baseIds = new Int32Array(base.count);
  const oursIds = new Int32Array(ours.count);
  const theirsIds = new Int32Array(theirs.count);
  const shared = sharedEdges(base, ours, theirs);

  interner.internText(base, 0, base.count, baseIds, 0);
  oursIds.set(baseIds.subarray(0, shared.start));
  theirsIds.set(baseIds.subarray(0, shared.start));
  const baseEnd = baseIds.subarray(base.count - shared.end);
  oursIds.set(baseEnd, ours.count - shared.end);
  theirsIds.set(baseEnd, theirs.count - shared.end);
  const baseTo = base.count - shared.end;
  internSide(interner, base, baseIds, baseTo, ours, oursIds, shared.start, ours.count - shared.end);
  internSide(interner, base, baseIds, baseTo, theirs, theirsIds, shared.start, theirs.count - shared.end);
  return { base, ours, theirs, baseIds, oursIds, theirsIds, classes: interner.size };
}
