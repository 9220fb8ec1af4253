/**
 * Lines as the merge engine sees them: each line keeps its terminator ("\n", so "\r\n" stays
 * intact), and a final line without one is a line of its own. "a" and "a\n" are different lines,
 * exactly as git's xdiff treats them, which is what makes missing final newlines round-trip.
 */
export function splitLines(text: string): string[] {
  return new LineText(text).lines(0);
}

/**
 * A text and where its lines end, without a substring per line: the merge hashes and compares lines
 * in place and only cuts out the lines it hands back (regions, conflicts).
 */
export class LineText {
  readonly text: string;
  /** ends[i]: the offset just past line i (past its "\n", or the end of the text). */
  readonly ends: Int32Array;

  constructor(text: string) {
    this.text = text;
    this.ends = lineEnds(text);
  }

  get count(): number {
    return this.ends.length;
  }

  start(i: number): number {
    return i === 0 ? 0 : (this.ends[i - 1] as number);
  }

  line(i: number): string {
    return this.text.slice(this.start(i), this.ends[i]);
  }

  lines(from: number, to = this.ends.length): string[] {
    const out = new Array<string>(Math.max(0, to - from));
    let start = this.start(from);
    for (let i = from; i < to; i++) {
      const end = this.ends[i] as number;
      out[i - from] = this.text.slice(start, end);
      start = end;
    }
    return out;
  }
}

function lineEnds(text: string): Int32Array {
  let ends = new Int32Array(Math.min(text.length, 64 + (text.length >> 5)));
  let count = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    if (count === ends.length) {
      const grown = new Int32Array(Math.min(text.length, ends.length * 2 + 16));
      grown.set(ends);
      ends = grown;
    }
    ends[count++] = end;
    start = end;
  }
  return ends.subarray(0, count);
}

/**
 * A 32-bit FNV-1a over the UTF-16 code units of text[start, end). Equal hashes are only a hint:
 * the interner always compares the text before it calls two lines equal.
 */
export function lineHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

const EMPTY_SLOT = -1;

function grow(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

function sameText(a: string, aStart: number, b: string, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a.charCodeAt(aStart + i) !== b.charCodeAt(bStart + i)) return false;
  return true;
}

/**
 * Maps equal lines to equal small integers so the diff compares numbers, not strings: an
 * open-addressing table keyed by lineHash, each class remembering where its first line is, to compare with.
 * One interner is shared by every file of a merge so ids are comparable across them.
 */
export class LineInterner {
  private slots = new Int32Array(1024).fill(EMPTY_SLOT);
  private hashes: Int32Array = new Int32Array(512);
  private lengths: Int32Array = new Int32Array(512);
  private starts: Int32Array = new Int32Array(512);
  /** Per class: the text its first line was seen in, and where (compared in place, not copied). */
  private readonly sources: string[] = [];

  get size(): number {
    return this.sources.length;
  }

  /** The id of text[start, end) whose lineHash is `hash`, adding a class when the line is new. */
  private idOf(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] as number;
      if (id === EMPTY_SLOT) return this.add(text, start, length, hash, slot);
      if (this.hashes[id] === hash && this.lengths[id] === length && sameText(this.sources[id] as string, this.starts[id] as number, text, start, length)) return id;
    }
  }

  private add(text: string, start: number, length: number, hash: number, slot: number): number {
    const id = this.sources.length;
    if (id === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.lengths = grow(this.lengths);
      this.starts = grow(this.starts);
    }
    this.hashes[id] = hash;
    this.lengths[id] = length;
    this.starts[id] = start;
    this.sources.push(text);
    this.slots[slot] = id;
    // Keep the table at most half full so probes stay short.
    if ((id + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return id;
  }

  private rehash(capacity: number): void {
    const slots = new Int32Array(capacity).fill(EMPTY_SLOT);
    const mask = capacity - 1;
    for (let id = 0; id < this.sources.length; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }

  intern(lines: readonly string[]): Int32Array {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      out[i] = this.idOf(line, 0, line.length, lineHash(line, 0, line.length));
    }
    return out;
  }

  /** The id of line i of a text. */
  internLine(lines: LineText, i: number): number {
    const start = lines.start(i);
    const end = lines.ends[i] as number;
    return this.idOf(lines.text, start, end, lineHash(lines.text, start, end));
  }

  /** Ids of lines [from, to) of a text, written to out[at…]. */
  internText(lines: LineText, from: number, to: number, out: Int32Array, at: number): void {
    const { text, ends } = lines;
    let start = lines.start(from);
    for (let i = from; i < to; i++) {
      const end = ends[i] as number;
      // lineHash, inlined: this loop is most of a large merge's time.
      let hash = 0x811c9dc5;
      for (let c = start; c < end; c++) hash = Math.imul(hash ^ text.charCodeAt(c), 0x01000193);
      out[at + i - from] = this.idOf(text, start, end, hash);
      start = end;
    }
  }
}

/** git's isalnum is ASCII-only (sane_ctype), whatever the locale; bytes >= 0x80 never count. */
export function textHasAlnum(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  }
  return false;
}

export function endsWithNewline(line: string): boolean {
  return line.length > 0 && line.charCodeAt(line.length - 1) === 10;
}
