/**
 * Copies of raw transcript lines, carved out of shared 1 MiB blocks instead of one allocation per line:
 * the line reader reuses its buffer, so what the store keeps must be a copy, and allocating each one
 * separately cost as much as the JSON parse. A kept line holds its block alive; blocks are not reused.
 */
const BLOCK_SIZE = 1024 * 1024;
/** Lines this long get their own buffer, so one big line does not waste most of a block. */
const OWN_BUFFER_FROM = BLOCK_SIZE / 4;

export class RawArena {
  private block = Buffer.allocUnsafe(0);
  private used = 0;

  /** A copy of `bytes`, cut at `limit`. */
  copy(bytes: Buffer, limit: number): Buffer {
    const length = Math.min(bytes.length, limit);
    if (length >= OWN_BUFFER_FROM) {
      const own = Buffer.allocUnsafeSlow(length);
      bytes.copy(own, 0, 0, length);
      return own;
    }
    if (this.block.length - this.used < length) {
      this.block = Buffer.allocUnsafeSlow(BLOCK_SIZE);
      this.used = 0;
    }
    const start = this.used;
    bytes.copy(this.block, start, 0, length);
    this.used += length;
    return this.block.subarray(start, start + length);
  }
}
