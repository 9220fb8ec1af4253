/**
 * Differential test of the merge engine's fast paths against real `git merge-file -p`: versions that
 * share only their start and end, all equal, one side unchanged or empty, CRLF, no final newline,
 * lines whose hashes collide, long identical runs around edits (each side's lines are taken from the
 * base a run at a time), deletions and insertions longer than the run finder looks ahead, code that
 * repeats itself, and bytes that are not text. Every conflict style and every option the CLI passes
 * to the engine (--ours/--theirs/--union, --marker-size, -L). Output must be identical, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { mergeText, type MergeTextOptions } from '../../../shared/merge';
import { mulberry32 } from '../../../shared/random';
import { collidingLines } from '../../unit/shared/merge/colliding-lines';
import { gitAvailable, gitMergeVariants, type MergeVariant } from './git-merge-file';
import type { MergeTriple } from './triples';

const hasGit = gitAvailable();
if (!hasGit) console.warn('merge-fast-paths-vs-git: git is not installed, skipping the differential test');

interface Variant extends MergeVariant {
  readonly options: MergeTextOptions;
}

const VARIANTS: readonly Variant[] = [
  { name: 'merge', args: [], options: { style: 'merge' } },
  { name: 'diff3', args: ['--diff3'], options: { style: 'diff3' } },
  { name: 'zdiff3', args: ['--zdiff3'], options: { style: 'zdiff3' } },
  { name: 'ours', args: ['--ours'], options: { favor: 'ours' } },
  { name: 'theirs', args: ['--theirs'], options: { favor: 'theirs' } },
  { name: 'union', args: ['--union'], options: { favor: 'union' } },
  { name: 'marker-size 3, diff3', args: ['--marker-size=3', '--diff3'], options: { style: 'diff3', markerSize: 3 } },
  { name: 'labels, zdiff3', args: ['-L', 'mine', '-L', 'old', '-L', 'yours', '--zdiff3'], options: { style: 'zdiff3', labels: { ours: 'mine', base: 'old', theirs: 'yours' } } },
];

type Random = () => number;

/** Code whose functions differ only in their names and one number: lines repeat with a short period. */
function repetitiveCode(lines: number, random: Random): string[] {
  const out: string[] = [];
  for (let f = 0; out.length < lines; f++) {
    out.push(`function handle${f}(input) {`, '  if (input == null) {', '    return null;', '  }');
    if (random() < 0.5) out.push('', '  for (const item of input) {', '    total += item;', '  }');
    out.push(`  return ${Math.floor(random() * 10)};`, '}', '');
  }
  return out.slice(0, lines);
}

/** A few edits on one side: changes, insertions and deletions of `size` lines, some long. */
function edit(base: readonly string[], random: Random, tag: string, edits: number, longest: number): string[] {
  const lines = [...base];
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * lines.length);
    const size = 1 + Math.floor(random() * longest);
    const kind = random();
    const added = Array.from({ length: size }, (_, i) => (random() < 0.4 ? ['}', '', '  }'][i % 3] as string : `  ${tag}(${e}, ${i});`));
    if (kind < 0.35) lines.splice(at, size);
    else if (kind < 0.7) lines.splice(at, 0, ...added);
    else lines.splice(at, size, ...added);
  }
  return lines;
}

const join = (lines: readonly string[], eol = '\n', finalNewline = true): string => (lines.length === 0 ? '' : lines.join(eol) + (finalNewline ? eol : ''));

