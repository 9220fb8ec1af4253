/**
 * What a capture learned about each file (size, mtime, inode, mode → blob oid), so the next capture of the
 * same directory re-reads only files whose stat changed, like git's index. Kept as a small JSON file in the
 * store (the database belongs to electron/db), one per captured directory. Saves append the few entries a
 * capture changed to a journal beside it (`.log`), rewriting the whole file only when the journal grows
 * large, so saving costs in proportion to what changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { FileMode } from './git-object';
import type { SnapshotStore } from './object-store';

export interface StatCacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly mode: FileMode;
  readonly oid: string;
}

type StoredEntry = [size: number, mtimeMs: number, ino: number, mode: FileMode, oid: string];

/** A folder's tree as last captured: how many entries it had and the tree's oid. */
export interface TreeCacheEntry {
  readonly entries: number;
  readonly oid: string;
}

/** Version 1 (still read): objects keyed by path. */
interface StoredCacheV1 {
  readonly version: 1;
  /** The store's removal count when the cache was written (see SnapshotStore.removalCount). */
  readonly removals?: number;
  readonly entries: Record<string, StoredEntry>;
  readonly trees?: Record<string, [entries: number, oid: string]>;
}

/**
 * Version 2: flat arrays (path, size, mtimeMs, ino, mode, oid, path, …; trees: path, entries, oid, …). An
 * object with 10k keys is the slowest thing JSON.parse makes; a flat array loads 2–4× faster, and the
 * hook's `arbor snapshot` loads this file on every call.
 */
interface StoredCacheV2 {
  readonly version: 2;
  readonly removals: number;
  readonly entries: readonly (string | number)[];
  readonly trees: readonly (string | number)[];
}

const ENTRY_FIELDS = 6;
const TREE_FIELDS = 3;

function readStored(stored: StoredCacheV1 | StoredCacheV2): { entries: Map<string, StatCacheEntry>; trees: Map<string, TreeCacheEntry> } | undefined {
  const entries = new Map<string, StatCacheEntry>();
  const trees = new Map<string, TreeCacheEntry>();
  if (stored.version === 2 && Array.isArray(stored.entries) && Array.isArray(stored.trees)) {
    const e = stored.entries;
    for (let i = 0; i + ENTRY_FIELDS <= e.length; i += ENTRY_FIELDS) {
      entries.set(e[i] as string, { size: e[i + 1] as number, mtimeMs: e[i + 2] as number, ino: e[i + 3] as number, mode: e[i + 4] as FileMode, oid: e[i + 5] as string });
    }
    const t = stored.trees;
    for (let i = 0; i + TREE_FIELDS <= t.length; i += TREE_FIELDS) trees.set(t[i] as string, { entries: t[i + 1] as number, oid: t[i + 2] as string });
    return { entries, trees };
  }
  if (stored.version === 1 && typeof stored.entries === 'object') {
    for (const [path, [size, mtimeMs, ino, mode, oid]] of Object.entries(stored.entries)) entries.set(path, { size, mtimeMs, ino, mode, oid });
    for (const [path, [count, oid]] of Object.entries(stored.trees ?? {})) trees.set(path, { entries: count, oid });
    return { entries, trees };
  }
  return undefined;
}

/**
 * A file whose mtime is this close to the capture's start may change again within the same filesystem
 * clock tick without its mtime moving ("racy git"); such entries are not trusted next time.
 */
export const RACY_MARGIN_MS = 20;

/** Directories whose caches a store keeps in memory. */
const REMEMBERED_DIRECTORIES = 8;
const remembered = new WeakMap<SnapshotStore, Map<string, StatCache>>();

export class StatCache {
  private entries: ReadonlyMap<string, StatCacheEntry>;
  private trees: ReadonlyMap<string, TreeCacheEntry>;
  /** Journal lines not yet written, and how many the journal file already holds (-1: no base file yet). */
  private pending: string[] = [];
  private journalLines = -1;
  /** The store's removal count this cache's oids were valid at. */
  removals = 0;

  constructor(
    readonly file: string,
    entries: ReadonlyMap<string, StatCacheEntry> = new Map(),
    trees: ReadonlyMap<string, TreeCacheEntry> = new Map(),
  ) {
    this.entries = entries;
    this.trees = trees;
  }

  /** Loads a cache file and its journal; a missing or unreadable one is an empty cache (it is only an optimisation). */
  static async load(file: string): Promise<StatCache> {
    let stored: StoredCacheV1 | StoredCacheV2;
    let read: ReturnType<typeof readStored>;
    try {
      stored = JSON.parse(await readFile(file, 'utf8')) as StoredCacheV1 | StoredCacheV2;
      read = readStored(stored);
    } catch {
      return new StatCache(file);
    }
    if (read === undefined) return new StatCache(file);
    const { entries, trees } = read;
    let journalLines = 0;
    const journal = await readFile(`${file}.log`, 'utf8').catch(() => '');
    for (const line of journal.split('\n')) {
      if (line === '') continue;
      journalLines++;
      try {
        const [kind, path, value] = JSON.parse(line) as ['f', string, StoredEntry | null] | ['t', string, [number, string] | null];
        if (kind === 'f') {
          if (value) entries.set(path, { size: value[0], mtimeMs: value[1], ino: value[2], mode: value[3], oid: value[4] });
          else entries.delete(path);
        } else if (value) trees.set(path, { entries: value[0], oid: value[1] });
        else trees.delete(path);
      } catch {
        // A line torn by a crash: the entry it carried is simply re-read next time.
      }
    }
    const cache = new StatCache(file, entries, trees);
    cache.journalLines = journalLines;
    cache.removals = stored.removals ?? 0;
    return cache;
  }

