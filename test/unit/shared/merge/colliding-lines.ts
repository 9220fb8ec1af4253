/**
 * Lines that the merge engine's line hash cannot tell apart, found by a birthday search: FNV-1a
 * keeps no state but the hash, so once two prefixes collide, any suffix after both collides too.
 */
import { lineHash } from '../../../../shared/merge/lines';

let found: readonly [string, string] | undefined;

/** Two different prefixes of the same length with the same lineHash (searched once per process). */
export function collidingPrefixes(): readonly [string, string] {
  if (found !== undefined) return found;
  const bits = 21;
  const slots = new Int32Array(1 << bits).fill(-1);
  const hashes: number[] = [];
  // Of one length, so the interner cannot tell them apart by length either.
  const prefix = (i: number): string => `  value = ${String(i).padStart(7, "0")}`;
  for (let i = 0; i < 4_000_000; i++) {
    const text = prefix(i);
    const hash = lineHash(text, 0, text.length);
    for (let slot = hash >>> (32 - bits); ; slot = (slot + 1) & ((1 << bits) - 1)) {
      const other = slots[slot] as number;
      if (other === -1) {
        slots[slot] = i;
        hashes[i] = hash;
        break;
      }
      if (hashes[other] === hash) {
        found = [prefix(other), text];
        return found;
      }
    }
  }
  throw new Error('no colliding prefixes found');
}

/** `count` pairs of different lines (with their "\n") that share a hash. */
export function collidingLines(count: number): Array<readonly [string, string]> {
  const [a, b] = collidingPrefixes();
  return Array.from({ length: count }, (_, i) => [`${a};${i === 0 ? '' : ` // ${i}`}\n`, `${b};${i === 0 ? '' : ` // ${i}`}\n`] as const);
}