function fixedTriples(): MergeTriple[] {
  const random = mulberry32(12);
  const code = repetitiveCode(600, random);
  const middle = Math.floor(code.length / 2);
  const withLine = (lines: readonly string[], at: number, text: string, remove = 1): string[] => {
    const out = [...lines];
    out.splice(at, remove, text);
    return out;
  };
  const triples: MergeTriple[] = [];
  const add = (name: string, base: string, ours: string, theirs: string): void => void triples.push({ name, base, ours, theirs });

  // Only the middle differs: everything else is the shared start and end.
  add('edges: both change the same middle line', join(code), join(withLine(code, middle, '  ours();')), join(withLine(code, middle, '  theirs();')));
  add('edges: neighbouring middle lines', join(code), join(withLine(code, middle, '  ours();')), join(withLine(code, middle + 1, '  theirs();')));
  add('edges: the same change on both sides', join(code), join(withLine(code, middle, '  same();')), join(withLine(code, middle, '  same();')));
  add('edges: first and last lines', join(code), join(withLine(code, 0, 'first')), join(withLine(code, code.length - 1, 'last')));
  add('edges: a line appended after a repeated one', 'a\nb\n', 'a\nb\nb\n', 'x\nb\n');
  add('edges: the start ends inside a line', 'shared prefix one\nz\n', 'shared prefix two\nz\n', 'shared prefix one\ny\n');
  add('edges: the end starts inside a line', 'q\nb\n', 'r\nb\n', 'xb\n');
  add('edges: one side only repeats the shared lines', 'a\na\n', 'a\na\na\n', 'a\na\n');
  // All equal, one side unchanged, one side or the base empty.
  add('equal: all three', join(code), join(code), join(code));
  add('equal: all three without a final newline', join(code, '\n', false), join(code, '\n', false), join(code, '\n', false));
  add('equal: all empty', '', '', '');
  add('unchanged: ours', join(code), join(code), join(withLine(code, 10, 'theirs')));
  add('unchanged: theirs', join(code), join(withLine(code, 10, 'ours')), join(code));
  add('empty: ours', join(code), '', join(withLine(code, 10, 'theirs')));
  add('empty: theirs, ours unchanged', join(code), join(code), '');
  add('empty: base (added on both sides)', '', join(code.slice(0, 50)), join(code.slice(0, 40)));
  add('empty: base, the same file added twice', '', join(code.slice(0, 50)), join(code.slice(0, 50)));
  // Line ends.
  add('crlf: everywhere', join(code, '\r\n'), join(withLine(code, middle, 'ours'), '\r\n'), join(withLine(code, middle, 'theirs'), '\r\n'));
  add('crlf: ours switches to LF', join(code, '\r\n'), join(code), join(withLine(code, middle, 'theirs'), '\r\n'));
  add('crlf: only in the middle', `${join(code.slice(0, 100))}${join(code.slice(100, 200), '\r\n')}${join(code.slice(200))}`, join(withLine(code, 150, 'o')), join(withLine(code, 151, 't'), '\r\n'));
  add('crlf: a CR alone inside lines', 'a\rb\nc\n', 'a\rb\nC\r\n', 'A\rb\nc\n');
  add('no final newline: both change the last line', 'a\nb\nc', 'a\nb\nC', 'a\nb\nc2');
  add('no final newline: ours adds one', 'a\nb\nc', 'a\nb\nc\n', 'a\nB\nc');
  add('no final newline: theirs appends a line', 'a\nb\nc', 'a\nB\nc', 'a\nb\nc\nd');
  add('no final newline: on one side only, in a conflict', 'a\nb\n', 'a\nB', 'a\nX\n');
  add('no final newline: both sides, union-worthy', 'x\n', 'x\nours', 'x\ntheirs');
  // Long runs around edits, runs longer than the run finder looks ahead.
  const long = repetitiveCode(20_000, random);
  add('runs: 20,000 lines, an edit each far apart', join(long), join(withLine(long, 3000, 'o')), join(withLine(long, 17_000, 't')));
  add('runs: 20,000 lines, 300 lines deleted', join(long), join([...long.slice(0, 5000), ...long.slice(5300)]), join(withLine(long, 15_000, 't')));
  add('runs: 20,000 lines, 300 lines inserted', join(long), join([...long.slice(0, 5000), ...repetitiveCode(300, random), ...long.slice(5000)]), join(withLine(long, 5100, 't')));
  add('runs: a block moved', join(long), join([...long.slice(0, 1000), ...long.slice(2000, 2100), ...long.slice(1000, 2000), ...long.slice(2100)]), join(withLine(long, 1500, 't')));
  add('runs: every line replaced', join(code), join(code.map((line) => `${line} // ours`)), join(withLine(code, 5, 't')));
  // Bytes that are not text (no NUL: git calls that binary).
  const bytes = Array.from({ length: 200 }, (_, i) => `${String.fromCharCode(0x80 + (i % 0x7f))}\x01\x7f\x0b\x0c\t${String.fromCharCode(0xff - (i % 50))} ${i % 7}`);
  add('bytes: latin1 and control bytes', join(bytes), join(withLine(bytes, 50, '\xe9\xe8\xff')), join(withLine(bytes, 51, '\x80\x81')));
  add('bytes: conflict of high bytes', join(bytes), join(withLine(bytes, 100, '\xfe ours')), join(withLine(bytes, 100, '\xfd theirs')));
  // Lines the hash cannot tell apart: equal hashes must never pass for equal lines.
  const pairs = collidingLines(6);
  const first = pairs.map(([a]) => a.slice(0, -1));
  const second = pairs.map(([, b]) => b.slice(0, -1));
  const collided = [...code.slice(0, 100), ...first, ...code.slice(100, 200), ...first, ...code.slice(200)];
  add('collisions: ours swaps a line for its twin', join(collided), join(withLine(collided, 100, second[0] as string)), join(withLine(collided, 300, 'theirs')));
  add('collisions: both sides take twins', join(collided), join(collided.map((line, i) => (i >= 100 && i < 106 ? (second[i - 100] as string) : line))), join(withLine(collided, 103, second[3] as string)));
  add('collisions: twins in a conflict', join([...first, 'end']), join([...second.slice(0, 3), ...first.slice(3), 'end']), join([...first.slice(0, 2), ...second.slice(2), 'end']));
  return triples;
}

