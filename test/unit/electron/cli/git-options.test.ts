import { describe, expect, it } from 'vitest';
import { parseMergeFileArgs } from '../../../../electron/cli/commands/merge-file';
import { gitInteger } from '../../../../electron/cli/git-options';

const merge = (args: string[], style?: 'merge' | 'diff3' | 'zdiff3') => {
  const line = parseMergeFileArgs(args, style);
  if (line.kind !== 'merge') throw new Error(`not a merge: ${JSON.stringify(line)}`);
  return line.args;
};
const refused = (args: string[]) => parseMergeFileArgs(args);

describe('merge-file options, read as git parse-options reads them', () => {
  it('bundles short flags, a value ending the bundle (-pq, -pqLname)', () => {
    expect(merge(['-pq', 'a', 'b', 'c'])).toMatchObject({ toStdout: true, quiet: true });
    expect(merge(['-pqLmine', 'a', 'b', 'c'])).toMatchObject({ toStdout: true, quiet: true, labels: ['mine'] });
    expect(merge(['-L', '-p', 'a', 'b', 'c'])).toMatchObject({ toStdout: false, labels: ['-p'] });
  });

  it('takes any unambiguous start of a long option, and --no- (also shortened) undoes one', () => {
    expect(merge(['--stdo', '--zdiff', 'a', 'b', 'c'])).toMatchObject({ toStdout: true, style: 'zdiff3' });
    expect(merge(['--d', '--u', '--mark=3', 'a', 'b', 'c'])).toMatchObject({ style: 'diff3', favor: 'union', markerSize: 3 });
    expect(merge(['--marker-size', '12', 'a', 'b', 'c'])).toMatchObject({ markerSize: 12 });
    expect(merge(['--diff3', '--no-diff3', '--ours', '--no-o', '-p', '--no-stdo', 'a', 'b', 'c'])).toMatchObject({ style: 'merge', favor: undefined, toStdout: false });
    expect(merge(['--no-zdiff3', 'a', 'b', 'c'], 'diff3')).toMatchObject({ style: 'merge' });
    expect(merge(['a', 'b', 'c'], 'zdiff3')).toMatchObject({ style: 'zdiff3' });
  });

  it('reads files and options in any order, and everything after -- as files', () => {
    expect(merge(['a', '-p', 'b', '--', '-c'])).toMatchObject({ toStdout: true, paths: ['a', 'b', '-c'] });
    expect(merge(['-', 'b', 'c']).paths).toEqual(['-', 'b', 'c']);
  });

  it("refuses what git refuses, in git's words", () => {
    expect(refused(['--frob', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: unknown option `frob'" });
    expect(refused(['-px', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: unknown switch `x'" });
    expect(refused(['--no-', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: 'error: ambiguous option: no- (could be --no-marker-size or --no-quiet)' });
    expect(refused(['--stdout=1', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: option `stdout' takes no value" });
    expect(refused(['--no-marker-size=3', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: option `no-marker-size' takes no value" });
    expect(refused(['--marker', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: option `marker-size' expects a numerical value" });
    expect(refused(['a', 'b', 'c', '--marker-size'])).toEqual({ kind: 'usage', message: "error: option `marker-size' requires a value" });
    expect(refused(['a', 'b', 'c', '-L'])).toEqual({ kind: 'usage', message: "error: switch `L' requires a value" });
    expect(refused(['--no-L', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: unknown option `no-L'" });
    expect(refused(['-La', '-Lb', '-Lc', '-Ld', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: 'error: too many labels on the command line' });
    expect(refused(['--h', 'a', 'b', 'c'])).toEqual({ kind: 'usage', message: "error: unknown option `h'" });
    expect(refused(['a', 'b'])).toMatchObject({ kind: 'usage', message: expect.stringMatching(/^usage: arbor merge-file /) });
  });

  it('answers -h (anywhere, also in a bundle) as help and --help as the manual', () => {
    expect(refused(['-h'])).toEqual({ kind: 'help' });
    expect(refused(['a', '-ph'])).toEqual({ kind: 'help' });
    expect(refused(['--help-all'])).toEqual({ kind: 'help' });
    expect(refused(['x', '--help'])).toEqual({ kind: 'manual' });
    expect(merge(['-Lh', 'a', 'b', 'c']).labels).toEqual(['h']);
  });
});

describe('gitInteger', () => {
  it("reads numbers as C's strtol does, as an int", () => {
    expect([gitInteger('3'), gitInteger('+3'), gitInteger(' \t3'), gitInteger('-1'), gitInteger('007')]).toEqual([3, 3, 3, -1, 7]);
    expect([gitInteger(''), gitInteger('3x'), gitInteger('0x10'), gitInteger('1k'), gitInteger('3 ')]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(gitInteger('4294967297')).toBe(1);
    expect(gitInteger('99999999999999999999')).toBe(-1);
  });
});
