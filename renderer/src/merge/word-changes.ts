/**
 * Which words changed within changed lines, as GitKraken and Sublime Merge show them. The panes are Arbor's
 * own editors (not @codemirror/merge's MergeView, whose `highlightChanges` only works inside it), so the text
 * of each changed hunk is cut into words and diffed with @codemirror/merge's `diff()`: one character stands
 * for one word, so the diff's ranges fall on word boundaries. DOM-free, computed once when a file opens.
 */
import { diff } from '@codemirror/merge';
import { splitLines, type ConflictRegion, type Hunk, type MergeTextResult } from '../../../shared/merge';
import type { PaneName } from './conflict-locations';

/** Characters [from, to) of one version's text. */
export interface TextRange {
  readonly from: number;
  readonly to: number;
}

export interface WordChanges {
  /** What the first text has that the second does not (removed or replaced words). */
  readonly a: readonly TextRange[];
  /** What the second text has instead (added or replacing words). */
  readonly b: readonly TextRange[];
}

/** Each pane's changed words, in document order, as offsets in that pane's text. */
export type PaneWords = Readonly<Record<PaneName, readonly TextRange[]>>;

const NONE: WordChanges = { a: [], b: [] };
/** A hunk this long is a rewrite: reading it word by word helps nobody, and it would cost time on open. */
const MAX_HUNK_LINES = 60;
const MAX_TOKENS = 4000;
const DIFF_CONFIG = { scanLimit: 2000, timeout: 30 };

/** Words (letters, digits, `_`), runs of blanks, a line break, or any other single character. */
const TOKEN = /[\p{L}\p{N}_]+|[^\S\n]+|\n|./gsu;
const BLANK = /^[^\S\n]+$/;
const WORDLIKE = /[\p{L}\p{N}]/u;

function tokenize(text: string): { readonly tokens: string[]; readonly starts: number[] } {
  const tokens: string[] = [];
  const starts: number[] = [];
  for (const match of text.matchAll(TOKEN)) {
    tokens.push(match[0]);
    starts.push(match.index);
  }
  starts.push(text.length);
  return { tokens, starts };
}

/** Token ids as characters from U+0100: at most 2 × MAX_TOKENS of them, far below the surrogates, so one id is one UTF-16 unit. */
const FIRST_CODE = 0x100;

/** The words that differ between two pieces of text; none when the two share no word (the line colour says it all). */
export function changedWords(a: string, b: string): WordChanges {
  if (a === b) return NONE;
  const left = tokenize(a);
  const right = tokenize(b);
  if (left.tokens.length > MAX_TOKENS || right.tokens.length > MAX_TOKENS) return NONE;
  const ids = new Map<string, string>();
  const encode = (tokens: readonly string[]): string => {
    let out = '';
    for (const token of tokens) {
      let char = ids.get(token);
      if (char === undefined) {
        char = String.fromCharCode(FIRST_CODE + ids.size);
        ids.set(token, char);
      }
      out += char;
    }
    return out;
  };
  const encodedA = encode(left.tokens);
  const encodedB = encode(right.tokens);

  const changes = mergeAcrossBlanks(diff(encodedA, encodedB, DIFF_CONFIG), left.tokens, right.tokens);
  // Nothing but blanks and punctuation in common: every word changed, so marking them adds nothing.
  let sharedWord = false;
  let at = 0;
  for (const change of [...changes, { fromA: left.tokens.length, toA: left.tokens.length }]) {
    for (let i = at; i < change.fromA && !sharedWord; i++) sharedWord = WORDLIKE.test(left.tokens[i] as string);
    at = change.toA;
  }
  if (!sharedWord) return NONE;
  const rangesIn = (side: { tokens: readonly string[]; starts: readonly number[] }, spans: readonly (readonly [number, number])[]): TextRange[] =>
    spans
      .map(([from, to]) => trimBlanks(side.tokens, from, to))
      .filter(([from, to]) => to > from)
      .map(([from, to]) => ({ from: side.starts[from] as number, to: side.starts[to] as number }));
  return {
    a: rangesIn(left, changes.map((c) => [c.fromA, c.toA] as const)),
    b: rangesIn(right, changes.map((c) => [c.fromB, c.toB] as const)),
  };
}

interface TokenChange {
  readonly fromA: number;
  readonly toA: number;
  readonly fromB: number;
  readonly toB: number;
}

