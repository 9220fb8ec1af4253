import { describe, expect, it } from 'vitest';
import { isIgnored, parseIgnoreFile, parseIgnorePattern, type IgnoreLevel } from '../../../../electron/git/ignore-rules';
import { IGNORE_CASES, IGNORE_FILES, INFO_EXCLUDE } from './ignore-cases';

/** The levels the capture walk would hold for a folder: its .gitignore files deepest first, then info/exclude. */
function levelsFor(folder: string): IgnoreLevel[] {
  const levels: IgnoreLevel[] = [];
  const parts = folder === '' ? [] : folder.split('/');
  for (let depth = parts.length; depth >= 0; depth--) {
    const base = parts.slice(0, depth).join('/');
    const content = IGNORE_FILES[base === '' ? '.gitignore' : `${base}/.gitignore`];
    if (content !== undefined) levels.push({ base, patterns: parseIgnoreFile(Buffer.from(content)) });
  }
  levels.push({ base: '', patterns: parseIgnoreFile(Buffer.from(INFO_EXCLUDE)) });
  return levels;
}

/** As the walk decides: a path inside an ignored folder is never reached. */
function ignoredByWalk(path: string, directory: boolean): boolean {
  const parts = path.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    const isDirectory = i < parts.length || directory;
    if (isIgnored(levelsFor(parts.slice(0, i - 1).join('/')), prefix, parts[i - 1]!, isDirectory)) return true;
  }
  return false;
}

describe('ignore rules', () => {
  it.each(IGNORE_CASES)('$path → ignored: $ignored', ({ path, directory, ignored }) => {
    expect(ignoredByWalk(path, directory ?? false)).toBe(ignored);
  });

  it('parses negation, directory-only and anchoring', () => {
    expect(parseIgnorePattern('!/build/')).toMatchObject({ negated: true, directoryOnly: true, basenameOnly: false });
    expect(parseIgnorePattern('*.log')).toMatchObject({ negated: false, directoryOnly: false, basenameOnly: true });
    expect(parseIgnorePattern('# note')).toBeUndefined();
    expect(parseIgnorePattern('   ')).toBeUndefined();
    // An unterminated bracket never matches (git aborts the match).
    expect(parseIgnorePattern('[abc')?.regex).toBeUndefined();
  });

  it('skips a UTF-8 byte order mark at the start of the file', () => {
    const patterns = parseIgnoreFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first.txt\n')]));
    expect(isIgnored([{ base: '', patterns }], 'first.txt', 'first.txt', false)).toBe(true);
  });

  it('decides 10k paths quickly', () => {
    const levels = levelsFor('sub');
    const start = performance.now();
    let count = 0;
    for (let i = 0; i < 10_000; i++) if (isIgnored(levels, `sub/file${i}.ts`, `file${i}.ts`, false)) count++;
    expect(count).toBe(0);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
