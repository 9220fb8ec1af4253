/**
 * Pruning the snapshot store: objects no ref reaches (a deleted session's snapshots, a removed fork's branch)
 * leave it, loose ones unlinked and packed ones by rewriting each pack that holds any without them (git's
 * `gc --prune=now` + `repack -a -d`, done with our own pack writer). Refs are the only roots: snapshots
 * (`refs/arbor/snapshots/`), operations' safety commits (`refs/arbor/operations/`) and anything else under refs/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { throwIfAborted } from '../../shared/errors';
import { parseCommit, parseTree, type GitObject } from './git-object';
import type { SnapshotStore } from './object-store';
import { PackFile, PackIndex } from './pack-reader';
import { PackWriter } from './pack-writer';

export interface PruneOutcome {
  /** Objects no ref reaches, removed (or, in a dry run, that would be). */
  readonly objects: number;
  /** Bytes of the store's files given back (a dry run: an estimate, the packs' share of unreachable entries). */
  readonly bytes: number;
  /** Packs rewritten without them. */
  readonly packsRewritten: number;
  readonly looseRemoved: number;
}

export interface PruneOptions {
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (message: string, fraction: number) => void;
}

/** Every object the refs reach (commits → parents and trees → subtrees and blobs; gitlinks name no object here). */
export async function reachableObjects(store: SnapshotStore, signal?: AbortSignal): Promise<Set<string>> {
  const reached = new Set<string>();
  const stack = [...(await store.listRefs('refs/')).values()];
  while (stack.length > 0) {
    throwIfAborted(signal);
    const oid = stack.pop()!;
    if (reached.has(oid) || !store.has(oid)) continue;
    reached.add(oid);
    const object = store.read(oid);
    if (object.type === 'commit') {
      const commit = parseCommit(object.body, oid);
      stack.push(commit.tree, ...commit.parents);
    } else if (object.type === 'tree') {
      for (const entry of parseTree(object.body, oid)) if (entry.mode !== '160000') stack.push(entry.oid);
    } else if (object.type === 'tag') {
      const target = /^object ([0-9a-f]{40})$/m.exec(object.body.toString('latin1'));
      if (target) stack.push(target[1]!);
    }
  }
  return reached;
}

interface StoredPack {
  readonly pack: PackFile;
  readonly idxPath: string;
  readonly bytes: number;
}

function packsOf(store: SnapshotStore): StoredPack[] {
  const packs: StoredPack[] = [];
  for (const name of readdirSync(store.packDir)) {
    if (!name.startsWith('pack-') || !name.endsWith('.idx')) continue;
    const idxPath = join(store.packDir, name);
    const packPath = `${idxPath.slice(0, -4)}.pack`;
    let bytes: number;
    try {
      bytes = statSync(packPath).size + statSync(idxPath).size;
    } catch {
      continue;
    }
    packs.push({ pack: new PackFile(packPath, PackIndex.parse(readFileSync(idxPath), name)), idxPath, bytes });
  }
  return packs;
}

function looseObjects(store: SnapshotStore): { oid: string; path: string; bytes: number }[] {
  const objects: { oid: string; path: string; bytes: number }[] = [];
  const root = join(store.gitdir, 'objects');
  for (const dir of readdirSync(root)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const file of readdirSync(join(root, dir))) {
      if (!/^[0-9a-f]{38}$/.test(file)) continue;
      const path = join(root, dir, file);
      objects.push({ oid: dir + file, path, bytes: statSync(path).size });
    }
  }
  return objects;
}

/**
 * Removes every object no ref reaches. The rewritten pack is written durably before the old one goes, so a
 * crash leaves both (an object twice), never neither. Call it holding the store's writer turn: a capture
 * writing at the same time could name an object this is removing.
 */
export async function pruneUnreachable(store: SnapshotStore, options: PruneOptions = {}): Promise<PruneOutcome> {
  const { signal } = options;
  store.refresh();
  options.onProgress?.('finding what the snapshots reach', 0);
  const reached = await reachableObjects(store, signal);
  const packs = packsOf(store);
  const loose = looseObjects(store).filter((object) => !reached.has(object.oid));
  let objects = loose.length;
  let bytes = loose.reduce((sum, object) => sum + object.bytes, 0);
  const doomedPacks: { stored: StoredPack; keep: string[] }[] = [];
  for (const stored of packs) {
    const oids = [...stored.pack.index.oids()];
    const keep = oids.filter((oid) => reached.has(oid));
    if (keep.length === oids.length) continue;
    objects += oids.length - keep.length;
    doomedPacks.push({ stored, keep });
    // The dry run's estimate: the pack's bytes in proportion to the entries that go.
    bytes += Math.round((stored.bytes * (oids.length - keep.length)) / Math.max(1, oids.length));
  }
  const closeAll = (): void => {
    for (const stored of packs) stored.pack.close();
  };
  if (options.dryRun === true || objects === 0) {
    closeAll();
    return { objects, bytes: options.dryRun === true ? bytes : 0, packsRewritten: 0, looseRemoved: 0 };
  }
  // Caches that remember oids (the stat cache) stop trusting themselves before anything goes.
  await store.recordRemoval();
  let freed = 0;
  try {
    for (const [index, { stored, keep }] of doomedPacks.entries()) {
      throwIfAborted(signal);
      options.onProgress?.(`rewriting pack ${index + 1} of ${doomedPacks.length}`, (index + 1) / (doomedPacks.length + 1));
      let written = 0;
      if (keep.length > 0) {
        const writer = new PackWriter(store.packDir, store.compression, undefined, true);
        const lookup = (oid: Buffer): GitObject => store.read(oid.toString('hex'));
        for (const hex of keep) {
          const oid = Buffer.from(hex, 'hex');
          const object = stored.pack.read(oid, lookup) ?? store.read(hex);
          writer.add(object.type, oid, object.body);
        }
        for (const name of await writer.finish()) written += packBytes(store, name);
      }
      stored.pack.close();
      // The index goes first, so no reader finds an index without its pack.
      await rm(stored.idxPath, { force: true });
      await rm(stored.pack.path, { force: true });
      freed += stored.bytes - written;
    }
    for (const object of loose) {
      await rm(object.path, { force: true });
      freed += object.bytes;
    }
  } finally {
    closeAll();
    store.refresh();
  }
  return { objects, bytes: Math.max(0, freed), packsRewritten: doomedPacks.length, looseRemoved: loose.length };
}

function packBytes(store: SnapshotStore, name: string): number {
  let bytes = 0;
  for (const ext of ['.pack', '.idx']) bytes += statSync(join(store.packDir, `${name}${ext}`)).size;
  return bytes;
}
