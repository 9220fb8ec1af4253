/**
 * Reads objects from packfiles through their v2 index, with positioned reads (no whole-pack loads), and
 * resolves OFS/REF deltas so packs rewritten by `git gc` stay readable. Used on the hot paths (capture's
 * "already stored?" check, materialize); isomorphic-git reads the same files for everything else.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { ArborError } from '../../shared/errors';
import type { GitObject, ObjectType } from './git-object';

const TYPES: readonly (ObjectType | undefined)[] = [undefined, 'commit', 'tree', 'blob', 'tag'];
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** Type and size varint (at most 10 bytes for 64-bit sizes) of a pack entry. */
const ENTRY_HEADER_BYTES = 16;

export class PackIndex {
  private constructor(
    private readonly data: Buffer,
    readonly count: number,
    private readonly namesAt: number,
    private readonly offsetsAt: number,
  ) {}

  static parse(data: Buffer, name: string): PackIndex {
    if (data.length < 8 + 1024 + 40 || data.readUInt32BE(0) !== 0xff744f63 || data.readUInt32BE(4) !== 2) {
      throw new ArborError('INTERNAL', `Unsupported or corrupt pack index ${name}`, { name });
    }
    const count = data.readUInt32BE(8 + 255 * 4);
    const namesAt = 8 + 1024;
    return new PackIndex(data, count, namesAt, namesAt + count * 24);
  }

  /** The object's offset in the pack, or -1. */
  find(oid: Buffer): number {
    const first = oid[0] ?? 0;
    let lo = first === 0 ? 0 : this.data.readUInt32BE(8 + (first - 1) * 4);
    let hi = this.data.readUInt32BE(8 + first * 4);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.namesAt + mid * 20;
      const cmp = this.data.compare(oid, 0, 20, at, at + 20);
      if (cmp === 0) return this.offsetAt(mid);
      if (cmp > 0) hi = mid;
      else lo = mid + 1;
    }
    return -1;
  }

  private offsetAt(i: number): number {
    const raw = this.data.readUInt32BE(this.offsetsAt + i * 4);
    if ((raw & 0x80000000) === 0) return raw;
    const largeAt = this.offsetsAt + this.count * 4 + (raw & 0x7fffffff) * 8;
    return Number(this.data.readBigUInt64BE(largeAt));
  }

  /** Every offset, ascending: an entry ends where the next begins. */
  sortedOffsets(): Float64Array {
    const offsets = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) offsets[i] = this.offsetAt(i);
    return offsets.sort();
  }

  *oids(): Iterable<string> {
    for (let i = 0; i < this.count; i++) yield this.data.toString('hex', this.namesAt + i * 20, this.namesAt + i * 20 + 20);
  }
}

/** Resolves a REF_DELTA base that may live in another pack or as a loose object. */
export type BaseLookup = (oid: Buffer) => GitObject;

export class PackFile {
  private fd: number | undefined;
  private ends: Float64Array | undefined;
  private size = 0;

  constructor(
    readonly path: string,
    readonly index: PackIndex,
  ) {}

  read(oid: Buffer, lookup: BaseLookup): GitObject | undefined {
    const offset = this.index.find(oid);
    return offset < 0 ? undefined : this.readAt(offset, lookup);
  }

