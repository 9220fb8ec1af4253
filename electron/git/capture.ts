/**
 * Exact capture of a directory into the snapshot store: the tree `git add -A && git write-tree` would
 * give (same ignore rules, modes, symlinks, bytes), built bottom-up from an iterative walk.
 * Filesystem calls are synchronous in batches (far cheaper per file than promises for small files); the
 * event loop gets a turn between batches, which is also where cancellation and progress happen.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readlinkSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { hashObject, type FileMode, type TreeEntry } from './git-object';
import { isRefusedGitPath } from './git-path-names';
import { isIgnored, parseIgnoreFile, type IgnoreLevel } from './ignore-rules';
import { readOptional, repositoryLevels, type GitEnvironment } from './ignore-files';
import { snapshotRefName, type ObjectWriter, type SnapshotStore } from './object-store';
import { STAT_FIELDS, StatPass } from './parallel-stat';
import { RACY_MARGIN_MS, type StatCache, type StatCacheEntry, type TreeCacheEntry } from './stat-cache';

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;
const BATCH = 256;

export interface CaptureProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesRead: number;
}

export interface CaptureCommitOptions {
  readonly message: string;
  readonly parents?: readonly string[];
  /** When given, `refs/arbor/snapshots/<snapshotId>` points at the commit, so gc keeps it. */
  readonly snapshotId?: string;
}

export interface CaptureOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CaptureProgress) => void;
  /** Files larger than this are listed in `skipped`, not stored. */
  readonly maxFileBytes?: number;
  /** Makes the capture incremental; it is updated and saved when the capture succeeds. */
  readonly statCache?: StatCache;
  /** Also write a commit for the tree. */
  readonly commit?: CaptureCommitOptions;
  /** Milliseconds since the epoch; injected for tests. */
  readonly now?: () => number;
  /** Where git finds the user's global excludes file (core.excludesFile); without it only the repository's rules apply. */
  readonly git?: GitEnvironment;
}

/** `git-name`: a name git refuses because some platform takes it for `.git` (`.GIT`, `git~1`: git-path-names.ts). */
export type SkipReason = 'too-large' | 'unreadable' | 'git-name';

export interface SkippedFile {
  readonly path: string;
  readonly bytes: number;
  readonly reason: SkipReason;
}

export interface CaptureResult {
  readonly treeOid: string;
  readonly commitOid?: string;
  /** Files (and symlinks) in the tree. */
  readonly files: number;
  readonly skipped: readonly SkippedFile[];
  /** Bytes read from files (unchanged files known to the stat cache are not read). */
  readonly bytesRead: number;
  /** How many files were read and hashed (the rest came from the stat cache). */
  readonly filesRead: number;
  /** New objects written to the store by this capture. */
  readonly objectsWritten: number;
}

interface DirectoryRecord {
  readonly path: string;
  readonly name: string;
  readonly parent: number;
  readonly entries: TreeEntry[];
  /** Something below changed since the stat cache's capture, so the cached tree oid cannot be reused. */
  dirty: boolean;
}

interface FileRecord {
  readonly path: string;
  readonly name: string;
  readonly directory: number;
}

const join2 = (base: string, name: string): string => (base === '' ? name : `${base}/${name}`);

