/**
 * The reasons an import reports for lines it keeps but could not read as written (issue 13, "every line
 * accounted for"): a final line still incomplete, and a line whose bytes are not UTF-8 (the raw bytes are
 * stored as they are; only the strings read from them hold U+FFFD).
 */
import { isUtf8 } from 'node:buffer';

/** Said on every import while the line stays incomplete (electron/service/incomplete-tail.ts for an unchanged file). */
export function truncatedLineReason(bytes: number): string {
  return `truncated: ends with an incomplete line (${bytes} bytes), will be read when complete`;
}

/** Null when the line is valid UTF-8 (the usual case: one fast scan). */
export function invalidUtf8Reason(bytes: Buffer): string | null {
  if (isUtf8(bytes)) return null;
  return `invalid UTF-8 at byte ${firstInvalidByte(bytes)} of the line: its strings read U+FFFD there, its raw bytes are kept as written`;
}

/** Where the first byte that does not start or continue a valid UTF-8 sequence is (0-based). */
function firstInvalidByte(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return bytes.length;
}
