/**
 * Arbor's own git object store: a bare repository at `<dataDir>/snapshots.git`, never the user's
 * repository. New objects go in as packs (see pack-writer); reads use our pack reader, and the repository
 * stays a plain git repository (`git fsck`, `git ls-tree`, isomorphic-git all read it).
 * Snapshots are kept alive by refs under `refs/arbor/snapshots/`, so no gc ever drops them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { ArborError } from '../../shared/errors';
import {
  encodeCommit,
  encodeTree,
  hashObject,
  isOid,
  parseCommit,
  parseTree,
  type CommitFields,
  type GitObject,
  type ObjectType,
  type ParsedCommit,
  type TreeEntry,
} from './git-object';
import { PackFile, PackIndex } from './pack-reader';
import { PackWriter, type PackCompression } from './pack-writer';

export const SNAPSHOT_REF_PREFIX = 'refs/arbor/snapshots/';

export interface SnapshotStoreOptions {
  /** Arbor's data folder; the store lives in `<dataDir>/snapshots.git`. */
  readonly dataDir: string;
  /** How new packs are compressed (see PackCompression); compaction recompresses later. */
  readonly compression?: PackCompression;
}

const REF_NAME = /^refs\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function ioError(message: string, error: unknown): ArborError {
  return new ArborError('IO', `${message}: ${error instanceof Error ? error.message : String(error)}`);
}

export class SnapshotStore {
  private packs: PackFile[] = [];
  private loose = new Set<string>();
  private removals = 0;

  private constructor(
    readonly gitdir: string,
    readonly compression: PackCompression,
  ) {}

  /** Opens the store, creating the bare repository on first use. */
  static open(options: SnapshotStoreOptions): SnapshotStore {
    const gitdir = join(options.dataDir, 'snapshots.git');
    try {
      if (!existsSync(join(gitdir, 'HEAD'))) initBareRepository(gitdir);
    } catch (error) {
      throw ioError(`Cannot create the snapshot store at ${gitdir}`, error);
    }
    const store = new SnapshotStore(gitdir, options.compression ?? 'stored');
    store.refresh();
    store.removals = Number(readFileSyncOr(join(gitdir, 'arbor', 'removals'), '0')) || 0;
    return store;
  }

  get packDir(): string {
    return join(this.gitdir, 'objects', 'pack');
  }

