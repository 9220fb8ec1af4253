/**
 * A small seeded random source (mulberry32) so generated transcripts, benchmark inputs and property tests are
 * identical for the same seed: runs can be compared byte for byte.
 */

/** The raw generator: uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

export class Random {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed ^ 0x9e3779b9);
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Random.pick on an empty list');
    return item;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }

  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[Math.floor(this.next() * 62)];
    return out;
  }

  /** A version-4 UUID (the shape Claude Code uses for line uuids and session ids). */
  uuid(): string {
    const h = this.hex(32);
    const variant = HEX[8 + Math.floor(this.next() * 4)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
