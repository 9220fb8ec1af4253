/**
 * Just enough of git's config to find the global ignore file as git does (config.c): the files in git's
 * order (system unless GIT_CONFIG_NOSYSTEM, or GIT_CONFIG_SYSTEM; global `$XDG_CONFIG_HOME/git/config`
 * then `~/.gitconfig`, or GIT_CONFIG_GLOBAL alone; the repository's; GIT_CONFIG_COUNT/KEY_n/VALUE_n), later
 * values winning, `[include] path` followed (relative to the including file, `~/` expanded, 10 deep).
 * `[includeIf]` is not evaluated (its files are not read). The home folder and the environment are given,
 * never read here. Also: the repository git runs in from a folder (findGitDir) and merge.conflictStyle, for
 * `arbor merge-file` (kept free of isomorphic-git: the lean merge-file entry bundles this file).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { MergeStyle } from '../../shared/merge/types';

/** Where git looks for the user's files: the home folder and the environment git would run with. */
export interface GitEnvironment {
  /** The user's home (git's $HOME); undefined when there is none. */
  readonly home: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One `name = value` line: the name as git spells variables (`section.subsection.key`, section and key lower case). */
export interface ConfigEntry {
  readonly name: string;
  /** null: the key alone (`key` with no `=`), a boolean true. */
  readonly value: string | null;
}

const MAX_INCLUDE_DEPTH = 10;
const isAlpha = (c: string): boolean => /^[A-Za-z]$/.test(c);
const isKeyChar = (c: string): boolean => /^[A-Za-z0-9-]$/.test(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

/**
 * The entries of one config file in order, as git's parser reads them (comments, quotes, escapes,
 * continuation lines, `[section "subsection"]` and the old `[section.subsection]`). Git stops with an error
 * at a malformed line; here the entries before it are kept and the rest of the file is not read.
 */
export function parseGitConfig(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let at = text.startsWith('\ufeff') ? 1 : 0;
  // git_parse_source's get_next_char: CRLF reads as LF, the end of the file as a last LF.
  const next = (): string => {
    if (at >= text.length) {
      at++;
      return '\n';
    }
    const c = text[at++]!;
    if (c === '\r' && text[at] === '\n') {
      at++;
      return '\n';
    }
    return c;
  };
  const atEnd = (): boolean => at > text.length;
  let section = '';

  /** parse_value: the value after `=`, up to the end of its (possibly continued) line; undefined when malformed. */
  const value = (): string | undefined => {
    let out = '';
    let quote = false;
    let comment = false;
    let spaces = 0;
    for (;;) {
      let c = next();
      if (c === '\n') return quote ? undefined : out;
      if (comment) continue;
      if (isSpace(c) && !quote) {
        if (out.length > 0) spaces++;
        continue;
      }
      if (!quote && (c === ';' || c === '#')) {
        comment = true;
        continue;
      }
      out += ' '.repeat(spaces);
      spaces = 0;
      if (c === '\\') {
        c = next();
        if (c === '\n') continue;
        if (c === 't') c = '\t';
        else if (c === 'b') c = '\b';
        else if (c === 'n') c = '\n';
        else if (c !== '\\' && c !== '"') return undefined;
        out += c;
        continue;
      }
      if (c === '"') {
        quote = !quote;
        continue;
      }
      out += c;
    }
  };

  /** get_base_var (+ get_extended_base_var): the section after `[`; undefined when malformed. */
  const header = (): string | undefined => {
    let name = '';
    for (;;) {
      const c = next();
      if (atEnd()) return undefined;
      if (c === ']') return name;
      if (isSpace(c)) {
        // `[section "subsection"]`: the subsection keeps its case; `\x` is x.
        if (c === '\n') return undefined;
        let d = next();
        while (isSpace(d) && d !== '\n') d = next();
        if (d !== '"') return undefined;
        let subsection = '';
        for (;;) {
          d = next();
          if (d === '\n') return undefined;
          if (d === '"') break;
          if (d === '\\') {
            d = next();
            if (d === '\n') return undefined;
          }
          subsection += d;
        }
        return next() === ']' ? `${name}.${subsection}` : undefined;
      }
      if (!isKeyChar(c) && c !== '.') return undefined;
      name += c.toLowerCase();
    }
  };

  for (;;) {
    const c = next();
    if (atEnd()) return entries;
    if (c === '\n' || isSpace(c)) continue;
    if (c === '#' || c === ';') {
      while (next() !== '\n');
      continue;
    }
    if (c === '[') {
      const name = header();
      if (name === undefined) return entries;
      section = name;
      continue;
    }
    if (!isAlpha(c) || section === '') return entries;
    // get_value: the key, then `=` and a value, or the end of the line (a boolean true).
    let key = c.toLowerCase();
    let d = next();
    while (isKeyChar(d)) {
      key += d.toLowerCase();
      d = next();
    }
    while (d === ' ' || d === '\t') d = next();
    if (d === '\n') {
      entries.push({ name: `${section}.${key}`, value: null });
      continue;
    }
    if (d !== '=') return entries;
    const parsed = value();
    if (parsed === undefined) return entries;
    entries.push({ name: `${section}.${key}`, value: parsed });
  }
}

/** git's interpolate_path: `~` and `~/…` are the home folder; `~user` is not supported (undefined, as git fails). */
export function expandPath(path: string, home: string | undefined): string | undefined {
  if (!path.startsWith('~')) return path;
  if (path !== '~' && !path.startsWith('~/')) return undefined;
  return home === undefined ? undefined : join(home, path.slice(1));
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** An environment flag as git_env_bool reads it. */
function envFlag(value: string | undefined): boolean {
  if (value === undefined) return false;
  const lower = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(lower)) return true;
  if (['false', 'no', 'off', ''].includes(lower)) return false;
  const number = Number(lower);
  return Number.isFinite(number) && number !== 0;
}

/** `$XDG_CONFIG_HOME/git/<name>`, else `~/.config/git/<name>` (path.c xdg_config_home). */
export function xdgConfigPath(name: string, git: GitEnvironment): string | undefined {
  const xdg = git.env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'git', name);
  return git.home === undefined ? undefined : join(git.home, '.config', 'git', name);
}

/** The config files git reads, in its order (later values win). `gitDir`: the repository's common git dir. */
export function configFiles(git: GitEnvironment, gitDir: string | undefined): string[] {
  const files: string[] = [];
  if (!envFlag(git.env.GIT_CONFIG_NOSYSTEM)) files.push(git.env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  const global = git.env.GIT_CONFIG_GLOBAL;
  if (global !== undefined) {
    if (global !== '') files.push(global);
  } else {
    const xdg = xdgConfigPath('config', git);
    if (xdg !== undefined) files.push(xdg);
    if (git.home !== undefined) files.push(join(git.home, '.gitconfig'));
  }
  if (gitDir !== undefined) files.push(join(gitDir, 'config'));
  return files;
}

/** Every entry git would see, in order, with `[include] path` files read where they are named. */
export function readGitConfig(git: GitEnvironment, gitDir: string | undefined): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  const readFile = (file: string, depth: number): void => {
    const text = readText(file);
    if (text === undefined) return;
    for (const entry of parseGitConfig(text)) {
      entries.push(entry);
      if (entry.name !== 'include.path' || entry.value === null || depth >= MAX_INCLUDE_DEPTH) continue;
      const expanded = expandPath(entry.value, git.home);
      if (expanded === undefined || expanded === '') continue;
      readFile(isAbsolute(expanded) ? expanded : join(dirname(file), expanded), depth + 1);
    }
  };
  for (const file of configFiles(git, gitDir)) readFile(file, 0);
  // GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>, as `git -c` but from the environment.
  const count = Number(git.env.GIT_CONFIG_COUNT ?? 0);
  for (let i = 0; Number.isInteger(count) && i < count; i++) {
    const key = git.env[`GIT_CONFIG_KEY_${i}`];
    const value = git.env[`GIT_CONFIG_VALUE_${i}`];
    if (key === undefined || value === undefined) break;
    const dot = key.lastIndexOf('.');
    const first = key.indexOf('.');
    if (first < 0 || dot === key.length - 1) break;
    // Section and key fold to lower case; a subsection between them keeps its case.
    const name = first === dot ? key.toLowerCase() : `${key.slice(0, first).toLowerCase()}${key.slice(first, dot)}${key.slice(dot).toLowerCase()}`;
    entries.push({ name, value });
  }
  return entries;
}

/** The last value of `name` (lower-case section and key), ignoring keys given without a value. */
export function lastValue(entries: readonly ConfigEntry[], name: string): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.name === name && entry.value !== null) return entry.value;
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** setup.c's is_git_directory: a HEAD, and an objects and a refs folder (a worktree's are in its common dir). */
function isGitDirectory(path: string): boolean {
  try {
    statSync(join(path, 'HEAD'));
  } catch {
    return false;
  }
  const common = commonDir(path);
  return isDirectory(join(common, 'objects')) && isDirectory(join(common, 'refs'));
}

