/**
 * What a capture learned about each file (size, mtime, inode, mode → blob oid), so the next capture of the
 * same directory re-reads only files whose stat changed, like git's index. Kept as a small JSON file in the
 * store (the database belongs to electron/db), one per captured directory.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

interface StoredCache {
  readonly version: 1;
  readonly entries: Record<string, StoredEntry>;
}

/**
 * A file whose mtime is this close to the capture's start may change again within the same filesystem
 * clock tick without its mtime moving ("racy git"); such entries are not trusted next time.
 */
export const RACY_MARGIN_MS = 20;

export class StatCache {
  private entries: Map<string, StatCacheEntry>;

  constructor(
    readonly file: string,
    entries: ReadonlyMap<string, StatCacheEntry> = new Map(),
  ) {
    this.entries = new Map(entries);
  }

  /** Loads a cache file; a missing or unreadable one is an empty cache (it is only an optimisation). */
  static async load(file: string): Promise<StatCache> {
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as StoredCache;
      if (stored.version !== 1 || typeof stored.entries !== 'object') return new StatCache(file);
      const entries = new Map<string, StatCacheEntry>();
      for (const [path, [size, mtimeMs, ino, mode, oid]] of Object.entries(stored.entries)) {
        entries.set(path, { size, mtimeMs, ino, mode, oid });
      }
      return new StatCache(file, entries);
    } catch {
      return new StatCache(file);
    }
  }

  /** The cache for one captured directory, kept inside the store. */
  static forDirectory(store: SnapshotStore, dir: string): Promise<StatCache> {
    const key = createHash('sha1').update(resolve(dir)).digest('hex');
    return StatCache.load(join(store.gitdir, 'arbor', 'stat-cache', `${key}.json`));
  }

  get size(): number {
    return this.entries.size;
  }

  get(path: string): StatCacheEntry | undefined {
    return this.entries.get(path);
  }

  /** Replaces the whole content: a capture knows every file that still exists. */
  replace(entries: ReadonlyMap<string, StatCacheEntry>): void {
    this.entries = new Map(entries);
  }

  async save(): Promise<void> {
    const stored: StoredCache = { version: 1, entries: {} };
    for (const [path, e] of this.entries) stored.entries[path] = [e.size, e.mtimeMs, e.ino, e.mode, e.oid];
    const tmp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(tmp, JSON.stringify(stored));
      await rename(tmp, this.file);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}
