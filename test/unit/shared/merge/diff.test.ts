import { describe, expect, it } from 'vitest';
import { diffLines, splitLines, type Hunk } from '../../../../shared/merge';

function applyHunks(a: readonly string[], b: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    out.push(...a.slice(at, h.startA), ...b.slice(h.startB, h.startB + h.countB));
    at = h.startA + h.countA;
  }
  out.push(...a.slice(at));
  return out;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('splitLines', () => {
  it('keeps terminators and a last line without one', () => {
    expect(splitLines('a\r\nb\n\nc')).toEqual(['a\r\n', 'b\n', '\n', 'c']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['\n']);
  });
});

describe('diffLines', () => {
  it('finds nothing between equal files', () => {
    expect(diffLines(['a\n', 'b\n'], ['a\n', 'b\n'])).toEqual([]);
  });

  it('reports a replaced line as one hunk', () => {
    expect(diffLines(['a\n', 'b\n', 'c\n'], ['a\n', 'B\n', 'c\n'])).toEqual([{ startA: 1, countA: 1, startB: 1, countB: 1 }]);
  });

  it('treats a line without its final newline as a different line', () => {
    expect(diffLines(['a\n', 'b\n'], ['a\n', 'b'])).toEqual([{ startA: 1, countA: 1, startB: 1, countB: 1 }]);
  });

  it('slides an insertion among repeated lines down, as git does', () => {
    // Inserting "}\n{\n" after the first block could be placed in several spots; git picks the last.
    expect(diffLines(['{\n', '}\n'], ['{\n', '}\n', '{\n', '}\n'])).toEqual([{ startA: 2, countA: 0, startB: 2, countB: 2 }]);
  });

  it('produces hunks that turn a into b, on random code-like files', () => {
    const vocabulary = ['}\n', '\n', '  return;\n', '{\n', 'x\n', 'y\n', 'z\n'];
    for (let seed = 1; seed <= 200; seed++) {
      const random = seeded(seed);
      const a = Array.from({ length: Math.floor(random() * 80) }, () => vocabulary[Math.floor(random() * vocabulary.length)] as string);
      const b = [...a];
      for (let e = Math.floor(random() * 10); e > 0; e--) {
        const at = Math.floor(random() * (b.length + 1));
        if (random() < 0.5) b.splice(at, 1 + Math.floor(random() * 3));
        else b.splice(at, 0, vocabulary[Math.floor(random() * vocabulary.length)] as string);
      }
      const hunks = diffLines(a, b);
      expect(applyHunks(a, b, hunks)).toEqual(b);
      for (const h of hunks) expect(h.countA + h.countB).toBeGreaterThan(0);
    }
  });

  it('stays fast on two unrelated 20,000-line files', () => {
    const random = seeded(42);
    const make = (): string[] => Array.from({ length: 20_000 }, () => `${Math.floor(random() * 500)}\n`);
    const [a, b] = [make(), make()];
    const start = performance.now();
    const hunks = diffLines(a, b);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(applyHunks(a, b, hunks)).toEqual(b);
  });
});