  /** The file that holds the cache of one captured directory, inside the store. */
  static fileFor(store: SnapshotStore, dir: string): string {
    const key = createHash('sha1').update(resolve(dir)).digest('hex');
    return join(store.gitdir, 'arbor', 'stat-cache', `${key}.json`);
  }

  /**
   * The cache for one captured directory. The store's last few are kept in memory: loading 10k entries
   * was a fifth of a rewind preview. An instance that another process's captures have overtaken is still
   * right (each entry ties a full lstat to the oid of the bytes read then), it only re-reads what changed.
   * `reload` reads the file again.
   */
  static async forDirectory(store: SnapshotStore, dir: string, options: { readonly reload?: boolean } = {}): Promise<StatCache> {
    const file = StatCache.fileFor(store, dir);
    let kept = remembered.get(store);
    if (!kept) remembered.set(store, (kept = new Map()));
    const known = options.reload ? undefined : kept.get(file);
    const cache = known ?? (await StatCache.load(file));
    // Most recently used last; the oldest goes first.
    kept.delete(file);
    kept.set(file, cache);
    while (kept.size > REMEMBERED_DIRECTORIES) kept.delete(kept.keys().next().value as string);
    return cache;
  }

  get size(): number {
    return this.entries.size;
  }

  get(path: string): StatCacheEntry | undefined {
    return this.entries.get(path);
  }

  /** The tree last captured for a folder ('' is the root). */
  tree(path: string): TreeCacheEntry | undefined {
    return this.trees.get(path);
  }

  /** Forgets everything (the store removed objects since the cache was written). */
  reset(removals: number): void {
    this.entries = new Map();
    this.trees = new Map();
    this.pending = [];
    this.journalLines = -1; // the next save rewrites the whole file
    this.removals = removals;
  }

  /**
   * Replaces the whole content (the cache takes ownership of the maps): a capture knows every file that still
   * exists. `changes`, when the capture kept count, spares two lookups per file: the paths whose entry is new,
   * and how many of the old paths are still there (when all are, nothing was removed).
   */
  replace(
    entries: ReadonlyMap<string, StatCacheEntry>,
    trees: ReadonlyMap<string, TreeCacheEntry> = new Map(),
    changes?: { readonly changed: readonly string[]; readonly kept: number },
  ): void {
    // Tree lines go first: if a crash tears the journal's tail, the files that lost their lines are re-read,
    // which marks their folders changed, so a tree line can never outlive the file lines it depends on.
    for (const [path, tree] of trees) {
      const old = this.trees.get(path);
      if (old?.oid !== tree.oid || old.entries !== tree.entries) this.pending.push(JSON.stringify(['t', path, [tree.entries, tree.oid]]));
    }
    for (const path of this.trees.keys()) if (!trees.has(path)) this.pending.push(JSON.stringify(['t', path, null]));
    const line = (path: string, entry: StatCacheEntry): string => JSON.stringify(['f', path, [entry.size, entry.mtimeMs, entry.ino, entry.mode, entry.oid]]);
    if (changes) {
      for (const path of changes.changed) this.pending.push(line(path, entries.get(path)!));
    } else {
      // Unchanged entries are the very same objects (capture reuses them), so identity finds the changes.
      for (const [path, entry] of entries) if (this.entries.get(path) !== entry) this.pending.push(line(path, entry));
    }
    if (!changes || changes.kept < this.entries.size) {
      for (const path of this.entries.keys()) if (!entries.has(path)) this.pending.push(JSON.stringify(['f', path, null]));
    }
    this.entries = entries;
    this.trees = trees;
  }

  async save(): Promise<void> {
    if (this.journalLines >= 0 && this.pending.length === 0) return;
    await mkdir(dirname(this.file), { recursive: true });
    const journalSize = this.journalLines + this.pending.length;
    if (this.journalLines >= 0 && journalSize < 1000 + (this.entries.size + this.trees.size) / 4) {
      await appendFile(`${this.file}.log`, `${this.pending.join('\n')}\n`);
      this.journalLines = journalSize;
      this.pending = [];
      return;
    }
    const entries: (string | number)[] = [];
    for (const [path, e] of this.entries) entries.push(path, e.size, e.mtimeMs, e.ino, e.mode, e.oid);
    const trees: (string | number)[] = [];
    for (const [path, t] of this.trees) trees.push(path, t.entries, t.oid);
    const stored: StoredCacheV2 = { version: 2, removals: this.removals, entries, trees };
    const tmp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(stored));
      // The old journal goes before the new base arrives: replayed over the new base it would be stale.
      await rm(`${this.file}.log`, { force: true });
      await rename(tmp, this.file);
      this.journalLines = 0;
      this.pending = [];
    } finally {
      await rm(tmp, { force: true });
    }
  }
}
