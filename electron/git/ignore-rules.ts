/**
 * `.gitignore` semantics as git implements them (dir.c + wildmatch.c), so a capture holds exactly the
 * files `git add -A` would: nested .gitignore files (deeper wins), `.git/info/exclude` (lowest), negation,
 * directory-only and anchored patterns, `**`. Matching is done on bytes (paths and patterns are turned
 * into latin1 "byte strings"), as git does, so `?` and `[...]` treat UTF-8 the way git does.
 */

export interface IgnorePattern {
  /** The pattern as written, without `!` (for messages and tests). */
  readonly source: string;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  /** No slash in the pattern: it matches the last path component at any depth. */
  readonly basenameOnly: boolean;
  /** undefined when the pattern can never match (git aborts on an unterminated `[`). */
  readonly regex: RegExp | undefined;
}

/** The patterns of one ignore file, with the directory (relative to the capture root) they apply to. */
export interface IgnoreLevel {
  readonly base: string;
  readonly patterns: readonly IgnorePattern[];
}

const CLASSES: Readonly<Record<string, string>> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

const escapeRegex = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
const escapeInClass = (c: string): string => (/[\\\]^[-]/.test(c) ? `\\${c}` : c);

/** A path as a string of bytes (one char per UTF-8 byte), the unit git matches on. */
export function toByteString(path: string): string {
  return /^[\x00-\x7f]*$/.test(path) ? path : Buffer.from(path, 'utf8').toString('latin1');
}

/** Parses `[...]` starting at `pattern[start] === '['`; returns the regex part and the index after `]`. */
function compileBracket(pattern: string, start: number): { regex: string; next: number } | undefined {
  let at = start + 1;
  let negated = false;
  if (pattern[at] === '!' || pattern[at] === '^') {
    negated = true;
    at++;
  }
  const items: string[] = [];
  let prev: string | undefined;
  let first = true;
  for (;;) {
    let ch = pattern[at];
    if (ch === undefined) return undefined;
    if (ch === ']' && !first) break;
    first = false;
    if (ch === '\\') {
      ch = pattern[++at];
      if (ch === undefined) return undefined;
      items.push(escapeInClass(ch));
      prev = ch;
    } else if (ch === '-' && prev !== undefined && pattern[at + 1] !== undefined && pattern[at + 1] !== ']') {
      let end = pattern[++at];
      if (end === '\\') end = pattern[++at];
      if (end === undefined) return undefined;
      // A reversed range adds nothing in git beyond its start, already pushed (a JS class would reject it).
      if (end >= prev) items[items.length - 1] = `${escapeInClass(prev)}-${escapeInClass(end)}`;
      prev = undefined;
    } else if (ch === '[' && pattern[at + 1] === ':') {
      const close = pattern.indexOf(':]', at + 2);
      if (close < 0) return undefined;
      const cls = CLASSES[pattern.slice(at + 2, close)];
      if (cls === undefined) return undefined;
      items.push(cls);
      at = close + 1;
      prev = undefined;
    } else {
      items.push(escapeInClass(ch));
      prev = ch;
    }
    at++;
  }
  const body = items.join('');
  // With WM_PATHNAME a bracket never matches '/'.
  const regex = negated ? `[^/${body}]` : body === '' ? '(?!)' : `(?!/)[${body}]`;
  return { regex, next: at + 1 };
}

/** wildmatch with WM_PATHNAME, compiled to a regex source; undefined if git would abort the match. */
export function compileWildmatch(pattern: string): string | undefined {
  let out = '';
  let at = 0;
  while (at < pattern.length) {
    const ch = pattern[at]!;
    if (ch === '*') {
      let end = at;
      while (pattern[end] === '*') end++;
      const stars = end - at;
      const prevOk = at === 0 || pattern[at - 1] === '/';
      const next = pattern[end];
      const nextOk = next === undefined || next === '/' || (next === '\\' && pattern[end + 1] === '/');
      if (stars >= 2 && prevOk && nextOk) {
        if (next === undefined) out += '.*';
        else {
          out += '(?:.*/)?';
          end += next === '\\' ? 2 : 1;
        }
      } else {
        out += '[^/]*';
      }
      at = end;
    } else if (ch === '?') {
      out += '[^/]';
      at++;
    } else if (ch === '[') {
      const bracket = compileBracket(pattern, at);
      if (!bracket) return undefined;
      out += bracket.regex;
      at = bracket.next;
    } else if (ch === '\\') {
      const escaped = pattern[at + 1];
      if (escaped === undefined) return undefined;
      out += escapeRegex(escaped);
      at += 2;
    } else {
      out += escapeRegex(ch);
      at++;
    }
  }
  return out;
}

/** Git's `simple_length`: the literal prefix before the first glob-special character. */
function literalPrefixLength(pattern: string): number {
  const match = /[*?[\\]/.exec(pattern);
  return match ? match.index : pattern.length;
}

/** Drops trailing spaces unless escaped with a backslash (git's trim_trailing_spaces). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    let backslashes = 0;
    for (let i = end - 2; i >= 0 && line[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

export function parseIgnorePattern(rawLine: string): IgnorePattern | undefined {
  let line = trimTrailingSpaces(rawLine);
  if (line === '' || line.startsWith('#')) return undefined;
  const source = line;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  const directoryOnly = line.endsWith('/');
  if (directoryOnly) line = line.slice(0, -1);
  const basenameOnly = !line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  if (line === '') return undefined;
  let regexSource: string | undefined;
  if (basenameOnly) {
    regexSource = compileWildmatch(line);
  } else {
    // Git compares the literal prefix, then runs wildmatch on the rest as a pattern of its own
    // (which matters for `**`: "foo**/bar" has a leading `**/` from wildmatch's point of view).
    const prefix = literalPrefixLength(line);
    const rest = compileWildmatch(line.slice(prefix));
    regexSource = rest === undefined ? undefined : escapeRegex(line.slice(0, prefix)) + rest;
  }
  const regex = regexSource === undefined ? undefined : new RegExp(`^${regexSource}$`, 's');
  return { source, negated, directoryOnly, basenameOnly, regex };
}

/** Parses an ignore file's bytes (a BOM is skipped as git does). */
export function parseIgnoreFile(content: Buffer): IgnorePattern[] {
  const start = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  const patterns: IgnorePattern[] = [];
  for (const line of content.toString('latin1', start).split('\n')) {
    const pattern = parseIgnorePattern(line);
    if (pattern) patterns.push(pattern);
  }
  return patterns;
}

/**
 * Decides for one path, given the levels that apply to its directory ordered deepest first and ending
 * with `.git/info/exclude`: the first level holding a match decides, and within a level the last match.
 * `path` is relative to the capture root, `/`-separated; `name` is its last component.
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, name: string, isDirectory: boolean): boolean {
  const bytePath = toByteString(path);
  const byteName = toByteString(name);
  for (const level of levels) {
    const relative = level.base === '' ? bytePath : bytePath.slice(toByteString(level.base).length + 1);
    for (let i = level.patterns.length - 1; i >= 0; i--) {
      const pattern = level.patterns[i]!;
      if (pattern.directoryOnly && !isDirectory) continue;
      if (!pattern.regex?.test(pattern.basenameOnly ? byteName : relative)) continue;
      return !pattern.negated;
    }
  }
  return false;
}