/** Reads a regular file without following a symlink that replaced it since the walk. */
function readRegularFile(path: string, size: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    let buffer = Buffer.allocUnsafe(size);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        // The file grew since lstat: keep reading so the snapshot holds what is on disk now.
        const bigger = Buffer.allocUnsafe(Math.max(buffer.length * 2, 4096));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** The git mode for an lstat `st_mode`: symlink, executable or plain file; anything else is not kept. */
function fileMode(statMode: number): FileMode | undefined {
  // POSIX type bits, which libuv reports on every platform.
  const type = statMode & 0o170000;
  if (type === 0o120000) return '120000';
  if (type === 0o100000) return statMode & 0o100 ? '100755' : '100644';
  return undefined;
}

function kindOf(entry: Dirent, folder: string): 'directory' | 'file' | 'other' {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile() || entry.isSymbolicLink()) return 'file';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  // DT_UNKNOWN on some filesystems: ask lstat. (The path is joined only here: path.join for every entry
  // was a third of the walk.)
  try {
    const stats = lstatSync(join(folder, entry.name));
    return stats.isDirectory() ? 'directory' : stats.isFile() || stats.isSymbolicLink() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * Walks the directory (iteratively), applying ignore rules; returns directories in pre-order and files.
 * Each file is handed to `stats` as it is found, so its lstat runs on the other thread during the walk.
 */
function walk(root: string, rootLevels: readonly IgnoreLevel[], signal: AbortSignal | undefined, stats: StatPass): { directories: DirectoryRecord[]; files: FileRecord[]; refused: string[] } {
  const directories: DirectoryRecord[] = [];
  const files: FileRecord[] = [];
  const refused: string[] = [];
  const stack: { path: string; name: string; parent: number; levels: readonly IgnoreLevel[] }[] = [{ path: '', name: '', parent: -1, levels: rootLevels }];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited % BATCH === 0) throwIfAborted(signal);
    const task = stack.pop()!;
    const absolute = join(root, task.path);
    let entries: Dirent[];
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch (error) {
      if (task.path === '') throw new ArborError('IO', `Cannot read ${root}: ${(error as Error).message}`, { path: root });
      continue; // a folder removed or made unreadable mid-walk is left out, as git add would
    }
    const index = directories.push({ path: task.path, name: task.name, parent: task.parent, entries: [], dirty: false }) - 1;
    let levels = task.levels;
    const gitignore = entries.find((e) => e.name === '.gitignore' && e.isFile());
    if (gitignore) {
      const content = readOptional(join(absolute, '.gitignore'));
      const patterns = content ? parseIgnoreFile(content) : [];
      if (patterns.length > 0) levels = [{ base: task.path, patterns }, ...levels];
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name === '.git') continue;
      const path = join2(task.path, name);
      const kind = kindOf(entry, absolute);
      if (kind === 'other') continue;
      const isDirectory = kind === 'directory';
      if (levels.length > 0 && isIgnored(levels, path, name, isDirectory)) continue;
      // Never in a snapshot: written out on macOS or Windows, `.GIT/config` or `git~1/hooks/x` land in `.git`.
      if (isRefusedGitPath(name, { symlink: entry.isSymbolicLink() })) {
        refused.push(path);
        continue;
      }
      if (isDirectory) stack.push({ path, name, parent: index, levels });
      else {
        files.push({ path, name, directory: index });
        stats.add(path);
      }
    }
  }
  return { directories, files, refused };
}

