import { describe, expect, it } from 'vitest';
import { applyContextPatch } from '../../../../electron/snapshots/reconstruct';

const hunk = (oldLines: string[], newLines: string[], context: string | null = null, endOfFile = false) => ({ context, oldLines, newLines, endOfFile });

describe('applyContextPatch', () => {
  it('replaces the old lines found after the @@ context line, not an earlier copy of them', () => {
    const text = 'def a():\n    return 1\ndef b():\n    return 1\n';
    expect(applyContextPatch(text, [hunk(['    return 1'], ['    return 2'], 'def b():')])).toBe('def a():\n    return 1\ndef b():\n    return 2\n');
  });

  it('continues each hunk from where the one before ended', () => {
    const text = 'x\ny\nx\ny\n';
    expect(applyContextPatch(text, [hunk(['x'], ['X']), hunk(['x'], ['Z'])])).toBe('X\ny\nZ\ny\n');
  });

  it('matches with trailing whitespace ignored, as the tool does, and writes the new lines exactly', () => {
    expect(applyContextPatch('a  \nb\n', [hunk(['a', 'b'], ['c'])])).toBe('c\n');
  });

  it('adds a final newline, as the tool writes files', () => {
    expect(applyContextPatch('one\ntwo', [hunk(['two'], ['three'])])).toBe('one\nthree\n');
  });

  it('appends a hunk without old lines at the end of the file', () => {
    expect(applyContextPatch('a\n', [hunk([], ['b'])])).toBe('a\nb\n');
  });

  it('anchors an End of File hunk at the last lines', () => {
    expect(applyContextPatch('end\nmid\nend\n', [hunk(['end'], ['END'], null, true)])).toBe('end\nmid\nEND\n');
  });

  it('gives null when the old lines or the context are not in the file, never a guess', () => {
    expect(applyContextPatch('a\nb\n', [hunk(['c'], ['d'])])).toBeNull();
    expect(applyContextPatch('a\nb\n', [hunk(['b'], ['d'], 'missing context')])).toBeNull();
  });
});
