import { describe, expect, it } from 'vitest';
import { mergeText } from '../../../../shared/merge';
import { changedWords, conflictWords, paneWords, type TextRange } from '../../../../renderer/src/merge/word-changes';
import { lines } from './merge-fixtures';

const cut = (text: string, ranges: readonly TextRange[]) => ranges.map((r) => text.slice(r.from, r.to));

describe('changed words', () => {
  it('marks the words that replaced others, on word boundaries', () => {
    const a = 'node dist/index.js notes.txt\n';
    const b = 'node dist/index.js --json notes.txt\n';
    const words = changedWords(a, b);
    expect(cut(a, words.a)).toEqual([]);
    expect(cut(b, words.b)).toEqual(['--json']);
  });

  it('marks a replaced word as a whole word, not the letters that differ', () => {
    const a = 'const total = count(words);\n';
    const b = 'const total = countAll(words);\n';
    const words = changedWords(a, b);
    expect(cut(a, words.a)).toEqual(['count']);
    expect(cut(b, words.b)).toEqual(['countAll']);
  });

  it('joins changed words separated only by blanks into one mark', () => {
    const a = '# tally, the word counter\n';
    const b = '# tally: count words\n';
    const words = changedWords(a, b);
    expect(cut(a, words.a)).toEqual([', the word counter']);
    expect(cut(b, words.b)).toEqual([': count words']);
  });

  it('leaves the blanks at a change\'s edges unmarked, unless blanks are all that changed', () => {
    expect(cut('hello world\n', changedWords('hello\n', 'hello world\n').b)).toEqual(['world']);
    const indented = changedWords('if (x) {\n', '  if (x) {\n');
    expect(cut('  if (x) {\n', indented.b)).toEqual(['  ']);
  });

  it('marks nothing when the two share no word (the whole line changed)', () => {
    expect(changedWords('alpha beta\n', 'gamma delta\n')).toEqual({ a: [], b: [] });
    expect(changedWords('same\n', 'same\n')).toEqual({ a: [], b: [] });
  });

  it('keeps offsets right past characters outside the BMP and CRLF line ends', () => {
    const a = 'say 🌳 hello\r\n';
    const b = 'say 🌳 goodbye\r\n';
    const words = changedWords(a, b);
    expect(cut(a, words.a)).toEqual(['hello']);
    expect(cut(b, words.b)).toEqual(['goodbye']);
  });

  it('finds one changed word among a thousand distinct ones, and gives up on a hunk too long to read word by word', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const a = `${words(1000)}\n`;
    const b = a.replace('w999', 'changed');
    expect(cut(b, changedWords(a, b).b)).toEqual(['changed']);
    const long = `${words(3000)}\n`;
    expect(changedWords(long, long.replace('w2999', 'changed'))).toEqual({ a: [], b: [] });
  });
});

describe('pane words', () => {
  it('places each side\'s changed words in its pane and the replaced ones in the base pane', () => {
    const base = lines('one', 'the quick fox', 'three', 'jumps over it');
    const ours = lines('one', 'the slow fox', 'three', 'jumps over it');
    const theirs = lines('one', 'the quick fox', 'three', 'leaps over it');
    const merged = mergeText(base, ours, theirs);
    const words = paneWords({ base, ours, theirs }, merged.changes);
    expect(cut(ours, words.ours)).toEqual(['slow']);
    expect(cut(theirs, words.theirs)).toEqual(['leaps']);
    expect(cut(base, words.base)).toEqual(['quick', 'jumps']);
  });

  it('leaves whole added lines to the line colour', () => {
    const base = lines('one');
    const ours = lines('one', 'two');
    const words = paneWords({ base, ours, theirs: base }, mergeText(base, ours, base).changes);
    expect(words).toEqual({ ours: [], base: [], theirs: [] });
  });
});

describe('conflict words', () => {
  it('marks each side of a conflict against the base', () => {
    const merged = mergeText(lines('node dist/index.js notes.txt'), lines('node dist/index.js --top 5 notes.txt'), lines('node dist/index.js --json notes.txt'));
    const region = merged.regions.find((r) => r.kind === 'conflict');
    if (region?.kind !== 'conflict') throw new Error('expected a conflict');
    const words = conflictWords(region);
    expect(cut(region.ours.join(''), words.ours)).toEqual(['--top 5']);
    expect(cut(region.theirs.join(''), words.theirs)).toEqual(['--json']);
    expect(words.base).toEqual([]);
  });

  it('marks the two sides against each other when both added the lines (no base)', () => {
    const merged = mergeText('', lines('port = 8080'), lines('port = 9090'));
    const region = merged.regions.find((r) => r.kind === 'conflict');
    if (region?.kind !== 'conflict') throw new Error('expected a conflict');
    const words = conflictWords(region);
    expect(cut(region.ours.join(''), words.ours)).toEqual(['8080']);
    expect(cut(region.theirs.join(''), words.theirs)).toEqual(['9090']);
  });
});