/** "x y z" replacing "a b c" reads as one change, not three with unmarked spaces between them. */
function mergeAcrossBlanks(changes: readonly TokenChange[], tokensA: readonly string[], tokensB: readonly string[]): TokenChange[] {
  const merged: TokenChange[] = [];
  for (const change of changes) {
    const last = merged[merged.length - 1];
    if (last !== undefined && onlyBlanks(tokensA, last.toA, change.fromA) && onlyBlanks(tokensB, last.toB, change.fromB)) {
      merged[merged.length - 1] = { fromA: last.fromA, toA: change.toA, fromB: last.fromB, toB: change.toB };
    } else merged.push({ fromA: change.fromA, toA: change.toA, fromB: change.fromB, toB: change.toB });
  }
  return merged;
}

/** "--json " reads as "--json": blanks at a change's edges stay unmarked, unless blanks are all it changed. */
function trimBlanks(tokens: readonly string[], from: number, to: number): readonly [number, number] {
  if (onlyBlanks(tokens, from, to)) return [from, to];
  let start = from;
  let end = to;
  while (start < end && BLANK.test(tokens[start] as string)) start++;
  while (end > start && BLANK.test(tokens[end - 1] as string)) end--;
  return [start, end];
}

function onlyBlanks(tokens: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!BLANK.test(tokens[i] as string)) return false;
  return true;
}

function lineStarts(lines: readonly string[]): number[] {
  const starts = [0];
  for (const line of lines) starts.push((starts[starts.length - 1] as number) + line.length);
  return starts;
}

/** Changed words of every hunk that replaced lines (pure insertions and deletions are whole lines already). */
function hunkWords(hunks: readonly Hunk[], base: readonly string[], side: readonly string[]): { base: TextRange[]; side: TextRange[] } {
  const baseStarts = lineStarts(base);
  const sideStarts = lineStarts(side);
  const out = { base: [] as TextRange[], side: [] as TextRange[] };
  for (const hunk of hunks) {
    if (hunk.countA === 0 || hunk.countB === 0 || hunk.countA > MAX_HUNK_LINES || hunk.countB > MAX_HUNK_LINES) continue;
    const words = changedWords(base.slice(hunk.startA, hunk.startA + hunk.countA).join(''), side.slice(hunk.startB, hunk.startB + hunk.countB).join(''));
    const baseAt = baseStarts[hunk.startA] as number;
    const sideAt = sideStarts[hunk.startB] as number;
    for (const range of words.a) out.base.push({ from: baseAt + range.from, to: baseAt + range.to });
    for (const range of words.b) out.side.push({ from: sideAt + range.from, to: sideAt + range.to });
  }
  return out;
}

/** Sorted, overlapping ranges joined (the base pane gathers the words both sides replaced). */
function joinRanges(ranges: readonly TextRange[]): TextRange[] {
  const sorted = [...ranges].sort((x, y) => x.from - y.from || x.to - y.to);
  const out: TextRange[] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && range.from <= last.to) out[out.length - 1] = { from: last.from, to: Math.max(last.to, range.to) };
    else out.push(range);
  }
  return out;
}

/** The words each side changed against the base, placed in the ours, base and theirs panes. */
export function paneWords(texts: { readonly base: string | null; readonly ours: string | null; readonly theirs: string | null }, changes: MergeTextResult['changes']): PaneWords {
  const base = splitLines(texts.base ?? '');
  const ours = hunkWords(changes.ours, base, splitLines(texts.ours ?? ''));
  const theirs = hunkWords(changes.theirs, base, splitLines(texts.theirs ?? ''));
  return { ours: ours.side, base: joinRanges([...ours.base, ...theirs.base]), theirs: theirs.side };
}

/** One conflict's changed words, relative to the start of each part: each side against the base, or against each other when the base has none of it. */
export interface ConflictWords {
  readonly ours: readonly TextRange[];
  readonly base: readonly TextRange[];
  readonly theirs: readonly TextRange[];
}

const conflictCache = new WeakMap<ConflictRegion, ConflictWords>();

export function conflictWords(region: ConflictRegion): ConflictWords {
  const cached = conflictCache.get(region);
  if (cached !== undefined) return cached;
  const ours = region.ours.join('');
  const base = region.base.join('');
  const theirs = region.theirs.join('');
  const tooLong = Math.max(region.ours.length, region.base.length, region.theirs.length) > MAX_HUNK_LINES;
  let words: ConflictWords;
  if (tooLong) words = { ours: [], base: [], theirs: [] };
  else if (region.base.length === 0) {
    const between = changedWords(ours, theirs);
    words = { ours: between.a, base: [], theirs: between.b };
  } else {
    const byOurs = changedWords(base, ours);
    const byTheirs = changedWords(base, theirs);
    words = { ours: byOurs.b, base: joinRanges([...byOurs.a, ...byTheirs.a]), theirs: byTheirs.b };
  }
  conflictCache.set(region, words);
  return words;
}
