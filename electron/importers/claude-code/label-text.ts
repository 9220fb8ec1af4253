/** Small string helpers for node labels (one line, ≤ 120 chars) and bounded search text. */

export const LABEL_LIMIT = 120;
export const SEARCH_TEXT_LIMIT = 32 * 1024;

/** Cuts to `limit` chars with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, limit = LABEL_LIMIT): string {
  if (text.length <= limit) return text;
  let end = limit - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The first non-blank line, whitespace collapsed, clipped; reads only the start of long texts. */
export function firstLine(text: string, limit = LABEL_LIMIT): string {
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start += 1;
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  // Collapsing whitespace only shortens, so twice the limit is enough to fill a label.
  let line = text.slice(start, Math.min(end, start + limit * 2));
  if (line.includes('\u001b')) line = line.replace(ANSI_ESCAPE, '');
  if (WHITESPACE_RUN.test(line)) line = line.replace(WHITESPACE_RUNS, ' ');
  return clip(line.trimEnd(), limit);
}

// Terminal colour codes appear in hook and command output; they are noise in a label.
const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;
/** Tabs, carriage returns and runs of spaces; a single space needs no rewrite. */
const WHITESPACE_RUN = /\s\s|[\t\r\f\v\u00a0\u2028\u2029]/;
const WHITESPACE_RUNS = /\s+/g;

/** True when the text has no visible character; reads only up to the first one (no trimmed copy). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export function formatTokens(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}k tokens` : `${tokens} tokens`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m ${seconds % 60}s`;
}

/** The number of bytes a base64 payload decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * Accumulates search text up to SEARCH_TEXT_LIMIT bytes. Pieces past the limit are dropped, so a multi-MB
 * tool output costs one slice, not a copy.
 */
export class SearchText {
  private readonly parts: string[] = [];
  private remaining: number;

  /** `limit` 0 collects nothing: the import's hot path defers search text to the background indexer. */
  constructor(limit = SEARCH_TEXT_LIMIT) {
    this.remaining = limit;
  }

  get full(): boolean {
    return this.remaining <= 0;
  }

  add(text: string): void {
    if (this.remaining <= 0 || text.length === 0) return;
    const piece = text.length > this.remaining ? clipChars(text, this.remaining) : text;
    this.parts.push(piece);
    this.remaining -= piece.length + 1;
  }

  /** Adds the string values inside a tool input (keys are noise for search), depth-first. */
  addValues(value: unknown, depth = 0): void {
    if (this.remaining <= 0 || depth > 8) return;
    if (typeof value === 'string') this.add(value);
    else if (typeof value === 'number' || typeof value === 'boolean') this.add(String(value));
    else if (Array.isArray(value)) for (const item of value) this.addValues(item, depth + 1);
    else if (typeof value === 'object' && value !== null)
      for (const item of Object.values(value as Record<string, unknown>)) this.addValues(item, depth + 1);
  }

  toString(): string {
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('\n');
    // The budget counts UTF-16 units; non-ASCII text can be up to 3 bytes per unit.
    if (text.length * 3 <= SEARCH_TEXT_LIMIT || Buffer.byteLength(text) <= SEARCH_TEXT_LIMIT) return text;
    const bytes = Buffer.from(text).subarray(0, SEARCH_TEXT_LIMIT);
    return bytes.toString('utf8').replace(/\uFFFD+$/, '');
  }
}

function clipChars(text: string, limit: number): string {
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}
