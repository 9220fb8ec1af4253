/**
 * Writes new objects as one packfile (+ v2 index) instead of loose files: ten thousand loose objects cost
 * ten thousand file creations, a pack costs two. Objects are stored whole (no deltas) and deflated at the
 * fastest level, so a later `git gc` or our own compaction can repack them smaller.
 * The pack and its index appear by rename, the index last, so a reader never sees half a pack.
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { ObjectType } from './git-object';

const TYPE_CODES: Readonly<Record<ObjectType, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };

/** Flush a pack once this many compressed bytes are pending, so memory stays bounded on big captures. */
export const DEFAULT_PACK_FLUSH_BYTES = 64 * 1024 * 1024;

/**
 * How pack entries are compressed. `stored` wraps the bytes in zlib "stored" blocks by hand: a valid zlib
 * stream git reads like any other, written and read back without a zlib call per object (each such call
 * costs ~20 µs in Node, which dominates for small files). `fast` is deflate level 1, like git's loose
 * objects. Compaction later recompresses stored packs.
 */
export type PackCompression = 'stored' | 'fast';

interface PendingEntry {
  readonly oid: Buffer;
  readonly offset: number;
  readonly crc: number;
}

/** The pack entry header: type in bits 4–6 of the first byte, size as a little-endian base-128 varint. */
function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (TYPE_CODES[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

export class PackWriter {
  private chunks: Buffer[] = [];
  private entries: PendingEntry[] = [];
  private offset = 12;
  private readonly pending = new Set<string>();
  private readonly written: string[] = [];

  constructor(
    private readonly packDir: string,
    private readonly compression: PackCompression = 'stored',
    private readonly flushBytes = DEFAULT_PACK_FLUSH_BYTES,
    /** Flush each pack to disk before it is renamed into place (what must survive a power loss). */
    private readonly durable = false,
  ) {}

  /** True when this writer already holds the object (written or pending). */
  holds(oidHex: string): boolean {
    return this.pending.has(oidHex);
  }

  get objectCount(): number {
    return this.pending.size;
  }

  get needsFlush(): boolean {
    return this.offset >= this.flushBytes;
  }

  /** Adds an object whose oid the caller computed; a second add of the same oid is ignored. */
  add(type: ObjectType, oid: Buffer, body: Uint8Array): void {
    const hex = oid.toString('hex');
    if (this.pending.has(hex)) return;
    this.pending.add(hex);
    const header = entryHeader(type, body.length);
    const data = this.compression === 'stored' ? zlibStored(body) : deflateSync(body, { level: 1 });
    this.entries.push({ oid, offset: this.offset, crc: crc32(data, crc32(header)) });
    this.chunks.push(header, data);
    this.offset += header.length + data.length;
  }

  /** Writes what is pending as one pack; returns the pack's name (`pack-<sha>`), or undefined if empty. */
  async flush(): Promise<string | undefined> {
    if (this.entries.length === 0) return undefined;
    const entries = this.entries;
    const chunks = this.chunks;
    this.entries = [];
    this.chunks = [];
    this.offset = 12;

    const head = Buffer.alloc(12);
    head.write('PACK', 0, 'latin1');
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(entries.length, 8);
    const hash = createHash('sha1').update(head);
    for (const chunk of chunks) hash.update(chunk);
    const checksum = hash.digest();
    const name = `pack-${checksum.toString('hex')}`;
    const index = encodeIndex(entries, checksum);

    const tmp = join(this.packDir, `tmp_${randomBytes(6).toString('hex')}`);
    try {
      // Side by side: with `durable`, the two flushes overlap (they often share one filesystem journal commit).
      // allSettled: both writes have ended before a failure's cleanup below removes their files.
      const written = await Promise.allSettled([
        writePackFile(`${tmp}.pack`, Buffer.concat([head, ...chunks, checksum]), this.durable),
        writePackFile(`${tmp}.idx`, index, this.durable),
      ]);
      for (const outcome of written) if (outcome.status === 'rejected') throw outcome.reason;
      await rename(`${tmp}.pack`, join(this.packDir, `${name}.pack`));
      await rename(`${tmp}.idx`, join(this.packDir, `${name}.idx`));
      if (this.durable) await syncFolder(this.packDir);
    } catch (error) {
      await rm(`${tmp}.pack`, { force: true });
      await rm(`${tmp}.idx`, { force: true });
      throw error;
    }
    this.written.push(name);
    return name;
  }

  /** Flushes the rest; returns every pack name this writer produced. */
  async finish(): Promise<readonly string[]> {
    await this.flush();
    return this.written;
  }
}

/**
 * Writes a pack or index file; `durable` flushes it to disk before it is renamed into place, so after a
 * power loss a pack the store names is whole (a safety snapshot must outlive the workspace write after it).
 */
async function writePackFile(path: string, bytes: Buffer, durable: boolean): Promise<void> {
  const handle = await open(path, 'wx', 0o444);
  try {
    await handle.writeFile(bytes);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the renames durable; some platforms (Windows) cannot open a folder, and there rename is enough. */
async function syncFolder(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

/** The v2 pack index: fan-out table, sorted names, CRCs, 31-bit offsets (+ 64-bit overflow), checksums. */
export function encodeIndex(unsorted: readonly PendingEntry[], packChecksum: Buffer): Buffer {
  const entries = [...unsorted].sort((a, b) => Buffer.compare(a.oid, b.oid));
  const count = entries.length;
  const large = entries.filter((e) => e.offset >= 0x80000000).length;
  const out = Buffer.alloc(8 + 256 * 4 + count * 28 + large * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const entry of entries) fanout[entry.oid[0] ?? 0]! += 1;
  let running = 0;
  for (let i = 0; i < 256; i++) {
    running += fanout[i]!;
    out.writeUInt32BE(running, 8 + i * 4);
  }
  const namesAt = 8 + 1024;
  const crcAt = namesAt + count * 20;
  const offsetsAt = crcAt + count * 4;
  const largeAt = offsetsAt + count * 4;
  let largeIndex = 0;
  entries.forEach((entry, i) => {
    entry.oid.copy(out, namesAt + i * 20);
    out.writeUInt32BE(entry.crc >>> 0, crcAt + i * 4);
    if (entry.offset < 0x80000000) {
      out.writeUInt32BE(entry.offset, offsetsAt + i * 4);
    } else {
      out.writeUInt32BE((0x80000000 | largeIndex) >>> 0, offsetsAt + i * 4);
      out.writeBigUInt64BE(BigInt(entry.offset), largeAt + largeIndex * 8);
      largeIndex++;
    }
  });
  const checksumAt = largeAt + large * 8;
  packChecksum.copy(out, checksumAt);
  createHash('sha1').update(out.subarray(0, checksumAt + 20)).digest().copy(out, checksumAt + 20);
  return out;
}

/** zlib's Adler-32, in chunks small enough that the sums never overflow before the modulo. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  let at = 0;
  while (at < data.length) {
    const end = Math.min(at + 3800, data.length);
    for (; at < end; at++) {
      a += data[at]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const STORED_BLOCK = 65535;

/** A zlib stream of uncompressed ("stored") deflate blocks: header, blocks of ≤ 64 KiB, Adler-32. */
export function zlibStored(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / STORED_BLOCK));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  let from = 0;
  do {
    const length = Math.min(STORED_BLOCK, data.length - from);
    out[at] = from + length >= data.length ? 1 : 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(length ^ 0xffff, at + 3);
    at += 5;
    out.set(data.subarray(from, from + length), at);
    at += length;
    from += length;
  } while (from < data.length);
  out.writeUInt32BE(adler32(data), at);
  return out;
}