export async function captureDirectory(store: SnapshotStore, directory: string, options: CaptureOptions = {}): Promise<CaptureResult> {
  const { signal, onProgress, statCache } = options;
  const dir = resolve(directory);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const now = options.now ?? Date.now;
  throwIfAborted(signal);
  let rootStats: Stats;
  try {
    rootStats = statSync(dir);
  } catch {
    throw new ArborError('NOT_FOUND', `No directory at ${dir}`, { path: dir });
  }
  if (!rootStats.isDirectory()) throw new ArborError('BAD_REQUEST', `${dir} is not a directory`, { path: dir });

  const startedAt = now();
  store.refresh();
  // Oids remembered from before a prune may name objects that are gone: start over then.
  if (statCache && statCache.removals !== store.removalCount) statCache.reset(store.removalCount);
  const pass = new StatPass(dir);
  const { directories, files, refused } = walk(dir, repositoryLevels(dir, options.git), signal, pass);
  const writer = store.createWriter();
  const nextCache = new Map<string, StatCacheEntry>();
  // What the stat cache needs to journal: the paths with a new entry, and how many old paths remain.
  const changedPaths: string[] = [];
  let keptPaths = 0;
  const skipped: SkippedFile[] = refused.map((path) => ({ path, bytes: 0, reason: 'git-name' }));
  let bytesRead = 0;
  let filesRead = 0;
  let included = 0;

  const stats = pass.finish(() => throwIfAborted(signal));
  for (let start = 0; start < files.length; start += BATCH) {
    throwIfAborted(signal);
    const end = Math.min(start + BATCH, files.length);
    for (let i = start; i < end; i++) {
      const file = files[i]!;
      const o = i * STAT_FIELDS;
      const statMode = stats[o + 3]!;
      if (statMode < 0) continue; // deleted since the walk
      const mode = fileMode(statMode);
      if (mode === undefined) continue;
      const size = stats[o]!;
      const mtimeMs = stats[o + 1]!;
      const ino = stats[o + 2]!;
      if (size > maxFileBytes && mode !== '120000') {
        skipped.push({ path: file.path, bytes: size, reason: 'too-large' });
        continue;
      }
      const cached = statCache?.get(file.path);
      let oid: string;
      const hit = cached !== undefined && cached.size === size && cached.mtimeMs === mtimeMs && cached.ino === ino && cached.mode === mode;
      if (hit) {
        oid = cached.oid;
      } else {
        directories[file.directory]!.dirty = true;
        // Plain concatenation: path.join's normalisation costs more than the lstat on warm caches.
        const absolute = `${dir}/${file.path}`;
        let body: Buffer;
        try {
          body = mode === '120000' ? readlinkSync(absolute, { encoding: 'buffer' }) : readRegularFile(absolute, size);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') continue;
          skipped.push({ path: file.path, bytes: size, reason: 'unreadable' });
          continue;
        }
        bytesRead += body.length;
        filesRead++;
        const hash = hashObject('blob', body);
        writer.writeHashed('blob', hash, body);
        oid = hash.toString('hex');
      }
      if (mtimeMs < startedAt - RACY_MARGIN_MS) {
        if (hit) {
          nextCache.set(file.path, cached);
        } else {
          nextCache.set(file.path, { size, mtimeMs, ino, mode, oid });
          changedPaths.push(file.path);
        }
        if (cached !== undefined) keptPaths++;
      } else {
        directories[file.directory]!.dirty = true; // not cached, so the folder's tree cannot be either
      }
      directories[file.directory]!.entries.push({ mode, name: file.name, oid });
      included++;
    }
    onProgress?.({ filesDone: end, filesTotal: files.length, bytesRead });
    await writer.flushIfLarge();
    await yieldToEventLoop();
  }

  throwIfAborted(signal);
  const nextTrees = new Map<string, TreeCacheEntry>();
  const treeOid = writeTrees(store, writer, directories, statCache, nextTrees);
  let commitOid: string | undefined;
  if (options.commit) commitOid = writeCommit(writer, treeOid, options.commit, skipped, now());
  throwIfAborted(signal);
  await writer.finish();
  await store.mergeSmallPacks();
  if (commitOid && options.commit?.snapshotId !== undefined) {
    await store.setRef(snapshotRefName(options.commit.snapshotId), commitOid);
  }
  if (statCache) {
    statCache.replace(nextCache, nextTrees, { changed: changedPaths, kept: keptPaths });
    await statCache.save().catch(() => undefined); // only an optimisation: a failed save costs a re-read
  }
  return { treeOid, commitOid, files: included, skipped, bytesRead, filesRead, objectsWritten: writer.written };
}

/**
 * Children come after their parent in pre-order, so walking backwards builds every subtree first.
 * A folder where nothing changed reuses the tree oid the stat cache remembers (git's cache-tree).
 */
function writeTrees(
  store: SnapshotStore,
  writer: ObjectWriter,
  directories: readonly DirectoryRecord[],
  statCache: StatCache | undefined,
  nextTrees: Map<string, TreeCacheEntry>,
): string {
  for (let i = directories.length - 1; i >= 0; i--) {
    const directory = directories[i]!;
    // Git has no empty trees below the root: a folder with nothing kept is left out.
    if (directory.entries.length === 0 && i > 0) continue;
    const cached = directory.dirty ? undefined : statCache?.tree(directory.path);
    let oid: string;
    if (cached && cached.entries === directory.entries.length) {
      oid = cached.oid;
    } else {
      oid = directory.entries.length === 0 ? writer.write('tree', Buffer.alloc(0)) : writer.writeTree(directory.entries);
      if (i > 0) directories[directory.parent]!.dirty = true;
    }
    nextTrees.set(directory.path, { entries: directory.entries.length, oid });
    if (i === 0) return oid;
    directories[directory.parent]!.entries.push({ mode: '40000', name: directory.name, oid });
  }
  throw new ArborError('INTERNAL', 'Capture lost its root folder');
}

function writeCommit(writer: ObjectWriter, tree: string, commit: CaptureCommitOptions, skipped: readonly SkippedFile[], nowMs: number): string {
  const who = { name: 'Arbor', email: 'snapshots@arbor.invalid', timestamp: Math.floor(nowMs / 1000), timezoneOffsetMinutes: 0 };
  // Skipped files are named in the commit so the store alone says what a snapshot lacks.
  const trailers = skipped.map((s) => `Arbor-Skipped: ${JSON.stringify({ path: s.path, bytes: s.bytes, reason: s.reason })}`);
  const message = trailers.length > 0 ? `${commit.message.trimEnd()}\n\n${trailers.join('\n')}\n` : commit.message;
  return writer.writeCommit({ tree, parents: commit.parents ?? [], author: who, committer: who, message });
}
