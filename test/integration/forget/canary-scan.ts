/**
 * Looks for a canary string in every file below a folder, also inside compressed bytes: every zlib stream
 * (git's loose objects and pack entries) and every deflate-raw stream Arbor's store writes for raw lines
 * (tried at each offset that is not inside a run of zeros, with the store's dictionary, through decodeRaw), and
 * every brotli stream of a raw-line block (migration 035; brotli has no header to find, so it is tried at each
 * such offset too, reading what a cut stream gives).
 * The canary's tail is searched too: the full-text index keeps a term after the prefix it shares with the
 * term before it. Returns "file: where" for each find.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliDecompressSync, constants, inflateSync } from 'node:zlib';
import { decodeRaw, RAW_DEFLATE_V1 } from '../../../electron/db/raw-line';

/** How far a raw line's stream may run from its start (the test's lines are short). */
const RAW_WINDOW = 1024;
/** How much of a block's stream is read from a start: the test's blocks hold a few short lines. */
const BLOCK_WINDOW = 8192;

export function filesBelow(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesBelow(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function holds(bytes: Buffer, needles: readonly Buffer[]): boolean {
  return needles.some((needle) => bytes.includes(needle));
}

export function scanForCanary(dir: string, canary: string): string[] {
  const needles = [Buffer.from(canary), Buffer.from(canary.slice(-16)), Buffer.from(canary.toLowerCase().slice(-16))];
  const finds: string[] = [];
  for (const path of filesBelow(dir)) {
    const name = relative(dir, path);
    const bytes = readFileSync(path);
    if (holds(bytes, needles)) {
      finds.push(`${name}: plain bytes`);
      continue;
    }
    if (scanZlib(bytes, needles)) {
      finds.push(`${name}: inside a zlib stream`);
      continue;
    }
    if (scanRawLines(bytes, needles)) {
      finds.push(`${name}: inside a compressed raw line`);
      continue;
    }
    if (scanBlocks(bytes, needles)) finds.push(`${name}: inside a compressed block of raw lines`);
  }
  return finds;
}

/** zlib streams start with a CMF/FLG pair whose 16-bit value is a multiple of 31 (RFC 1950). */
function scanZlib(bytes: Buffer, needles: readonly Buffer[]): boolean {
  for (let at = 0; at + 2 < bytes.length; at++) {
    if ((bytes[at]! & 0x0f) !== 8 || ((bytes[at]! << 8) | bytes[at + 1]!) % 31 !== 0) continue;
    try {
      if (holds(inflateSync(bytes.subarray(at), { finishFlush: constants.Z_SYNC_FLUSH }), needles)) return true;
    } catch {
      // not a stream here
    }
  }
  return false;
}

function scanRawLines(bytes: Buffer, needles: readonly Buffer[]): boolean {
  for (let at = 0; at < bytes.length; at++) {
    // A stream never starts inside zeros: skip the empty parts of pages quickly.
    if (bytes[at] === 0 && bytes[at + 1] === 0 && bytes[at + 2] === 0 && bytes[at + 3] === 0) continue;
    // Level-1 deflate writes a fixed or dynamic Huffman block first (BTYPE 01 or 10).
    const type = (bytes[at]! >> 1) & 3;
    if (type !== 1 && type !== 2) continue;
    try {
      if (holds(decodeRaw(bytes.subarray(at, at + RAW_WINDOW), RAW_DEFLATE_V1), needles)) return true;
    } catch {
      // not a stream here (or one cut by the window)
    }
  }
  return false;
}

function scanBlocks(bytes: Buffer, needles: readonly Buffer[]): boolean {
  for (let at = 0; at < bytes.length; at++) {
    if (bytes[at] === 0 && bytes[at + 1] === 0 && bytes[at + 2] === 0 && bytes[at + 3] === 0) continue;
    try {
      const out = brotliDecompressSync(bytes.subarray(at, at + BLOCK_WINDOW), { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: 1 << 20 });
      if (holds(out, needles)) return true;
    } catch {
      // not a stream here
    }
  }
  return false;
}

export function bytesOf(dir: string): number {
  return filesBelow(dir).reduce((sum, path) => sum + statSync(path).size, 0);
}
