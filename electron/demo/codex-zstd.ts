/**
 * Writes a zstd frame of raw (stored) blocks: a valid `.zst` any zstd reader decompresses, without a
 * compressor in Node 20 (zlib has no zstd). Good enough for generated rollouts; real Codex compresses.
 */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const MAX_BLOCK = 128 * 1024 - 1;

export function zstdStored(data: Uint8Array): Buffer {
  const parts: Buffer[] = [Buffer.from(MAGIC), Buffer.from([0x00]), Buffer.from([0x58])]; // no checksum, window 2^(10+11)=2 MiB
  if (data.length === 0) parts.push(blockHeader(0, true));
  for (let start = 0; start < data.length; start += MAX_BLOCK) {
    const end = Math.min(data.length, start + MAX_BLOCK);
    parts.push(blockHeader(end - start, end === data.length), Buffer.from(data.subarray(start, end)));
  }
  return Buffer.concat(parts);
}

function blockHeader(size: number, last: boolean): Buffer {
  const header = (size << 3) | (0 << 1) | (last ? 1 : 0); // block type 0: raw
  return Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]);
}