  /**
   * The object's size in bytes, or undefined when this pack lacks it. A whole object's size is in its entry
   * header, so its body is not read; a delta's result size opens its (small) delta stream.
   */
  sizeOf(oid: Buffer): number | undefined {
    const offset = this.index.find(oid);
    if (offset < 0) return undefined;
    const fd = this.open();
    const head = Buffer.allocUnsafe(Math.min(ENTRY_HEADER_BYTES, this.entryEnd(offset) - offset));
    readSync(fd, head, 0, head.length, offset);
    let at = 0;
    let byte = head[at++]!;
    const typeCode = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let shift = 16;
    while (byte & 0x80) {
      byte = head[at++]!;
      size += (byte & 0x7f) * shift;
      shift *= 128;
    }
    if (typeCode !== OFS_DELTA && typeCode !== REF_DELTA) return size;
    const raw = Buffer.allocUnsafe(this.entryEnd(offset) - offset);
    readSync(fd, raw, 0, raw.length, offset);
    if (typeCode === REF_DELTA) at += 20;
    else while (raw[at++]! & 0x80) continue; // the base's distance
    const delta = inflate(raw.subarray(at));
    return readVarint(delta, readVarint(delta, 0)[1])[0];
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'r');
      this.size = fstatSync(this.fd).size;
      this.ends = this.index.sortedOffsets();
    }
    return this.fd;
  }

  private entryEnd(offset: number): number {
    const ends = this.ends!;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < ends.length ? ends[lo]! : this.size - 20;
  }

  private readAt(offset: number, lookup: BaseLookup): GitObject {
    const fd = this.open();
    const end = this.entryEnd(offset);
    const raw = Buffer.allocUnsafe(end - offset);
    readSync(fd, raw, 0, raw.length, offset);
    let at = 0;
    let byte = raw[at++]!;
    const typeCode = (byte >> 4) & 7;
    while (byte & 0x80) byte = raw[at++]!;
    if (typeCode === OFS_DELTA) {
      byte = raw[at++]!;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = raw[at++]!;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      const base = this.readAt(offset - distance, lookup);
      return { type: base.type, body: applyDelta(base.body, inflate(raw.subarray(at))) };
    }
    if (typeCode === REF_DELTA) {
      const base = lookup(raw.subarray(at, at + 20));
      return { type: base.type, body: applyDelta(base.body, inflate(raw.subarray(at + 20))) };
    }
    const type = TYPES[typeCode];
    if (type === undefined) throw new ArborError('INTERNAL', `Corrupt pack entry at ${offset} in ${this.path}`);
    return { type, body: inflate(raw.subarray(at)) };
  }
}

/**
 * Inflates one zlib stream; streams made only of stored blocks (what the pack writer emits by default)
 * are unwrapped directly, skipping a zlib call that would cost more than the copy.
 */
export function inflate(stream: Buffer): Buffer {
  const stored = unwrapStored(stream);
  return stored ?? inflateSync(stream);
}

function unwrapStored(stream: Buffer): Buffer | undefined {
  if (stream.length < 7 || stream[0] !== 0x78 || (stream[1]! & 0x20) !== 0) return undefined;
  const parts: Buffer[] = [];
  let at = 2;
  for (;;) {
    const header = stream[at];
    if (header === undefined || (header & 0x06) !== 0 || at + 5 > stream.length) return undefined;
    const length = stream.readUInt16LE(at + 1);
    if ((length ^ 0xffff) !== stream.readUInt16LE(at + 3) || at + 5 + length > stream.length) return undefined;
    parts.push(stream.subarray(at + 5, at + 5 + length));
    at += 5 + length;
    if (header & 1) break;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function readVarint(delta: Buffer, start: number): [value: number, next: number] {
  let value = 0;
  let shift = 1;
  let at = start;
  let byte: number;
  do {
    byte = delta[at++]!;
    value += (byte & 0x7f) * shift;
    shift *= 128;
  } while (byte & 0x80);
  return [value, at];
}

/** Git's delta format: copy ranges of the base and insert literal bytes. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const [baseSize, afterBase] = readVarint(delta, 0);
  const [size, start] = readVarint(delta, afterBase);
  if (baseSize !== base.length) throw new ArborError('INTERNAL', 'Delta base size mismatch');
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  let at = start;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let copyOffset = 0;
      let copySize = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) copyOffset += delta[at++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) copySize += delta[at++]! * 2 ** (8 * bit);
      if (copySize === 0) copySize = 0x10000;
      base.copy(out, written, copyOffset, copyOffset + copySize);
      written += copySize;
    } else if (op > 0) {
      delta.copy(out, written, at, at + op);
      written += op;
      at += op;
    } else {
      throw new ArborError('INTERNAL', 'Corrupt delta instruction');
    }
  }
  if (written !== size) throw new ArborError('INTERNAL', 'Delta result size mismatch');
  return out;
}
