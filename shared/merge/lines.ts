/**
 * Lines as the merge engine sees them: each line keeps its terminator ("\n", so "\r\n" stays
 * intact), and a final line without one is a line of its own. "a" and "a\n" are different lines,
 * exactly as git's xdiff treats them, which is what makes missing final newlines round-trip.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end === -1) break;
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * Maps equal lines to equal small integers so the diff compares numbers, not strings.
 * One interner is shared by every file of a merge so ids are comparable across them.
 */
export class LineInterner {
  private readonly ids = new Map<string, number>();

  get size(): number {
    return this.ids.size;
  }

  intern(lines: readonly string[]): Int32Array {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      let id = this.ids.get(line);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  }
}

/** git's isalnum is ASCII-only (sane_ctype), whatever the locale; bytes >= 0x80 never count. */
export function lineHasAlnum(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  }
  return false;
}

export function endsWithNewline(line: string): boolean {
  return line.length > 0 && line.charCodeAt(line.length - 1) === 10;
}
