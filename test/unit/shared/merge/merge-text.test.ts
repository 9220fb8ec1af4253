// Expected outputs below were taken from `git merge-file -p` (git 2.39) on the same inputs.
import { describe, expect, it } from 'vitest';
import { mergeText } from '../../../../shared/merge';

describe('mergeText', () => {
  it('takes changes from both sides when they do not touch', () => {
    const result = mergeText('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n');
    expect(result).toMatchObject({ text: 'A\nb\nc\nd\nE\n', conflicts: 0 });
  });

  it('returns the other side byte for byte when one side is unchanged', () => {
    expect(mergeText('a\nb\n', 'a\nb\n', 'x\r\ny').text).toBe('x\r\ny');
    expect(mergeText('a\nb\n', 'q', 'a\nb\n').text).toBe('q');
  });

  it('writes a conflict in git format, extended to the line that lost its final newline', () => {
    const result = mergeText('a\nb\nc\n', 'a\nB\nc\n', 'a\nX\nc');
    expect(result.text).toBe('a\n<<<<<<< ours\nB\nc\n=======\nX\nc\n>>>>>>> theirs\n');
    expect(result.conflicts).toBe(1);
    expect(result.regions).toEqual([
      { kind: 'clean', lines: ['a\n'] },
      { kind: 'conflict', ours: ['B\n', 'c\n'], base: ['b\n', 'c\n'], theirs: ['X\n', 'c'], eol: '\n', at: { ours: 1, base: 1, theirs: 1 } },
    ]);
    // The two diffs it was made of, base → ours and base → theirs.
    expect(result.changes.ours).toEqual([{ startA: 1, countA: 1, startB: 1, countB: 1 }]);
    expect(result.changes.theirs).toEqual([{ startA: 1, countA: 2, startB: 1, countB: 2 }]);
  });

  it('adds the newline a side lacks before the next marker', () => {
    expect(mergeText('a\nb', 'a\nB', 'a\nX').text).toBe('a\n<<<<<<< ours\nB\n=======\nX\n>>>>>>> theirs\n');
  });

  it('is clean when both sides made the same change', () => {
    expect(mergeText('a\nb\nc\n', 'a\nB\nc\n', 'a\nB\nc\n')).toMatchObject({ text: 'a\nB\nc\n', conflicts: 0 });
  });

  it('narrows a conflict to the lines where the sides really differ', () => {
    const result = mergeText('a\nb\nc\nd\ne\n', 'a\nB\nc\nD\ne\nf\n', 'a\nB\nc\nE\ne\n');
    expect(result.text).toBe('a\nB\nc\n<<<<<<< ours\nD\n=======\nE\n>>>>>>> theirs\ne\nf\n');
    expect(result.conflicts).toBe(1);
  });

  it('joins conflicts separated only by lines without letters or digits', () => {
    const result = mergeText('a\n}\n}\n\n}\nd\n', 'A\n}\n}\n\n}\nD\n', 'X\n}\n}\n\n}\nY\n');
    expect(result.text).toBe('<<<<<<< ours\nA\n}\n}\n\n}\nD\n=======\nX\n}\n}\n\n}\nY\n>>>>>>> theirs\n');
    expect(result.conflicts).toBe(1);
  });

  it('keeps conflicts apart when real code separates them', () => {
    const result = mergeText('a\nb\n}\n}\nc\nd\n', 'A\nb\n}\n}\nc\nD\n', 'X\nb\n}\n}\nc\nY\n');
    expect(result.conflicts).toBe(2);
  });

  it('writes CRLF markers in CRLF files', () => {
    const result = mergeText('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n', 'a\r\nX\r\nc\r\n');
    expect(result.text).toBe('a\r\n<<<<<<< ours\r\nB\r\n=======\r\nX\r\n>>>>>>> theirs\r\nc\r\n');
  });

  it('shows the base with diff3, with custom labels and marker size', () => {
    const result = mergeText('a\n', 'b\n', 'c\n', { style: 'diff3', markerSize: 3, labels: { ours: 'x', base: 'y', theirs: 'z' } });
    expect(result.text).toBe('<<< x\nb\n||| y\na\n===\nc\n>>> z\n');
  });

  it('does not narrow diff3 conflicts, but zdiff3 moves common edge lines out', () => {
    const [base, ours, theirs] = ['a\nb\nc\n', 'a\nX\nY\nZ\nc\n', 'a\nX\nQ\nZ\nc\n'];
    expect(mergeText(base, ours, theirs, { style: 'diff3' }).text).toBe(
      'a\n<<<<<<< ours\nX\nY\nZ\n||||||| base\nb\n=======\nX\nQ\nZ\n>>>>>>> theirs\nc\n',
    );
    expect(mergeText(base, ours, theirs, { style: 'zdiff3' }).text).toBe(
      'a\nX\n<<<<<<< ours\nY\n||||||| base\nb\n=======\nQ\n>>>>>>> theirs\nZ\nc\n',
    );
  });

  it('writes bare markers for null labels', () => {
    expect(mergeText('a\n', 'b\n', 'c\n', { labels: { ours: null, theirs: null } }).text).toBe('<<<<<<<\nb\n=======\nc\n>>>>>>>\n');
  });

  it('conflicts when both sides add different content to an empty base', () => {
    const result = mergeText('', 'a\n', 'b\n', { style: 'diff3' });
    expect(result.text).toBe('<<<<<<< ours\na\n||||||| base\n=======\nb\n>>>>>>> theirs\n');
    expect(result.conflicts).toBe(1);
  });

  it('resolves every conflict one way with favor', () => {
    const [base, ours, theirs] = ['a\nb', 'a\nB', 'a\nX'];
    expect(mergeText(base, ours, theirs, { favor: 'ours' })).toMatchObject({ text: 'a\nB', conflicts: 0 });
    expect(mergeText(base, ours, theirs, { favor: 'theirs' })).toMatchObject({ text: 'a\nX', conflicts: 0 });
    expect(mergeText(base, ours, theirs, { favor: 'union' })).toMatchObject({ text: 'a\nB\nX', conflicts: 0 });
  });

  it('handles NUL characters and empty inputs', () => {
    expect(mergeText('a\0\nb\nc\n', 'a\0\nb\nC\n', 'x\0\nb\nc\n')).toMatchObject({ text: 'x\0\nb\nC\n', conflicts: 0 });
    expect(mergeText('', '', '')).toMatchObject({ text: '', conflicts: 0, regions: [] });
    expect(mergeText('a\n', '', '')).toMatchObject({ text: '', conflicts: 0 });
  });

  it('merges 50,000-line files without quadratic blow-up', () => {
    const base = Array.from({ length: 50_000 }, (_, i) => (i % 5 === 0 ? '}\n' : i % 7 === 0 ? '\n' : `line ${i % 997}\n`));
    const ours = base.map((line, i) => (i % 1000 === 10 ? `ours ${i}\n` : line));
    const theirs = base.map((line, i) => (i % 1000 === 500 ? `theirs ${i}\n` : line));
    const start = performance.now();
    const result = mergeText(base.join(''), ours.join(''), theirs.join(''));
    const elapsed = performance.now() - start;
    expect(result.conflicts).toBe(0);
    expect(result.text.split('ours ').length - 1).toBe(50);
    expect(result.text.split('theirs ').length - 1).toBe(50);
    // A quadratic algorithm would take minutes here; generous bound for a loaded CI machine.
    expect(elapsed).toBeLessThan(5_000);
  });
});
