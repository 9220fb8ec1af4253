/**
 * Random small workspaces for the operation engine's round-trip test: text with LF, CRLF, a BOM or invalid
 * UTF-8, binary, empty and executable files, symlinks (some dangling), nested folders, and ignored files
 * that every operation must leave alone. Mutations cover edits, creations, deletions, mode changes, a file
 * turning into a symlink, and a file turning into a folder (and back). Empty folders (some 0700) can be added
 * on disk: where a rewind writes a file into them, where a file will stand, or beside the files.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Random } from '../../../shared/random';
import { writeEntry, type Entry } from './operation-fixture';

export type WorkspaceState = Map<string, Entry>;

/** Ignored by the workspace's .gitignore; written once and never planned. */
export const IGNORED: ReadonlyMap<string, Entry> = new Map([
  ['.gitignore', { kind: 'file', bytes: Buffer.from('*.log\nbuild/\n') }],
  ['x.log', { kind: 'file', bytes: Buffer.from('ignored log\n') }],
  ['build/out.bin', { kind: 'file', bytes: Buffer.from([0, 1, 2, 3]) }],
  ['keep/z.log', { kind: 'file', bytes: Buffer.from('ignored, in a folder of its own\n') }],
] satisfies [string, Entry][]);

const FOLDERS = ['', '', 'src', 'src/util', 'lib', 'docs', 'ünï code'];
const NAMES = ['a', 'b', 'main', 'util', 'read me', 'ñ', 'data'];
const EXTENSIONS = ['', '.ts', '.txt', '.bin', '.md'];

function randomContent(rng: Random): Buffer {
  const words = Array.from({ length: rng.int(0, 6) }, () => rng.base62(rng.int(1, 8)));
  switch (rng.int(0, 5)) {
    case 0:
      return Buffer.from(`${words.join('\n')}\n`);
    case 1:
      return Buffer.from(`${words.join('\r\n')}\r\n`);
    case 2:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(words.join(' '))]);
    case 3:
      return Buffer.concat([Buffer.from(words.join(' ')), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x0a])]);
    case 4:
      return Buffer.from(Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 255)));
    default:
      return Buffer.alloc(0);
  }
}

function randomEntry(rng: Random, state: WorkspaceState): Entry {
  if (rng.chance(0.15)) {
    const paths = [...state.keys()];
    const target = paths.length > 0 && rng.chance(0.7) ? `../${rng.pick(paths)}` : `missing-${rng.base62(4)}`;
    return { kind: 'link', bytes: Buffer.from(target) };
  }
  return { kind: rng.chance(0.2) ? 'exec' : 'file', bytes: randomContent(rng) };
}

/** True when `path` can join the state: no file is a folder above it, and it is not a folder above one. */
function fits(state: WorkspaceState, path: string): boolean {
  if (state.has(path)) return false;
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) if (state.has(parts.slice(0, i).join('/'))) return false;
  for (const other of state.keys()) if (other.startsWith(`${path}/`)) return false;
  return true;
}

function newPath(rng: Random, state: WorkspaceState): string | undefined {
  for (let attempt = 0; attempt < 20; attempt++) {
    const folder = rng.pick(FOLDERS);
    const name = `${rng.pick(NAMES)}${rng.pick(EXTENSIONS)}`;
    const path = folder === '' ? name : `${folder}/${name}`;
    if (fits(state, path)) return path;
  }
  return undefined;
}

export function randomState(rng: Random): WorkspaceState {
  const state: WorkspaceState = new Map();
  const count = rng.int(1, 8);
  for (let i = 0; i < count; i++) {
    const path = newPath(rng, state);
    if (path) state.set(path, randomEntry(rng, state));
  }
  return state;
}