  /** Re-reads the list of packs and loose objects (another store instance may have written). */
  refresh(): void {
    const known = new Map(this.packs.map((p) => [p.path, p]));
    const next: PackFile[] = [];
    for (const name of readdirSync(this.packDir)) {
      // Only finished packs: a writer's tmp_* pack and index are still being written (pack-writer.ts renames
      // them into place, index last), and reading a half-written index fails as "corrupt".
      if (!name.startsWith('pack-') || !name.endsWith('.idx')) continue;
      const packPath = join(this.packDir, `${name.slice(0, -4)}.pack`);
      const existing = known.get(packPath);
      if (existing) {
        next.push(existing);
        known.delete(packPath);
      } else if (existsSync(packPath)) {
        next.push(new PackFile(packPath, PackIndex.parse(readFileSync(join(this.packDir, name)), name)));
      }
    }
    for (const gone of known.values()) gone.close();
    // Newest packs first: recent snapshots are the ones read most.
    this.packs = next.reverse();
    this.loose = new Set();
    for (const dir of readdirSync(join(this.gitdir, 'objects'))) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const file of readdirSync(join(this.gitdir, 'objects', dir))) if (/^[0-9a-f]{38}$/.test(file)) this.loose.add(dir + file);
    }
  }

  close(): void {
    for (const pack of this.packs) pack.close();
    this.packs = [];
  }

  /**
   * How many times objects were removed from the store (by a prune). Caches that remember oids (the stat
   * cache) are trusted only when taken at the same count, so they never name an object that is gone.
   */
  get removalCount(): number {
    return this.removals;
  }

  /** To be called by whatever removes objects, before it removes them. */
  async recordRemoval(): Promise<void> {
    this.removals++;
    await mkdir(join(this.gitdir, 'arbor'), { recursive: true });
    await writeFile(join(this.gitdir, 'arbor', 'removals'), String(this.removals));
  }

  get packCount(): number {
    return this.packs.length;
  }

  has(oid: string | Buffer): boolean {
    const bytes = typeof oid === 'string' ? Buffer.from(oid, 'hex') : oid;
    for (const pack of this.packs) if (pack.index.find(bytes) >= 0) return true;
    return this.loose.has(typeof oid === 'string' ? oid : oid.toString('hex'));
  }

  /** Reads any object; NOT_FOUND when the store does not hold it. */
  read(oid: string): GitObject {
    if (!isOid(oid)) throw new ArborError('BAD_REQUEST', `Not an object id: ${oid}`, { oid });
    const found = this.readBytes(Buffer.from(oid, 'hex'));
    if (!found) throw new ArborError('NOT_FOUND', `Object ${oid} is not in the snapshot store`, { oid });
    return found;
  }

  readBlob(oid: string): Buffer {
    return this.readTyped(oid, 'blob').body;
  }

  /** A stored object's size in bytes, without reading its body where the pack tells it; NOT_FOUND when absent. */
  sizeOf(oid: string): number {
    if (!isOid(oid)) throw new ArborError('BAD_REQUEST', `Not an object id: ${oid}`, { oid });
    const bytes = Buffer.from(oid, 'hex');
    try {
      for (const pack of this.packs) {
        const size = pack.sizeOf(bytes);
        if (size !== undefined) return size;
      }
    } catch (error) {
      // Another store instance merged a pack away: read() looks again in the current set of packs.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // Loose objects are rare here (captures write packs): read it whole.
    return this.read(oid).body.length;
  }

  readTree(oid: string): TreeEntry[] {
    return parseTree(this.readTyped(oid, 'tree').body, oid);
  }

  readCommit(oid: string): ParsedCommit {
    return parseCommit(this.readTyped(oid, 'commit').body, oid);
  }

  /**
   * Every capture adds a pack, and each lookup visits every pack, so small packs are merged once there
   * are more than `maxSmallPacks` of them. Returns how many packs were merged away.
   */
  async mergeSmallPacks(maxSmallPacks = 16, smallPackBytes = 8 * 1024 * 1024): Promise<number> {
    const small = this.packs.filter((pack) => statSync(pack.path).size < smallPackBytes);
    if (small.length <= maxSmallPacks) return 0;
    // Durable: the small packs are deleted right after, so the merged one must be on disk first.
    const writer = new PackWriter(this.packDir, this.compression, undefined, true);
    const lookup = (oid: Buffer): GitObject => this.read(oid.toString('hex'));
    for (const pack of small) {
      for (const hex of pack.index.oids()) {
        const oid = Buffer.from(hex, 'hex');
        const object = pack.read(oid, lookup);
        if (object) writer.add(object.type, oid, object.body);
      }
    }
    try {
      await writer.finish();
      for (const pack of small) {
        pack.close();
        // The index goes first, so no reader finds an index without its pack.
        await rm(`${pack.path.slice(0, -5)}.idx`, { force: true });
        await rm(pack.path, { force: true });
      }
    } catch (error) {
      throw ioError('Cannot merge snapshot packs', error);
    } finally {
      this.refresh();
    }
    return small.length;
  }

  /** A batch writer; call `finish()` to make its objects visible (`durable`: and flushed to disk). */
  createWriter(options: { readonly durable?: boolean } = {}): ObjectWriter {
    return new ObjectWriter(this, options.durable ?? false);
  }

  async setRef(name: string, oid: string): Promise<void> {
    checkRefName(name);
    if (!isOid(oid)) throw new ArborError('BAD_REQUEST', `Not an object id: ${oid}`, { oid });
    const path = join(this.gitdir, name);
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(tmp, `${oid}\n`);
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw ioError(`Cannot write ref ${name}`, error);
    }
  }

  async readRef(name: string): Promise<string | undefined> {
    checkRefName(name);
    try {
      const value = (await readFile(join(this.gitdir, name), 'utf8')).trim();
      if (isOid(value)) return value;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(`Cannot read ref ${name}`, error);
    }
    return (await this.packedRefs()).get(name);
  }

  async deleteRef(name: string): Promise<void> {
    checkRefName(name);
    await rm(join(this.gitdir, name), { force: true });
  }

  /** Every ref under a prefix (e.g. SNAPSHOT_REF_PREFIX), loose and packed, name → oid. */
  async listRefs(prefix: string): Promise<ReadonlyMap<string, string>> {
    const refs = new Map<string, string>();
    for (const [name, oid] of await this.packedRefs()) if (name.startsWith(prefix)) refs.set(name, oid);
    const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    const stack = [base];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      let names: string[];
      try {
        names = await readdir(join(this.gitdir, dir));
      } catch {
        continue;
      }
      for (const entry of names) {
        if (entry.endsWith('.tmp') || entry.endsWith('.lock')) continue;
        const ref = `${dir}/${entry}`;
        try {
          const value = (await readFile(join(this.gitdir, ref), 'utf8')).trim();
          if (isOid(value)) refs.set(ref, value);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EISDIR') stack.push(ref);
        }
      }
    }
    return refs;
  }

  /** What isomorphic-git needs to read this store; share `cache` across calls for speed. */
  isomorphicGitOptions(): { readonly gitdir: string; readonly cache: object } {
    return { gitdir: this.gitdir, cache: this.isoCache };
  }

  private readonly isoCache = {};

  private readTyped(oid: string, type: ObjectType): GitObject {
    const object = this.read(oid);
    if (object.type !== type) throw new ArborError('BAD_REQUEST', `Object ${oid} is a ${object.type}, not a ${type}`, { oid });
    return object;
  }

  private readBytes(oid: Buffer, retried = false): GitObject | undefined {
    const lookup = (base: Buffer): GitObject => {
      const found = this.readBytes(base);
      if (!found) throw new ArborError('INTERNAL', `Missing delta base ${base.toString('hex')}`);
      return found;
    };
    for (const pack of this.packs) {
      let object: GitObject | undefined;
      try {
        object = pack.read(oid, lookup);
      } catch (error) {
        // Another store instance merged this pack away: look again in the current set of packs.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || retried) throw error;
        this.refresh();
        return this.readBytes(oid, true);
      }
      if (object) return object;
    }
    const hex = oid.toString('hex');
    if (!this.loose.has(hex)) return undefined;
    return parseLoose(readFileSync(join(this.gitdir, 'objects', hex.slice(0, 2), hex.slice(2))), hex);
  }

  private async packedRefs(): Promise<Map<string, string>> {
    const refs = new Map<string, string>();
    let text: string;
    try {
      text = await readFile(join(this.gitdir, 'packed-refs'), 'utf8');
    } catch {
      return refs;
    }
    for (const line of text.split('\n')) {
      const match = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
      if (match) refs.set(match[2]!, match[1]!);
    }
    return refs;
  }
}

