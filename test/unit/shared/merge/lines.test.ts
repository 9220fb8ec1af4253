import { describe, expect, it } from 'vitest';
import { LineInterner, LineText, lineHash, splitLines } from '../../../../shared/merge/lines';
import { collidingLines } from './colliding-lines';

describe('LineText', () => {
  it('finds line ends without cutting the text, a last line without "\\n" included', () => {
    const lines = new LineText('a\r\nbb\n\nc');
    expect([...lines.ends]).toEqual([3, 6, 7, 8]);
    expect(lines.lines(0)).toEqual(['a\r\n', 'bb\n', '\n', 'c']);
    expect(lines.lines(1, 3)).toEqual(['bb\n', '\n']);
    expect(lines.line(3)).toBe('c');
    expect(new LineText('').count).toBe(0);
    expect(splitLines('x\n')).toEqual(['x\n']);
  });

  it('grows past its first guess of the line count', () => {
    const text = '\n'.repeat(5000);
    expect(new LineText(text).count).toBe(5000);
    expect(splitLines(text).every((line) => line === '\n')).toBe(true);
  });
});

describe('LineInterner', () => {
  it('gives equal lines equal ids across texts, and "a" and "a\\n" different ones', () => {
    const interner = new LineInterner();
    const a = interner.intern(['x\n', 'y\n', 'x\n', 'x']);
    const ids = new Int32Array(3);
    interner.internText(new LineText('y\nx\nx'), 0, 3, ids, 0);
    expect([...a]).toEqual([0, 1, 0, 2]);
    expect([...ids]).toEqual([1, 0, 2]);
    expect(interner.size).toBe(3);
  });

  it('keeps lines whose hashes collide apart: equal hash is never taken for equal text', () => {
    const pairs = collidingLines(20);
    for (const [a, b] of pairs) expect(lineHash(a, 0, a.length)).toBe(lineHash(b, 0, b.length));
    const interner = new LineInterner();
    const lines = pairs.flat();
    const ids = interner.intern(lines);
    expect(new Set(ids).size).toBe(lines.length);
    // Looked up again, each finds its own class, not its colliding twin's.
    expect([...interner.intern([...lines].reverse())]).toEqual([...ids].reverse());
  });

  it('stays correct through many rehashes (20,000 distinct lines, each seen twice)', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
    const interner = new LineInterner();
    const first = interner.intern(lines);
    const second = interner.intern(lines);
    expect(interner.size).toBe(20_000);
    expect(first.every((id, i) => id === i && second[i] === i)).toBe(true);
  });
});