export function mutate(rng: Random, before: WorkspaceState): WorkspaceState {
  const state = new Map(before);
  const steps = rng.int(1, 5);
  for (let i = 0; i < steps; i++) {
    const paths = [...state.keys()];
    const path = paths.length > 0 ? rng.pick(paths) : undefined;
    const entry = path === undefined ? undefined : state.get(path);
    const action = rng.int(0, 6);
    if (path === undefined || entry === undefined || action === 0) {
      const created = newPath(rng, state);
      if (created) state.set(created, randomEntry(rng, state));
    } else if (action === 1) {
      state.set(path, { kind: entry.kind === 'link' ? 'file' : entry.kind, bytes: randomContent(rng) });
    } else if (action === 2) {
      state.delete(path);
    } else if (action === 3 && entry.kind !== 'link') {
      state.set(path, { kind: entry.kind === 'exec' ? 'file' : 'exec', bytes: entry.bytes });
    } else if (action === 4) {
      state.set(path, entry.kind === 'link' ? { kind: 'file', bytes: entry.bytes } : { kind: 'link', bytes: Buffer.from('somewhere/else') });
    } else if (action === 5) {
      // The file becomes a folder.
      state.delete(path);
      state.set(`${path}/inner.txt`, { kind: 'file', bytes: randomContent(rng) });
    } else {
      // A folder becomes a file.
      const slash = path.lastIndexOf('/');
      if (slash < 0) continue;
      const folder = path.slice(0, slash);
      for (const other of paths) if (other.startsWith(`${folder}/`)) state.delete(other);
      state.set(folder, { kind: 'file', bytes: randomContent(rng) });
    }
  }
  return state;
}

const sameEntry = (a: Entry | undefined, b: Entry | undefined): boolean => a !== undefined && b !== undefined && a.kind === b.kind && a.bytes.equals(b.bytes);

function pruneEmptyFolders(root: string, dir = ''): void {
  for (const name of readdirSync(join(root, dir))) {
    const path = dir === '' ? name : `${dir}/${name}`;
    if (!lstatSync(join(root, path)).isDirectory()) continue;
    pruneEmptyFolders(root, path);
    if (readdirSync(join(root, path)).length === 0) rmdirSync(join(root, path));
  }
}

/** Writes `state` (and the ignored files) into an empty folder. */
export function writeState(root: string, state: WorkspaceState): void {
  for (const [path, entry] of IGNORED) writeEntry(root, path, entry);
  for (const [path, entry] of state) writeEntry(root, path, entry);
}

/** Turns a workspace holding `from` into `to` directly on disk (the way an agent's edits would). */
export function moveState(root: string, from: WorkspaceState, to: WorkspaceState): void {
  for (const [path, entry] of from) if (!sameEntry(entry, to.get(path))) rmSync(join(root, path));
  pruneEmptyFolders(root);
  for (const [path, entry] of to) if (!sameEntry(entry, from.get(path))) writeEntry(root, path, entry);
}

/** The global excludes file of the round trip's home (`~/.config/git/ignore`): git ignores these names everywhere. */
export const GLOBAL_IGNORE = '*.swp\n.cache/\n';

/** Files only the global excludes file ignores; the round trip changes them between the two states. */
export function globallyIgnored(rng: Random): Map<string, Entry> {
  const entries = new Map<string, Entry>([
    ['scratch.swp', { kind: 'file', bytes: randomContent(rng) }],
    ['.cache/blob.bin', { kind: 'file', bytes: randomContent(rng) }],
  ]);
  if (rng.chance(0.5)) entries.set('.cache/deeper/more.txt', { kind: 'file', bytes: randomContent(rng) });
  if (rng.chance(0.5)) entries.set('docs.swp', { kind: 'link', bytes: Buffer.from('somewhere') });
  return entries;
}

/** Where empty folders may go: the generator's folders (a rewind may write into them), file names (a file may go there), new ones. */
const EMPTY_FOLDERS = [...FOLDERS.filter((f) => f !== ''), ...NAMES.map((name) => `${name}.ts`), 'src/a.ts', 'lib/util.md', 'empty', 'src/empty', 'docs/img/deep'];

/**
 * Adds up to three empty folders where nothing stands on disk (no file there or above), half of them at one of
 * `likely` (say, where a rewind will write); returns their paths.
 */
export function addEmptyFolders(rng: Random, root: string, likely: readonly string[] = []): string[] {
  const added: string[] = [];
  for (let i = rng.int(0, 3); i > 0; i--) {
    const path = likely.length > 0 && rng.chance(0.5) ? rng.pick(likely) : rng.pick(EMPTY_FOLDERS);
    const parts = path.split('/');
    let free = true;
    for (let depth = 1; depth <= parts.length && free; depth++) {
      try {
        const info = lstatSync(join(root, parts.slice(0, depth).join('/')));
        // A folder above is fine; the folder itself must not exist (it would not be empty, or be a file).
        free = info.isDirectory() && depth < parts.length;
      } catch {
        break; // missing from here down
      }
    }
    if (!free) continue;
    mkdirSync(join(root, path), { recursive: true });
    if (rng.chance(0.3)) chmodSync(join(root, path), 0o700);
    added.push(path);
  }
  return added;
}