/** Groups the writes of one capture into packs; objects the store already holds are skipped. */
export class ObjectWriter {
  private readonly pack: PackWriter;

  constructor(
    private readonly store: SnapshotStore,
    durable = false,
  ) {
    this.pack = new PackWriter(store.packDir, store.compression, undefined, durable);
  }

  /** Objects written so far (not counting ones the store already had). */
  get written(): number {
    return this.pack.objectCount;
  }

  write(type: ObjectType, body: Uint8Array): string {
    const oid = hashObject(type, body);
    this.writeHashed(type, oid, body);
    return oid.toString('hex');
  }

  /** For callers that already hashed the body (capture hashes before deciding to store). */
  writeHashed(type: ObjectType, oid: Buffer, body: Uint8Array): void {
    const hex = oid.toString('hex');
    if (this.pack.holds(hex) || this.store.has(oid)) return;
    this.pack.add(type, oid, body);
  }

  writeTree(entries: readonly TreeEntry[]): string {
    return this.write('tree', encodeTree(entries));
  }

  writeCommit(fields: CommitFields): string {
    return this.write('commit', encodeCommit(fields));
  }

  /** Writes a pack early when enough is pending, so a huge capture keeps memory bounded. */
  async flushIfLarge(): Promise<void> {
    if (this.pack.needsFlush) {
      await this.pack.flush();
      this.store.refresh();
    }
  }

  async finish(): Promise<void> {
    try {
      await this.pack.finish();
    } catch (error) {
      throw ioError('Cannot write to the snapshot store', error);
    }
    this.store.refresh();
  }
}

function readFileSyncOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

function checkRefName(name: string): void {
  if (!REF_NAME.test(name) || name.includes('..') || name.endsWith('.lock')) {
    throw new ArborError('BAD_REQUEST', `Not a valid ref name: ${name}`, { name });
  }
}

/** The ref that keeps a snapshot's commit alive. */
export function snapshotRefName(snapshotId: string): string {
  const name = `${SNAPSHOT_REF_PREFIX}${snapshotId}`;
  checkRefName(name);
  return name;
}

function parseLoose(compressed: Buffer, oid: string): GitObject {
  const raw = inflateSync(compressed);
  const nul = raw.indexOf(0);
  const [type, length] = raw.toString('latin1', 0, nul).split(' ');
  if ((type !== 'blob' && type !== 'tree' && type !== 'commit' && type !== 'tag') || Number(length) !== raw.length - nul - 1) {
    throw new ArborError('INTERNAL', `Corrupt loose object ${oid}`, { oid });
  }
  return { type, body: raw.subarray(nul + 1) };
}

/** The handful of files `git init --bare` writes that git and isomorphic-git need to accept the folder. */
function initBareRepository(gitdir: string): void {
  for (const dir of ['objects/pack', 'objects/info', 'refs/heads', 'refs/tags', 'refs/arbor/snapshots']) {
    mkdirSync(join(gitdir, dir), { recursive: true });
  }
  writeFileSync(
    join(gitdir, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n[gc]\n\t# Snapshots are written as packs already; Arbor compacts them itself.\n\tauto = 0\n',
  );
  writeFileSync(join(gitdir, 'description'), 'Arbor snapshot store: workspace states of agent sessions.\n');
  // HEAD last: its presence is what marks the store as initialised.
  writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
}
