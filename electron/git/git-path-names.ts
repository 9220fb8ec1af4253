/**
 * The path names git refuses to check out, whatever platform Arbor runs on: a port of git's `verify_path`
 * (read-cache.c) with both `core.protectHFS` and `core.protectNTFS` on (`is_hfs_dotgit` in utf8.c,
 * `is_ntfs_dotgit` / `is_ntfs_dot_generic` in path.c). A transcript written on Linux may be rewound on macOS,
 * where `.GIT` or `.git\u200c` is the repository's folder, or on Windows, where `.git.`, `.git ` and
 * `git~1` are. Pure: no filesystem, so every writer and capture can ask it per name.
 *
 * Two rules go further than git 2.39 on Linux, because Arbor writes on every platform:
 * - a backslash at the start of a component is a separator too (git on Windows refuses it outright), so
 *   `\.git/config` is refused;
 * - a symlink named like `.gitignore`, `.gitattributes` or `.mailmap` is refused as git refuses a symlinked
 *   `.gitmodules` (git's fsck flags all four; git reads none of them through a link);
 * - `.` and `..` between backslashes (`a\..\..\x`) are refused: on Windows they leave the folder.
 */

/** HFS+ ignores these code points in names, so `.g\u200cit` is `.git` there (utf8.c `next_hfs_char`). */
function isHfsIgnorable(code: number): boolean {
  return (code >= 0x200c && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x206a && code <= 0x206f) || code === 0xfeff;
}

const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/;

/** The next code point at `at` that HFS+ does not ignore, and where the one after it starts (0 at the end). */
function nextHfsChar(path: string, at: number): { code: number; next: number } {
  for (;;) {
    if (at >= path.length) return { code: 0, next: at };
    const code = path.codePointAt(at)!;
    at += code > 0xffff ? 2 : 1;
    if (!isHfsIgnorable(code)) return { code, next: at };
  }
}

const lower = (code: number): number => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);

/** git's `is_hfs_dot_generic`: the component at `start` is `.<needle>` once HFS+ folds case and drops ignorables. */
function isHfsDot(path: string, start: number, needle: string, ignorables: boolean): boolean {
  if (!ignorables) {
    // Nothing to skip: a plain comparison (most paths, and the one capture makes for every name).
    const end = start + 1 + needle.length;
    return path[start] === '.' && matchesAscii(path, start + 1, needle) && (end === path.length || path[end] === '/');
  }
  let c = nextHfsChar(path, start);
  if (c.code !== 0x2e) return false;
  for (let i = 0; i < needle.length; i++) {
    c = nextHfsChar(path, c.next);
    // The needles are ASCII, so anything beyond it cannot fold onto them.
    if (c.code > 127 || lower(c.code) !== needle.charCodeAt(i)) return false;
  }
  c = nextHfsChar(path, c.next);
  return c.code === 0 || c.code === 0x2f;
}

/** The character at `at` is the ASCII letter `expected` in either case (false past the end). */
const isAsciiLetterCase = (path: string, at: number, expected: string): boolean => {
  const c = at < path.length ? path.charCodeAt(at) : 0;
  return c < 128 && lower(c) === expected.charCodeAt(0);
};

/** `text` (ASCII, lower case) is at `from`, in any case (git's strncasecmp against its needles). */
function matchesAscii(path: string, from: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isAsciiLetterCase(path, from + i, text[i]!)) return false;
  return true;
}

/**
 * git's `is_ntfs_dotgit`: `.git` or its 8.3 short name `git~1` (any case), then only spaces and dots (which
 * NTFS drops), up to the end of the component or a `:stream` suffix (`.git::$INDEX_ALLOCATION`).
 */
function isNtfsDotGit(path: string, start: number): boolean {
  let at = start + 1;
  if (path[start] === '.') {
    if (!matchesAscii(path, at, 'git')) return false;
    at += 3;
  } else if (isAsciiLetterCase(path, start, 'g')) {
    if (!matchesAscii(path, at, 'it') || path[at + 2] !== '~' || path[at + 3] !== '1') return false;
    at += 4;
  } else {
    return false;
  }
  for (;;) {
    const c = path[at++];
    if (c === undefined || c === '\\' || c === '/' || c === ':') return true;
    if (c !== '.' && c !== ' ') return false;
  }
}

/** After the name: only spaces and dots up to the end of the path or a `:` (is_ntfs_dot_generic's tail). */
function onlySpacesAndDots(path: string, at: number): boolean {
  for (;;) {
    const c = path[at++];
    if (c === undefined || c === ':') return true;
    if (c !== ' ' && c !== '.') return false;
  }
}

/**
 * git's `is_ntfs_dot_generic`: `.<name>`, its regular 8.3 short name (first six letters, `~1`…`~4`) or its
 * fall-back short name (`<shortPrefix>~<digits>`, eight characters), any case, then spaces and dots.
 */
