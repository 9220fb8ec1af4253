/**
 * Ranking and snippets for a bounded set of candidates, from their text, in plain TypeScript. FTS5's bm25()
 * first counts every row matching each phrase (its IDF), which for a one-letter prefix over a million nodes
 * is most of the store; here every candidate already holds every term (the query is an AND), so term
 * weights change little and the score is BM25's saturated term frequency over document length alone.
 * Words are found as the index's tokenizer finds them (unicode61, diacritics removed, case folded).
 */
import type { SearchTerm } from './search-query';

/** Characters the tokenizer keeps in a token (unicode61's default categories). */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;
/**
 * A letter, digit or private-use character outside ASCII: only those make a text's tokens differ from its ASCII
 * words. Arrows, dashes and ticks (12% of the bench's texts) are separators, so such texts keep the fast path.
 */
const NON_ASCII_WORD = /(?=[^\x00-\x7f])[\p{L}\p{N}\p{Co}]/u;
const K1 = 1.2;
const B = 0.75;
/** Tokens in a snippet, as FTS5's snippet(…, 24). */
const SNIPPET_TOKENS = 24;
/** Tokens shown before the first match, so it reads in context. */
const LEAD_TOKENS = 5;

export function foldToken(token: string): string {
  const lower = token.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}

/** A term as the tokenizer sees it: its words folded; the last one a prefix when still being typed. */
interface TermPattern {
  readonly words: readonly string[];
  readonly prefix: boolean;
}

export type SearchPattern = readonly TermPattern[];

export function toPattern(terms: readonly SearchTerm[]): SearchPattern {
  return terms
    .map((term) => ({ words: [...term.text.matchAll(TOKEN)].map((match) => foldToken(match[0])), prefix: term.prefix }))
    .filter((term) => term.words.length > 0);
}

interface Token {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const ASCII_TOKEN = /[a-z0-9]+/g;

/** Whether the text's tokens are its ASCII words: a plain byte test first, the costly unicode test only when it fails. */
const asciiWords = (text: string): boolean => !NON_ASCII.test(text) || !NON_ASCII_WORD.test(text);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  if (asciiWords(text)) {
    // Most text has ASCII words only: case-folding it whole keeps offsets (only letters change case, and
    // these are ASCII) and skips per-token normalization.
    for (const match of text.toLowerCase().matchAll(ASCII_TOKEN)) tokens.push({ word: match[0], start: match.index, end: match.index + match[0].length });
    return tokens;
  }
  for (const match of text.matchAll(TOKEN)) tokens.push({ word: foldToken(match[0]), start: match.index, end: match.index + match[0].length });
  return tokens;
}

const wordMatches = (token: string, word: string, prefix: boolean): boolean => (prefix ? token.startsWith(word) : token === word);

/** How many tokens from `at` the term covers there, or 0 when it does not occur at `at`. */
function matchAt(tokens: readonly Token[], at: number, term: TermPattern): number {
  for (let i = 0; i < term.words.length; i++) {
    const token = tokens[at + i];
    const word = term.words[i];
    if (token === undefined || word === undefined) return 0;
    if (!wordMatches(token.word, word, term.prefix && i === term.words.length - 1)) return 0;
  }
  return term.words.length;
}

/** Where each term occurs: per token, how many tokens a match starting there covers (0 = none). */
function matches(tokens: readonly Token[], pattern: SearchPattern): { covers: number[]; counts: number[] } {
  const covers = new Array<number>(tokens.length).fill(0);
  const counts = pattern.map(() => 0);
  for (let at = 0; at < tokens.length; at++) {
    pattern.forEach((term, index) => {
      const length = matchAt(tokens, at, term);
      if (length === 0) return;
      counts[index] = (counts[index] ?? 0) + 1;
      covers[at] = Math.max(covers[at] ?? 0, length);
    });
  }
  return { covers, counts };
}

/**
 * Higher is better: BM25's term-frequency part, summed over the terms (no IDF: see the file comment).
 * `text` may be the head of a long text; `length` (characters) is the whole text's, as is `averageLength`.
 */
export function scoreText(text: string, length: number, pattern: SearchPattern, averageLength: number): number {
  const counters = asciiCounters(pattern);
  const counts = counters !== null && asciiWords(text) ? countAscii(text.toLowerCase(), counters) : matches(tokenize(text), pattern).counts;
  const norm = K1 * (1 - B + (B * length) / Math.max(1, averageLength));
  return counts.reduce((sum, tf) => sum + (tf * (K1 + 1)) / (tf + norm), 0);
}

/**
 * Per term, a regex that matches (zero-width) where the term starts on a token boundary of lowercased ASCII
 * text: ranking a hundred candidates this way costs a native scan each, where tokenizing them into objects
 * was most of a search's time (a common word over a million messages). Null when a word is not ASCII.
 */
const counterCache = new WeakMap<SearchPattern, readonly RegExp[] | null>();

