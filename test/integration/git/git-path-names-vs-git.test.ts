/**
 * The path-name rule against native git: every generated name goes through `git update-index --index-info`
 * with core.protectHFS and core.protectNTFS on, which adds what git accepts and ignores what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { isRefusedGitPath } from '../../../electron/git/git-path-names';
import { GIT_PATH_CASES } from '../../unit/electron/git/git-path-cases';
import { git, gitAvailable, NO_GIT, tempDir } from './git-fixture';

const STEMS = ['.git', 'git~1', 'git~2', 'git', '.gitmodules', 'gitmod~1', 'gi7eba~1', '.gitignore', 'gi250a~1', '.mailmap', '.github', '.g', '..git', 'x'];
const CASINGS = [(s: string) => s, (s: string) => s.toUpperCase().replace(/(.)$/, (c) => c.toLowerCase())];
const INSERTS = ['', '\u200c', '\u202e', '\u206a', '\ufeff', '\u200b'];
const SUFFIXES = ['', '.', ' . ', '::$INDEX_ALLOCATION', ':x', 'x', '\\', '\\x', '.x'];
const PREFIXES = ['', 'a\\', '\u200d'];

/** Names built from .git-like stems: case changed, an HFS+ ignorable (or a look-alike) put inside, dressed front and back. */
function generatedNames(): string[] {
  const names = new Set<string>();
  for (const stem of STEMS) {
    for (const casing of CASINGS) {
      const cased = casing(stem);
      for (const insert of INSERTS) {
        for (const at of insert === '' ? [0] : [0, 2, cased.length]) {
          const base = cased.slice(0, at) + insert + cased.slice(at);
          for (const prefix of PREFIXES) for (const suffix of SUFFIXES) names.add(prefix + base + suffix);
        }
      }
    }
  }
  return [...names];
}

/** The paths git accepts of `paths`, each added once as a file (or symlink) with `mode`. */
function acceptedByGit(dir: string, paths: readonly string[], mode: '100644' | '120000'): Set<string> {
  const repo = `${dir}/${mode}`;
  git(dir, ['init', '-q', repo]);
  const oid = git(repo, ['hash-object', '-w', '--stdin'], 'x').trim();
  const input = paths.map((path) => `${mode} ${oid}\t${path}\0`).join('');
  git(repo, ['-c', 'core.protectHFS=true', '-c', 'core.protectNTFS=true', 'update-index', '-z', '--add', '--index-info'], input);
  return new Set(git(repo, ['ls-files', '-z']).split('\0').filter((path) => path !== ''));
}

describe.skipIf(!gitAvailable)(`names git refuses, against git update-index${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
  // Each name alone, and as a folder below another folder, so names never collide as file and folder.
  const names = generatedNames();
  const paths = [...names, ...names.map((name, i) => `d${i}/${name}/f`), ...GIT_PATH_CASES.map((c, i) => `c${i}/${c.path}`)];

  it.each(['100644', '120000'] as const)('refuses exactly what git refuses (mode %s), beyond it only by the stricter rules', (mode) => {
    const temp = tempDir('git-names');
    try {
      const accepted = acceptedByGit(temp.path, paths, mode);
      const symlink = mode === '120000';
      const missed = paths.filter((path) => !accepted.has(path) && !isRefusedGitPath(path, { symlink }));
      const stricter = paths.filter((path) => accepted.has(path) && isRefusedGitPath(path, { symlink }));
      expect(missed).toEqual([]);
      // Beyond git: a backslash first in a component, `.` or `..` between backslashes, and (symlinks) the other dot files git reads.
      const explained = (path: string): boolean =>
        /(^|\/)\\|\\\.\.?(\\|\/|$)/.test(path) ||
        (symlink &&
          /(^|[/\\])(\.(gitignore|gitattributes|mailmap)|gi250a~|gi7d29~|maba30~|gitign~|gitatt~|mailma~)/i.test(path.replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '')));
      expect(stricter.filter((path) => !explained(path))).toEqual([]);
      expect(stricter.length).toBeGreaterThan(0);
      expect(accepted.size).toBeGreaterThan(paths.length / 4);
    } finally {
      temp.remove();
    }
  });

  it('the case table says what git says, except where it marks Arbor stricter', () => {
    const temp = tempDir('git-names');
    try {
      const files = acceptedByGit(temp.path, GIT_PATH_CASES.filter((c) => c.path !== '' && c.symlink !== true).map((c) => c.path), '100644');
      const links = acceptedByGit(temp.path, GIT_PATH_CASES.filter((c) => c.symlink === true).map((c) => c.path), '120000');
      for (const { path, refused, symlink, stricter } of GIT_PATH_CASES) {
        if (path === '') continue;
        const gitRefuses = !(symlink === true ? links : files).has(path);
        expect(gitRefuses, JSON.stringify(path)).toBe(stricter === true ? false : refused);
      }
    } finally {
      temp.remove();
    }
  });
});
