/**
 * Names from git's own tests (t1014-read-tree-confusing.sh, t0060-path-utils.sh, t7415-submodule-names.sh)
 * and what git 2.39 decides for them with core.protectHFS and core.protectNTFS on. `stricter` marks the two
 * rules where Arbor refuses what git on Linux accepts (see electron/git/git-path-names.ts).
 */
export interface GitPathCase {
  readonly path: string;
  readonly refused: boolean;
  readonly symlink?: boolean;
  readonly stricter?: boolean;
}

const refused = (path: string, symlink = false): GitPathCase => ({ path, refused: true, ...(symlink ? { symlink } : {}) });
const accepted = (path: string, symlink = false): GitPathCase => ({ path, refused: false, ...(symlink ? { symlink } : {}) });

export const GIT_PATH_CASES: readonly GitPathCase[] = [
  // what every git refuses
  refused(''),
  refused('.'),
  refused('..'),
  refused('.git'),
  refused('a//b'),
  refused('a/'),
  refused('/a'),
  refused('a/./b'),
  refused('a/../b'),
  // case folding (t1014: .GIT, .Git)
  refused('.GIT'),
  refused('.Git'),
  refused('.gIT/config'),
  // HFS+ ignorable code points, before, inside and after
  refused('.gi\u200ct'),
  refused('.g\u200dit'),
  refused('.git\u200c'),
  refused('.git\u200e/hooks/pre-commit'),
  refused('\u206a.git'),
  refused('.\u202egit'),
  refused('.git\ufeff'),
  refused('.GI\u206ft'),
  // NTFS: trailing dots and spaces, streams, 8.3 short names, backslash separators
  refused('.git.'),
  refused('.git '),
  refused('.git. . .'),
  refused('.git::$INDEX_ALLOCATION'),
  refused('.git:stream'),
  refused('git~1'),
  refused('GIT~1'),
  refused('Git~1 . '),
  refused('git~1:x'),
  refused('.git\\config'),
  refused('a\\.git'),
  refused('a\\git~1\\config'),
  // accepted alike
  accepted('.gitignore'),
  accepted('.github'),
  accepted('.git-foo'),
  accepted('..git'),
  accepted('.gitx'),
  accepted('.git.x'),
  accepted('.git x'),
  accepted('git'),
  accepted('git~2'),
  accepted('GIT~2/config'),
  accepted('git~10'),
  accepted('.g\\x'),
  accepted('a\\...\\b'),
  accepted('x.git'),
  accepted('.gi\u00e7'),
  accepted('.git\u200b'), // U+200B is not one HFS+ ignores
  accepted('.gitmodules'),
  accepted('gi7eba~1'),
  accepted('a.b/c d/e'),
  // a symlink may not be .gitmodules under any of its names (t7415)
  refused('.gitmodules', true),
  refused('.GITMODULES ', true),
  refused('.gitmodules:x', true),
  refused('gi7eba~1', true),
  refused('GITMOD~1', true),
  refused('gitmod~4', true),
  refused('.gitmodul\u200ces', true),
  refused('a/.gitmodules/b', true),
  accepted('gitmod~5', true),
  accepted('.gitmodulesx', true),
  accepted('link', true),
  // Arbor's stricter rules
  { path: '\\.git/config', refused: true, stricter: true },
  { path: 'a/\\git~1', refused: true, stricter: true },
  { path: 'a\\..\\..\\x', refused: true, stricter: true },
  { path: 'a\\.', refused: true, stricter: true },
  { path: '.gitignore', refused: true, symlink: true, stricter: true },
  { path: 'GITIGN~1', refused: true, symlink: true, stricter: true },
  { path: 'gi250a~1', refused: true, symlink: true, stricter: true },
  { path: '.gitattributes.', refused: true, symlink: true, stricter: true },
  { path: 'gi7d29~9', refused: true, symlink: true, stricter: true },
  { path: '.MAILMAP', refused: true, symlink: true, stricter: true },
  { path: 'maba30~2', refused: true, symlink: true, stricter: true },
];

/** Each case's name below folders and above a file too, where the rule is the same (a path component). */
export function atDepth(path: string): string {
  return `src/${path}/file.txt`;
}
