/**
 * Applies hunks that are placed by their context, not by line numbers (Codex `apply_patch`, FORMATS.md §2.2),
 * the way the tool itself does, so a replay gives the file the tool wrote: the text is split on "\n" (a final
 * newline drops the empty last line), each hunk's `@@ <context>` line and then its old lines are searched for
 * from where the previous hunk ended (or, with `*** End of File`, at the end), matched exactly, then with
 * trailing whitespace, then with surrounding whitespace ignored; the matched lines are replaced by the new
 * ones; the result always ends with a newline. A hunk that is found nowhere gives null, never a guess. (The
 * tool's last, Unicode-punctuation-folding match is not tried: a file it alone would match becomes unknown.)
 */
import type { ContextHunk } from '../../importers/transcript';

type Compare = (a: string, b: string) => boolean;
const COMPARES: readonly Compare[] = [(a, b) => a === b, (a, b) => a.trimEnd() === b.trimEnd(), (a, b) => a.trim() === b.trim()];

/** The first index at or after `start` where `pattern` occurs in `lines`, or -1. */
function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const from = endOfFile ? lines.length - pattern.length : start;
  for (const same of COMPARES) {
    for (let i = from; i <= lines.length - pattern.length; i++) {
      let match = true;
      for (let j = 0; j < pattern.length && match; j++) match = same(lines[i + j]!, pattern[j]!);
      if (match) return i;
    }
  }
  return -1;
}

/** `text` with `hunks` applied, or null when a hunk's context or old lines are not in the text. */
export function applyContextPatch(text: string, hunks: readonly ContextHunk[]): string | null {
  if (hunks.length === 0) return text;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: [at: number, length: number, lines: readonly string[]][] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    if (hunk.context !== null) {
      const at = seekSequence(lines, [hunk.context], cursor, false);
      if (at < 0) return null;
      cursor = at + 1;
    }
    if (hunk.oldLines.length === 0) {
      // A pure addition goes at the end of the file (before a last empty line, as the tool puts it).
      replacements.push([lines[lines.length - 1] === '' ? lines.length - 1 : lines.length, 0, hunk.newLines]);
      continue;
    }
    let pattern = hunk.oldLines;
    let added = hunk.newLines;
    let at = seekSequence(lines, pattern, cursor, hunk.endOfFile);
    if (at < 0 && pattern[pattern.length - 1] === '') {
      // The trailing empty line stands for the file's final newline: try without it.
      pattern = pattern.slice(0, -1);
      if (added[added.length - 1] === '') added = added.slice(0, -1);
      at = seekSequence(lines, pattern, cursor, hunk.endOfFile);
    }
    if (at < 0) return null;
    replacements.push([at, pattern.length, added]);
    cursor = at + pattern.length;
  }
  replacements.sort((a, b) => a[0] - b[0]);
  // Applied from the end so earlier indices stay valid.
  for (let r = replacements.length - 1; r >= 0; r--) {
    const [at, length, added] = replacements[r]!;
    lines.splice(at, length, ...added);
  }
  if (lines[lines.length - 1] !== '') lines.push('');
  return lines.join('\n');
}
