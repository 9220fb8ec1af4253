/**
 * A file an import finds unchanged is not read again, but its final line may still be incomplete (Claude Code
 * was writing it, or a copy was cut short). The import that first met that line reported it; every later
 * import must too, for as long as it stays incomplete (issue 13: it was reported once, then never again, so a
 * user re-running `arbor import` saw a clean report for a file with a line Arbor had not read).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { ImportProblem } from '../../shared/model';
import { truncatedLineReason } from '../importers/claude-code/line-problems';

/** Enough of the tail to tell a line being written from trailing blanks, which the parser never reports. */
const SNIFF_BYTES = 64 * 1024;

export interface StoredTail {
  readonly size: number;
  readonly endOffset: number;
  readonly endLine: number;
}

/** The problem the parser reported for the unread tail of an unchanged file, or null when there is none. */
export function incompleteTailProblem(path: string, stored: StoredTail): ImportProblem | null {
  const bytes = stored.size - stored.endOffset;
  if (bytes <= 0) return null;
  if (!holdsText(path, stored.endOffset, Math.min(bytes, SNIFF_BYTES))) return null;
  return { file: path, line: stored.endLine, reason: truncatedLineReason(bytes) };
}

/** Some byte above a space in the range, as the parser's `truncated` checks (unreadable: say it is there). */
function holdsText(path: string, offset: number, length: number): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return true;
  }
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read).some((byte) => byte > 0x20);
  } catch {
    return true;
  } finally {
    closeSync(fd);
  }
}