function isNtfsDotGeneric(path: string, start: number, name: string, shortPrefix: string): boolean {
  const matches = (from: number, text: string): boolean => matchesAscii(path, from, text);
  if (path[start] === '.' && matches(start + 1, name)) return onlySpacesAndDots(path, start + 1 + name.length);
  if (matches(start, name.slice(0, 6)) && path[start + 6] === '~' && (path[start + 7] ?? '') >= '1' && (path[start + 7] ?? '') <= '4') {
    return onlySpacesAndDots(path, start + 8);
  }
  let sawTilde = false;
  let i = 0;
  for (; i < 8; i++) {
    const c = path[start + i];
    if (c === undefined) return false;
    if (sawTilde) {
      if (c < '0' || c > '9') return false;
    } else if (c === '~') {
      i++;
      const digit = path[start + i] ?? '';
      if (digit < '1' || digit > '9') return false;
      sawTilde = true;
    } else if (i >= 6 || c.charCodeAt(0) >= 0x80 || c.toLowerCase() !== shortPrefix[i]) {
      return false;
    }
  }
  // Nine when the tilde was eighth: git reads its digit, then goes on after it.
  return onlySpacesAndDots(path, start + i);
}

/** The dot files git reads for itself and never through a symlink, with their 8.3 fall-back prefixes (path.c). */
const LINK_PROTECTED = [
  ['gitmodules', 'gi7eba'],
  ['gitignore', 'gi250a'],
  ['gitattributes', 'gi7d29'],
  ['mailmap', 'maba30'],
] as const;

/** NTFS names for `.git` (or, for a symlink, a protected dot file) at `start`; git checks these after a backslash too. */
function refusedOnNtfs(path: string, start: number, symlink: boolean): boolean {
  return isNtfsDotGit(path, start) || (symlink && LINK_PROTECTED.some(([name, prefix]) => isNtfsDotGeneric(path, start, name, prefix)));
}

/** HFS+ names for the same, checked where a component starts. */
function refusedOnHfs(path: string, start: number, symlink: boolean, ignorables: boolean): boolean {
  return isHfsDot(path, start, 'git', ignorables) || (symlink && LINK_PROTECTED.some(([name]) => isHfsDot(path, start, name, ignorables)));
}

/** git's `verify_dotfile` on what follows a leading `.`: refuses `.`, `..`, `.git` (any case), a symlinked `.gitmodules`. */
function refusedDotfile(path: string, at: number, symlink: boolean): boolean {
  const end = (i: number): boolean => i >= path.length || path[i] === '/';
  if (end(at)) return true;
  if (path[at] === '.') return end(at + 1);
  if (!matchesAscii(path, at, 'git')) return false;
  if (end(at + 3)) return true;
  return symlink && matchesAscii(path, at + 3, 'modules') && end(at + 10);
}

/** `.` or `..` from `at` up to the next separator (either slash): a step in place or up on Windows. */
function isDotPiece(path: string, at: number): boolean {
  const end = (i: number): boolean => i >= path.length || path[i] === '/' || path[i] === '\\';
  return path[at] === '.' && (end(at + 1) || (path[at + 1] === '.' && end(at + 2)));
}

/**
 * A single name none of the rules can refuse: every rule starts from a `.`, a `g`, an HFS+ ignorable code point
 * (U+200C and above), a `~` (8.3 short names) or a backslash, or needs an empty name or a NUL. Capture asks
 * this of every name it walks, so the common case costs a few character tests.
 */
function isPlainName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (name.length === 0 || first === 0x2e || first === 0x47 || first === 0x67 || first >= 0x200c) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2f || c === 0x5c || c === 0x7e || c === 0) return false;
  }
  return true;
}

export interface PathNameOptions {
  /** The path is (or will be) a symbolic link: `.gitmodules` and the other files git reads must not be one. */
  readonly symlink?: boolean;
}

/**
 * True when git would refuse `path` (workspace-relative, `/`-separated) in a tree or index on any platform:
 * empty components (`a//b`, a leading or trailing `/`), `.` and `..`, NUL, and every name that is `.git`
 * on a case-insensitive, HFS+ or NTFS filesystem, at any depth.
 */
export function isRefusedGitPath(path: string, options: PathNameOptions = {}): boolean {
  const symlink = options.symlink === true;
  if (isPlainName(path)) return false;
  if (path.includes('\0')) return true;
  const ignorables = HFS_IGNORABLE.test(path);
  let start = 0;
  for (;;) {
    // The checks of verify_path_internal's `inside:`, on the rest of the path from this component.
    if (refusedOnHfs(path, start, symlink, ignorables) || refusedOnNtfs(path, start, symlink)) return true;
    const first = path[start];
    if (first === undefined || first === '/') return true;
    if (first === '.' && refusedDotfile(path, start + 1, symlink)) return true;
    let at = start;
    for (;;) {
      const c = path[at];
      if (c === undefined) return false;
      // As git after a backslash inside a component; first in one too (git on Linux skips that one, Windows refuses it).
      if (c === '\\' && (refusedOnNtfs(path, at + 1, symlink) || isDotPiece(path, at + 1))) return true;
      at++;
      if (c === '/') break;
    }
    start = at;
  }
}
