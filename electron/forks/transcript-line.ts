/**
 * Rewrites a transcript line's top-level envelope fields (`sessionId`, `cwd`, `parentUuid`) by splicing the
 * JSON text, never by re-serializing it: every other byte of the line stays as Claude Code wrote it, so
 * thinking blocks keep their signatures byte for byte (FORMATS.md §1.10 (e)) and numbers keep their spelling.
 */

/** Where one top-level member's value sits in the line: [start, end). */
export interface ValueSpan {
  readonly start: number;
  readonly end: number;
}

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the string starting at `at` (which holds the opening quote). */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '"') return i + 1;
  }
  throw new SyntaxError('unterminated string');
}

/** The index just past the JSON value starting at `at`. */
function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const char = text[i];
      if (char === '"') i = skipString(text, i) - 1;
      else if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new SyntaxError('unterminated container');
  }
  let i = at;
  while (i < text.length && !isSpace(text.charCodeAt(i)) && text[i] !== ',' && text[i] !== '}' && text[i] !== ']') i++;
  if (i === at) throw new SyntaxError(`unexpected ${JSON.stringify(first)} at ${at}`);
  return i;
}

/** The top-level members of a JSON object line, key → value span (the last of duplicate keys wins, as in JSON.parse). */
export function topLevelMembers(line: string): Map<string, ValueSpan> {
  return objectMembers(line, skipSpace(line, 0));
}

/** The members of the JSON object whose `{` is at `start`, key → value span. */
export function objectMembers(text: string, start: number): Map<string, ValueSpan> {
  const members = new Map<string, ValueSpan>();
  if (text[start] !== '{') throw new SyntaxError('not a JSON object');
  let at = skipSpace(text, start + 1);
  if (text[at] === '}') return members;
  for (;;) {
    if (text[at] !== '"') throw new SyntaxError(`expected a key at ${at}`);
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') throw new SyntaxError(`expected ':' at ${at}`);
    const valueStart = skipSpace(text, at + 1);
    const end = skipValue(text, valueStart);
    members.set(key, { start: valueStart, end });
    at = skipSpace(text, end);
    if (text[at] === ',') {
      at = skipSpace(text, at + 1);
      continue;
    }
    if (text[at] === '}') return members;
    throw new SyntaxError(`expected ',' or '}' at ${at}`);
  }
}

/** The elements of the JSON array whose `[` is at `start`. */
export function arrayElements(text: string, start: number): ValueSpan[] {
  const elements: ValueSpan[] = [];
  if (text[start] !== '[') throw new SyntaxError('not a JSON array');
  let at = skipSpace(text, start + 1);
  if (text[at] === ']') return elements;
  for (;;) {
    const end = skipValue(text, at);
    elements.push({ start: at, end });
    at = skipSpace(text, end);
    if (text[at] === ',') {
      at = skipSpace(text, at + 1);
      continue;
    }
    if (text[at] === ']') return elements;
    throw new SyntaxError(`expected ',' or ']' at ${at}`);
  }
}

/**
 * Sets top-level fields of a JSON object line to the given values (any JSON value). Fields present are
 * replaced in place; absent ones are appended when `addMissing` lists them. Nothing else changes.
 */
export function rewriteTopLevel(
  line: string,
  values: Readonly<Record<string, unknown>>,
  addMissing: ReadonlySet<string> = new Set(),
  members: ReadonlyMap<string, ValueSpan> = topLevelMembers(line),
): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const appended: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const span = members.get(key);
    const json = JSON.stringify(value);
    if (span !== undefined) edits.push({ start: span.start, end: span.end, text: json });
    else if (addMissing.has(key)) appended.push(`${JSON.stringify(key)}:${json}`);
  }
  if (appended.length > 0) {
    const close = line.lastIndexOf('}');
    edits.push({ start: close, end: close, text: `${members.size > 0 ? ',' : ''}${appended.join(',')}` });
  }
  edits.sort((a, b) => b.start - a.start);
  let result = line;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The exact text of one top-level member's value, or undefined when the line has no such member. */
export function memberText(line: string, key: string): string | undefined {
  const span = topLevelMembers(line).get(key);
  return span === undefined ? undefined : line.slice(span.start, span.end);
}