/** A worktree's git dir names the repository's own in `commondir`, where the config is. */
function commonDir(gitDir: string): string {
  const common = readText(join(gitDir, 'commondir'));
  return common === undefined ? gitDir : resolve(gitDir, common.trim());
}

/**
 * The common git dir of the repository git runs in from `cwd`, found as setup.c finds it: $GIT_DIR, else
 * the first folder from `cwd` up with a `.git` (a folder, or a file naming one: worktrees, submodules) or
 * that is a bare repository itself, never climbing into a GIT_CEILING_DIRECTORIES entry. Undefined
 * outside a repository (and where git would stop with "not a git repository").
 */
export function findGitDir(cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const explicit = env.GIT_DIR;
  if (explicit !== undefined && explicit !== '') {
    const gitDir = resolve(cwd, explicit);
    return isGitDirectory(gitDir) ? commonDir(gitDir) : undefined;
  }
  const ceilings = new Set(
    (env.GIT_CEILING_DIRECTORIES ?? '')
      .split(':')
      .filter((path) => isAbsolute(path))
      .map((path) => resolve(path)),
  );
  for (let dir = resolve(cwd); ; ) {
    const dotGit = join(dir, '.git');
    if (isDirectory(dotGit)) {
      if (isGitDirectory(dotGit)) return commonDir(dotGit);
    } else {
      const pointer = readText(dotGit);
      if (pointer !== undefined) {
        const match = /^gitdir: (.+)$/m.exec(pointer);
        const gitDir = match === null ? undefined : resolve(dir, (match[1] as string).trim());
        return gitDir !== undefined && isGitDirectory(gitDir) ? commonDir(gitDir) : undefined;
      }
    }
    if (isGitDirectory(dir)) return commonDir(dir);
    const parent = dirname(dir);
    if (parent === dir || ceilings.has(parent)) return undefined;
    dir = parent;
  }
}

/**
 * merge.conflictStyle as git's xmerge config reads it: every value in order, the last one winning,
 * and git stopping (`fatal`) at the first it does not know, spelled exactly (no case folding).
 */
export function configuredConflictStyle(git: GitEnvironment, gitDir: string): { readonly style: MergeStyle } | { readonly fatal: string } {
  let style: MergeStyle = 'merge';
  for (const entry of readGitConfig(git, gitDir)) {
    if (entry.name !== 'merge.conflictstyle') continue;
    if (entry.value === null) return { fatal: "'merge.conflictstyle' is not a boolean" };
    if (entry.value !== 'merge' && entry.value !== 'diff3' && entry.value !== 'zdiff3') {
      return { fatal: `unknown style '${entry.value}' given for 'merge.conflictstyle'` };
    }
    style = entry.value;
  }
  return { style };
}
