/**
 * jsdiff-style `structuredPatch` hunks, as Claude Code stores them on Edit/Write results (FORMATS.md §1.4).
 * Generated edits change one contiguous region, so one hunk around the changed lines (3 lines of context)
 * is what jsdiff would write, give or take how it interleaves -/+ lines inside the region.
 */
import type { PatchHunk } from '../importers/transcript';

export type { PatchHunk };

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === '') return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, endsWithNewline };
}

export function structuredPatch(before: string, after: string): PatchHunk[] {
  if (before === after) return [];
  const a = splitLines(before);
  const b = splitLines(after);
  // Lines compare with their newline, so a changed final newline changes the last line.
  const key = (side: typeof a, i: number) => (i === side.lines.length - 1 && !side.endsWithNewline ? side.lines[i] : `${side.lines[i]}\n`);
  let prefix = 0;
  while (prefix < a.lines.length && prefix < b.lines.length && key(a, prefix) === key(b, prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < a.lines.length - prefix &&
    suffix < b.lines.length - prefix &&
    key(a, a.lines.length - 1 - suffix) === key(b, b.lines.length - 1 - suffix)
  ) {
    suffix++;
  }

  const start = Math.max(0, prefix - CONTEXT);
  const oldEnd = Math.min(a.lines.length, a.lines.length - suffix + CONTEXT);
  const newEnd = Math.min(b.lines.length, b.lines.length - suffix + CONTEXT);
  const lines: string[] = [];
  const push = (marker: string, text: string, isLastOf: { lines: string[]; endsWithNewline: boolean }, index: number) => {
    lines.push(marker + text);
    if (index === isLastOf.lines.length - 1 && !isLastOf.endsWithNewline) lines.push(NO_NEWLINE);
  };
  for (let i = start; i < prefix; i++) push(' ', a.lines[i] ?? '', a, i);
  for (let i = prefix; i < a.lines.length - suffix; i++) push('-', a.lines[i] ?? '', a, i);
  for (let i = prefix; i < b.lines.length - suffix; i++) push('+', b.lines[i] ?? '', b, i);
  for (let i = a.lines.length - suffix; i < oldEnd; i++) push(' ', a.lines[i] ?? '', a, i);

  const oldLines = oldEnd - start;
  const newLines = newEnd - start;
  return [
    {
      // jsdiff numbers an empty side's hunk from the line before it (0 for an empty file).
      oldStart: oldLines === 0 ? start : start + 1,
      oldLines,
      newStart: newLines === 0 ? start : start + 1,
      newLines,
      lines,
    },
  ];
}

/**
 * The hunks as many Claude Code versions store them: display text, where a line's leading tabs are written
 * as two spaces each. On a tab-indented file they may still apply, and then give spaces where the file has tabs.
 */
export function displayHunks(hunks: readonly PatchHunk[]): PatchHunk[] {
  return hunks.map((hunk) => ({
    ...hunk,
    lines: hunk.lines.map((line) => (line.startsWith('\\') ? line : line.charAt(0) + line.slice(1).replace(/^\t+/, (tabs) => '  '.repeat(tabs.length)))),
  }));
}