function asciiCounters(pattern: SearchPattern): readonly RegExp[] | null {
  const cached = counterCache.get(pattern);
  if (cached !== undefined) return cached;
  const ascii = pattern.every((term) => term.words.every((word) => /^[a-z0-9]+$/.test(word)));
  const counters = ascii
    ? pattern.map((term) => {
        const words = term.words.join('[^a-z0-9]+');
        // Lookahead only: overlapping occurrences count, one per starting token, as matchAt counts them.
        return new RegExp(`(?<![a-z0-9])(?=${words}${term.prefix ? '' : '(?![a-z0-9])'})`, 'g');
      })
    : null;
  counterCache.set(pattern, counters);
  return counters;
}

function countAscii(lower: string, counters: readonly RegExp[]): number[] {
  return counters.map((counter) => {
    let count = 0;
    counter.lastIndex = 0;
    while (counter.exec(lower) !== null) {
      count++;
      counter.lastIndex++;
    }
    return count;
  });
}

/**
 * About SNIPPET_TOKENS tokens of `text` around its first match, matched words wrapped in `open`/`close`,
 * '…' where text was cut. Null when no term occurs (the caller falls back on the start of the text).
 */
export function buildSnippet(text: string, pattern: SearchPattern, open: string, close: string): string | null {
  const window = snippetWindow(text, pattern);
  if (window !== null) {
    const inner = snippetOf(window.text, pattern, open, close);
    if (inner !== null) return (window.cutStart && !inner.startsWith('…') ? '…' : '') + inner + (window.cutEnd && !inner.endsWith('…') ? '…' : '');
  }
  return snippetOf(text, pattern, open, close);
}

function snippetOf(text: string, pattern: SearchPattern, open: string, close: string): string | null {
  const tokens = tokenize(text);
  const { covers } = matches(tokens, pattern);
  const first = covers.findIndex((cover) => cover > 0);
  if (first === -1 && pattern.length > 0) return null;
  const from = Math.max(0, first - LEAD_TOKENS);
  const to = Math.min(tokens.length, from + SNIPPET_TOKENS);
  const startToken = tokens[from];
  const endToken = tokens[to - 1];
  if (startToken === undefined || endToken === undefined) return text.slice(0, 200);
  let out = from > 0 ? '…' : '';
  let cursor = from > 0 ? startToken.start : 0;
  let highlightUntil = -1;
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    if (token === undefined) break;
    const cover = covers[i] ?? 0;
    if (cover > 0 && i > highlightUntil) {
      // A phrase is highlighted as one run, as FTS5 does.
      const last = tokens[Math.min(to - 1, i + cover - 1)] ?? token;
      out += text.slice(cursor, token.start) + open + text.slice(token.start, last.end) + close;
      cursor = last.end;
      highlightUntil = i + cover - 1;
    }
  }
  // Through the end of the text when the snippet reaches its last token, as FTS5's snippet() does: a
  // prompt's final full stop was cut off (a search for a whole sentence no longer matched its own hit).
  if (to < tokens.length) out += text.slice(cursor, endToken.end) + '…';
  else out += text.slice(cursor, endToken.end + 80) + (text.length > endToken.end + 80 ? '…' : '');
  return out;
}

/**
 * A test for "a token of the text starts with `word`" (as the tokenizer folds both). ASCII words use one
 * native regex over the text (a candidate scan checks thousands of texts); others tokenize.
 */
export function wordStartTest(word: string): (text: string) => boolean {
  const folded = foldToken(word);
  if (NON_ASCII.test(folded)) return (text) => tokenize(text).some((token) => token.word.startsWith(folded));
  // Not a unicode regex: the text's words are ASCII here (asciiWords), and a unicode one is several times slower.
  const start = new RegExp(`(?<![a-z0-9])${folded}`, 'i');
  return (text) => (asciiWords(text) ? start.test(text) : tokenize(text).some((token) => token.word.startsWith(folded)));
}

/** Characters of a long text tokenized around its first match (a snippet shows 24 tokens of it). */
const WINDOW_BEFORE = 200;
const WINDOW_AFTER = 600;

/**
 * A long text cut to a window around the first place its first word starts (found by one native regex), so
 * a snippet does not tokenize 30 KB; null when the text is short or the word is not found that way.
 */
function snippetWindow(text: string, pattern: SearchPattern): { text: string; cutStart: boolean; cutEnd: boolean } | null {
  const first = pattern[0]?.words[0];
  if (text.length <= WINDOW_BEFORE + WINDOW_AFTER || first === undefined || NON_ASCII.test(first)) return null;
  const at = text.search(new RegExp(`(?:^|[^\\p{L}\\p{N}\\p{Co}])${first}`, 'iu'));
  if (at === -1) return null;
  // Cut at spaces so no word is split.
  const from = at <= WINDOW_BEFORE ? 0 : Math.max(0, text.indexOf(' ', at - WINDOW_BEFORE) + 1);
  const space = text.indexOf(' ', at + WINDOW_AFTER);
  const to = space === -1 ? text.length : space;
  return { text: text.slice(from, to), cutStart: from > 0, cutEnd: to < text.length };
}
