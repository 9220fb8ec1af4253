import { describe, expect, it } from 'vitest';
import { applyPatch, readHunks, reversePatch, unapplyPatch, type PatchHunk } from '../../../../electron/snapshots/reconstruct';
import { structuredPatch } from '../../../../electron/demo/structured-patch';

const NO_NL = '\\ No newline at end of file';

describe('applyPatch / unapplyPatch', () => {
  it('applies a one-hunk patch forward and undoes it in reverse', () => {
    const before = 'a\nb\nc\nd\ne\n';
    const hunk: PatchHunk = { oldStart: 2, oldLines: 3, newStart: 2, newLines: 3, lines: [' b', '-c', '+C', ' d'] };
    expect(applyPatch(before, [hunk])).toBe('a\nb\nC\nd\ne\n');
    expect(unapplyPatch('a\nb\nC\nd\ne\n', [hunk])).toBe(before);
  });

  it('applies several hunks, shifting later hunks by earlier line-count changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const hunks: PatchHunk[] = [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 3, lines: ['-line 2', '+two', '+two and a half', '+2.75'] },
      { oldStart: 15, oldLines: 2, newStart: 17, newLines: 1, lines: [' line 15', '-line 16'] },
    ];
    const after = applyPatch(before, hunks)!;
    expect(after.split('\n').slice(0, 5)).toEqual(['line 1', 'two', 'two and a half', '2.75', 'line 3']);
    expect(after).not.toContain('line 16\n');
    expect(after.split('\n')).toHaveLength(22);
    expect(unapplyPatch(after, hunks)).toBe(before);
  });

  it('handles "No newline at end of file" markers on either side', () => {
    // adding a final newline
    const addNl: PatchHunk = { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' x', '-y', NO_NL, '+y'] };
    expect(applyPatch('x\ny', [addNl])).toBe('x\ny\n');
    expect(unapplyPatch('x\ny\n', [addNl])).toBe('x\ny');
    // a context line without newline on both sides
    const both: PatchHunk = { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-a', '+A', ' end', NO_NL] };
    expect(applyPatch('a\nend', [both])).toBe('A\nend');
    expect(unapplyPatch('A\nend', [both])).toBe('a\nend');
  });

  it('refuses a hunk whose old-side end-of-file claim is false', () => {
    const hunk: PatchHunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-y', NO_NL, '+z'] };
    expect(applyPatch('y\n', [hunk])).toBeNull();
    expect(applyPatch('y', [hunk])).toBe('z\n');
  });

  it('keeps CRLF bytes exactly', () => {
    const before = 'one\r\ntwo\r\nthree\r\n';
    const hunk: PatchHunk = { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: ['-two\r', '+TWO\r'] };
    expect(applyPatch(before, [hunk])).toBe('one\r\nTWO\r\nthree\r\n');
    // a hunk written without the \r does not match a CRLF file: no guessing
    expect(applyPatch(before, [{ ...hunk, lines: ['-two', '+TWO'] }])).toBeNull();
  });

  it('creates a file from empty and deletes to empty', () => {
    const create: PatchHunk = { oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] };
    expect(applyPatch('', [create])).toBe('a\nb\n');
    expect(unapplyPatch('a\nb\n', [create])).toBe('');
  });

  it('finds a hunk whose line numbers are off, and rejects one whose lines are absent', () => {
    const hunk: PatchHunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-target', '+hit'] };
    expect(applyPatch('x\ny\ntarget\nz\n', [hunk])).toBe('x\ny\nhit\nz\n');
    expect(applyPatch('x\ny\nz\n', [hunk])).toBeNull();
  });

  it('round-trips patches made by the demo generator (jsdiff-style) on random edits', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: rand(12) }, () => `l${rand(5)}${rand(3) === 0 ? '\r' : ''}`);
      const before = lines.join('\n') + (rand(2) === 0 ? '\n' : '');
      const changed = lines.slice();
      const at = rand(changed.length + 1);
      changed.splice(at, rand(3), ...Array.from({ length: rand(3) }, () => `new${rand(9)}`));
      const after = changed.join('\n') + (rand(2) === 0 ? '\n' : '');
      const hunks = structuredPatch(before, after);
      expect(applyPatch(before, hunks)).toBe(after);
      expect(unapplyPatch(after, hunks)).toBe(before);
    }
  });

  it('reverses a patch by swapping sides', () => {
    const [reversed] = reversePatch([{ oldStart: 3, oldLines: 2, newStart: 4, newLines: 1, lines: [' a', '-b', NO_NL] }]);
    expect(reversed).toEqual({ oldStart: 4, oldLines: 1, newStart: 3, newLines: 2, lines: [' a', '+b', NO_NL] });
  });

  it('reads structuredPatch as written and rejects other shapes', () => {
    expect(readHunks([{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }])).toHaveLength(1);
    expect(readHunks([{ oldStart: '1', lines: [] }])).toBeNull();
    expect(readHunks('nope')).toBeNull();
  });
});