/** Random code-like versions with few, sometimes long, edits: mostly runs the sides share with the base. */
function randomTriples(count: number, seed: number): MergeTriple[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, n) => {
    const base = repetitiveCode(300 + Math.floor(random() * 3000), random);
    const longest = random() < 0.3 ? 120 : 6;
    const ours = edit(base, random, 'ours', 1 + Math.floor(random() * 6), longest);
    const theirs = edit(base, random, 'theirs', 1 + Math.floor(random() * 6), longest);
    const eol = random() < 0.2 ? '\r\n' : '\n';
    const finalNewline = (): boolean => random() < 0.85;
    return { name: `random-${n}`, base: join(base, eol, finalNewline()), ours: join(ours, eol, finalNewline()), theirs: join(theirs, eol, finalNewline()) };
  });
}

describe.skipIf(!hasGit)('the merge engine fast paths vs git merge-file', () => {
  it('writes exactly what git writes, with the same conflict count, for every style and option', async () => {
    const triples = [...fixedTriples(), ...randomTriples(40, 5)];
    const git = await gitMergeVariants(triples, VARIANTS);
    const mismatches: string[] = [];
    let conflicted = 0;
    VARIANTS.forEach((variant, v) => {
      triples.forEach((triple, i) => {
        const expected = git[v]?.[i] as { text: string; status: number };
        const actual = mergeText(triple.base, triple.ours, triple.theirs, variant.options);
        if (variant.name === 'merge' && expected.status > 0) conflicted++;
        if (actual.text !== expected.text || Math.min(actual.conflicts, 127) !== expected.status) {
          mismatches.push(`${triple.name} [${variant.name}]: git ${expected.status} conflicts, arbor ${actual.conflicts}`);
        }
      });
    });
    console.log(`merge fast paths vs git: ${triples.length} triples × ${VARIANTS.length} variants, ${conflicted} with conflicts (merge style), ${mismatches.length} differing`);
    expect(mismatches).toEqual([]);
    // The cases must really conflict sometimes, or the styles and options would not be compared.
    expect(conflicted).toBeGreaterThan(triples.length / 4);
  }, 180_000);
});
