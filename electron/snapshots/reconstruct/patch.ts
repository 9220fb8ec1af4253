/**
 * Applies jsdiff-style `structuredPatch` hunks (FORMATS.md §1.4) to a file's text, forward or in reverse,
 * byte for byte: lines are split on "\n" only, so a "\r" stays part of its line and CRLF files round-trip.
 * A hunk must match exactly; when its line numbers are off (earlier hunks changed the count, or the patch
 * was made against a slightly different numbering) the old lines are searched for nearest-first, as jsdiff's
 * own applyPatch does. A patch that does not match gives null, never a guess.
 */

import type { PatchHunk } from '../../importers/transcript';

export type { PatchHunk };

const NO_NEWLINE_PREFIX = '\\';

interface SplitText {
  readonly lines: string[];
  /** False when the text's last line has no "\n" (the patch's "\ No newline at end of file"). */
  readonly endsWithNewline: boolean;
}

function splitText(text: string): SplitText {
  if (text === '') return { lines: [], endsWithNewline: true };
  const lines = text.split('\n');
  const endsWithNewline = lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

function joinText(split: SplitText): string {
  if (split.lines.length === 0) return '';
  return split.lines.join('\n') + (split.endsWithNewline ? '\n' : '');
}

/** One hunk read as its two sides. */
interface HunkSides {
  readonly old: string[];
  readonly new: string[];
  readonly oldEndsWithoutNewline: boolean;
  readonly newEndsWithoutNewline: boolean;
}

function hunkSides(hunk: PatchHunk): HunkSides | null {
  const old: string[] = [];
  const added: string[] = [];
  let oldEndsWithoutNewline = false;
  let newEndsWithoutNewline = false;
  let previous: string | null = null;
  for (const line of hunk.lines) {
    const marker = line.charAt(0);
    const text = line.slice(1);
    if (marker === NO_NEWLINE_PREFIX) {
      // The marker belongs to the line before it: a context line ends both sides, a -/+ line one side.
      if (previous === ' ' || previous === '-') oldEndsWithoutNewline = true;
      if (previous === ' ' || previous === '+') newEndsWithoutNewline = true;
      continue;
    }
    if (marker === ' ' || (marker === '' && line === '')) {
      // Some writers drop the space of an empty context line.
      old.push(text);
      added.push(text);
    } else if (marker === '-') {
      old.push(text);
    } else if (marker === '+') {
      added.push(text);
    } else {
      return null;
    }
    previous = marker === '' ? ' ' : marker;
  }
  return { old, new: added, oldEndsWithoutNewline, newEndsWithoutNewline };
}

function matchesAt(lines: readonly string[], at: number, expected: readonly string[]): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  for (let i = 0; i < expected.length; i++) if (lines[at + i] !== expected[i]) return false;
  return true;
}

/** The nearest position to `hint` (not before `from`) where `expected` occurs, or -1. */
function findHunk(lines: readonly string[], hint: number, from: number, expected: readonly string[]): number {
  const last = lines.length - expected.length;
  const start = Math.min(Math.max(hint, from), Math.max(last, from));
  for (let distance = 0; ; distance++) {
    const after = start + distance;
    const before = start - distance;
    const afterInRange = after <= last;
    const beforeInRange = before >= from;
    if (!afterInRange && !beforeInRange) return -1;
    if (afterInRange && matchesAt(lines, after, expected)) return after;
    if (distance > 0 && beforeInRange && matchesAt(lines, before, expected)) return before;
  }
}

/** `text` with `hunks` applied, or null when a hunk does not match the text. */
export function applyPatch(text: string, hunks: readonly PatchHunk[]): string | null {
  if (hunks.length === 0) return text;
  const source = splitText(text);
  const result: string[] = [];
  let endsWithNewline = source.endsWithNewline;
  let cursor = 0; // next unconsumed source line
  let shift = 0; // how far actual positions have drifted from the hunks' numbering
  for (const hunk of hunks) {
    const sides = hunkSides(hunk);
    if (sides === null) return null;
    // jsdiff numbers a hunk with no old lines from the line before it.
    const stated = hunk.oldLines === 0 && sides.old.length === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = findHunk(source.lines, stated + shift, cursor, sides.old);
    if (at === -1) return null;
    const reachesEnd = at + sides.old.length === source.lines.length;
    // An old side that claims to end without a newline must be the file's real, newline-less end.
    if (sides.oldEndsWithoutNewline && (!reachesEnd || source.endsWithNewline)) return null;
    // …and an old side that reaches a newline-less end must say so.
    if (reachesEnd && sides.old.length > 0 && !source.endsWithNewline && !sides.oldEndsWithoutNewline) return null;
    shift = at - stated;
    for (let i = cursor; i < at; i++) result.push(source.lines[i]!);
    result.push(...sides.new);
    cursor = at + sides.old.length;
    if (reachesEnd) endsWithNewline = !sides.newEndsWithoutNewline;
  }
  for (let i = cursor; i < source.lines.length; i++) result.push(source.lines[i]!);
  return joinText({ lines: result, endsWithNewline });
}

/** The hunks that undo `hunks`: old and new sides swapped (markers keep following their line). */
export function reversePatch(hunks: readonly PatchHunk[]): PatchHunk[] {
  return hunks.map((hunk) => ({
    oldStart: hunk.newStart,
    oldLines: hunk.newLines,
    newStart: hunk.oldStart,
    newLines: hunk.oldLines,
    lines: hunk.lines.map((line) => {
      const marker = line.charAt(0);
      if (marker === '-') return `+${line.slice(1)}`;
      if (marker === '+') return `-${line.slice(1)}`;
      return line;
    }),
  }));
}

/** `after` with `hunks` undone: the text the patch was made from, or null when it does not match. */
export function unapplyPatch(after: string, hunks: readonly PatchHunk[]): string | null {
  return applyPatch(after, reversePatch(hunks));
}

/** Reads `structuredPatch` as written; null when it is not a hunk list. */
export function readHunks(value: unknown): PatchHunk[] | null {
  if (!Array.isArray(value)) return null;
  const hunks: PatchHunk[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return null;
    const hunk = item as Record<string, unknown>;
    const { oldStart, oldLines, newStart, newLines, lines } = hunk;
    if (typeof oldStart !== 'number' || typeof oldLines !== 'number' || typeof newStart !== 'number' || typeof newLines !== 'number') return null;
    if (!Array.isArray(lines) || !lines.every((line): line is string => typeof line === 'string')) return null;
    hunks.push({ oldStart, oldLines, newStart, newLines, lines });
  }
  return hunks;
}
