/**
 * Streams a newline-delimited file from a byte offset without holding it: one reused read buffer, each
 * complete line handed to a callback as a view into that buffer. Used by every JSONL importer.
 *
 * Memory stays bounded whatever the file: the buffer grows only to hold a line up to `maxLineBytes`; a longer
 * line is not accumulated — its first and last bytes are kept and the rest is skipped up to its newline.
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { CancelledError, throwIfAborted } from '../../shared/errors';

export interface LineReaderOptions {
  /** Byte offset of the first line to read (the start of a line). Default 0. */
  readonly startOffset?: number;
  /** 1-based number of the line at startOffset. Default 1. */
  readonly startLine?: number;
  /** Bytes per read. Default 1 MiB; tests use tiny chunks to exercise boundaries. */
  readonly chunkSize?: number;
  /** Lines of this many bytes or more are reported as oversize instead of whole. Default 64 MiB. */
  readonly maxLineBytes?: number;
  /** How much of an oversize line's start and end is kept. Default 64 KiB each. */
  readonly oversizeKeepBytes?: number;
  readonly signal?: AbortSignal;
  /** Bytes read so far from startOffset; called once per chunk. */
  readonly onBytes?: (bytesRead: number) => void;
  /**
   * Offered the last line when the file does not end with `\n`. Return true if it is complete (the caller
   * handled it, e.g. a hand-written file whose final JSON line lacks a newline): the read then ends at EOF and
   * `endLine` stays this line's number, so a newline appended later reads as this line's empty remainder.
   * Return false (or omit) to leave it for the next read, as a line still being written.
   */
  readonly onUnterminatedLine?: (line: WholeLine) => boolean;
  /**
   * Keep every whole line's bytes valid after its callback: a buffer that lines were handed out from is
   * never written again (the unfinished line moves to a fresh buffer instead), so callers can keep the
   * views instead of copying each line. Fresh buffers are never from Node's shared pool (transferable).
   */
  readonly keepLines?: boolean;
  /**
   * Awaited before each read, when every line handed out so far is complete (with keepLines: in buffers that
   * are never written again, so they may be transferred). Lets a consumer flush a batch or apply backpressure.
   */
  readonly beforeRead?: () => Promise<void> | void;
}

/**
 * A complete line. `bytes` excludes the `\n` (and a `\r` before it) and is only valid during the callback
 * (unless the read was started with `keepLines`).
 */
export interface WholeLine {
  readonly oversize: false;
  readonly line: number;
  readonly offset: number;
  readonly bytes: Buffer;
}

/** A line too long to hold: its first and last bytes (copies, safe to keep) and its full length. */
export interface OversizeLine {
  readonly oversize: true;
  readonly line: number;
  readonly offset: number;
  readonly head: Buffer;
  readonly tail: Buffer;
  readonly totalBytes: number;
}

export type ReadLine = WholeLine | OversizeLine;

export interface LineReadResult {
  /** Offset just after the last complete line: a trailing line without `\n` is left for the next read. */
  readonly endOffset: number;
  /** The number the next line will have. */
  readonly endLine: number;
}

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_OVERSIZE_KEEP_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Reads complete lines of `path` from `startOffset`, calling `onLine` synchronously for each, in order. */
export async function readLines(
  path: string,
  onLine: (line: ReadLine) => void,
  options: LineReaderOptions = {},
): Promise<LineReadResult> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const maxLineBytes = Math.max(1, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const keepBytes = Math.max(1, Math.min(options.oversizeKeepBytes ?? DEFAULT_OVERSIZE_KEEP_BYTES, maxLineBytes));
  const startOffset = options.startOffset ?? 0;
  const { signal, onBytes, beforeRead } = options;
  const keepLines = options.keepLines === true;
  // allocUnsafeSlow: never a slice of Node's shared pool, whose ArrayBuffer cannot be transferred.
  const allocate = keepLines ? Buffer.allocUnsafeSlow : Buffer.allocUnsafe;

  let lineNumber = options.startLine ?? 1;
  let buffer = allocate(chunkSize);
  /** Whether a line was handed out from `buffer` (with keepLines it must then not be written again). */
  let handedOut = false;
  let bufferOffset = startOffset; // file offset of buffer[0]
  let lineStart = 0; // start of the current (unfinished) line in buffer
  let filled = 0; // valid bytes in buffer
  let readPosition = startOffset;
  let skipping: OversizeState | null = null;

  throwIfAborted(signal);
  const handle = await openRegularFile(path);
  /** A read still waiting when the import was stopped: the handle is then closed without waiting for it. */
  let stuck = false;
  try {
    for (;;) {
      throwIfAborted(signal);
      if (keepLines && handedOut) {
        // The handed-out lines stay as they are: the unfinished line starts a fresh buffer.
        const fresh = allocate(Math.max(chunkSize, filled - lineStart + chunkSize));
        buffer.copy(fresh, 0, lineStart, filled);
        buffer = fresh;
        handedOut = false;
        filled -= lineStart;
        bufferOffset += lineStart;
        lineStart = 0;
      } else if (lineStart > 0) {
        // Move the unfinished line to the front so the buffer only ever holds one partial line.
        buffer.copyWithin(0, lineStart, filled);
        filled -= lineStart;
        bufferOffset += lineStart;
        lineStart = 0;
      }
      if (skipping === null && filled >= maxLineBytes) {
        skipping = new OversizeState(bufferOffset, lineNumber, keepBytes, buffer.subarray(0, filled));
        bufferOffset += filled;
        filled = 0;
      }
      if (buffer.length - filled < chunkSize) {
        // Room for a full chunk after the partial line, so long lines do not degrade into tiny reads.
        const grown = allocate(Math.max(filled + chunkSize, Math.min(buffer.length * 2, maxLineBytes + chunkSize)));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      if (beforeRead !== undefined) await beforeRead();
      const read = handle.read(buffer, filled, chunkSize, readPosition);
      const { bytesRead } = signal === undefined ? await read : await untilAborted(read, signal, () => (stuck = true));
      if (bytesRead === 0) break;
      readPosition += bytesRead;
      const scanFrom = filled;
      filled += bytesRead;
      onBytes?.(readPosition - startOffset);

      let searchFrom = scanFrom;
      if (skipping !== null) {
        const newline = buffer.indexOf(NEWLINE, scanFrom);
        if (newline === -1 || newline >= filled) {
          skipping.skip(buffer.subarray(0, filled));
          bufferOffset += filled;
          filled = 0;
          continue;
        }
        skipping.skip(buffer.subarray(0, newline));
        onLine(skipping.finish());
        lineNumber += 1;
        skipping = null;
        lineStart = newline + 1;
        searchFrom = lineStart;
      }

      for (;;) {
        const newline = buffer.indexOf(NEWLINE, searchFrom);
        // indexOf searches the whole buffer; bytes past `filled` are stale from earlier reads.
        if (newline === -1 || newline >= filled) break;
        let end = newline;
        if (end > lineStart && buffer[end - 1] === CARRIAGE_RETURN) end -= 1;
        if (end - lineStart >= maxLineBytes) {
          // Hand over the `\r` too: finish() strips it the same way for lines that were skipped.
          const state = new OversizeState(bufferOffset + lineStart, lineNumber, keepBytes, buffer.subarray(lineStart, newline));
          onLine(state.finish());
        } else {
          handedOut = true;
          onLine({ oversize: false, line: lineNumber, offset: bufferOffset + lineStart, bytes: buffer.subarray(lineStart, end) });
        }
        lineNumber += 1;
        lineStart = newline + 1;
        searchFrom = lineStart;
      }
    }
  } finally {
    // close() waits for pending reads: after one that never ends, it would hold the stopped import forever.
    if (stuck) void handle.close().catch(() => undefined);
    else await handle.close();
  }
  if (skipping === null && lineStart < filled && options.onUnterminatedLine !== undefined) {
    const last: WholeLine = { oversize: false, line: lineNumber, offset: bufferOffset + lineStart, bytes: buffer.subarray(lineStart, filled) };
    if (options.onUnterminatedLine(last)) return { endOffset: bufferOffset + filled, endLine: lineNumber };
  }
  const endOffset = skipping !== null ? skipping.offset : bufferOffset + lineStart;
  return { endOffset, endLine: lineNumber };
}

/**
 * Opens without blocking (O_NONBLOCK: a FIFO's open would wait for a writer) and refuses anything but a regular
 * file, whatever discovery saw: a path swapped for a FIFO or a device meanwhile is never read.
 */
async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file (a FIFO, socket or device): not read`), { code: 'EINVAL' });
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** `read`, or CANCELLED as soon as the signal fires even if `read` never settles (a read that blocks). */
function untilAborted<T>(read: Promise<T>, signal: AbortSignal, onStuck: () => void): Promise<T> {
  if (signal.aborted) {
    onStuck();
    return Promise.reject(new CancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      onStuck();
      reject(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    read.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** What is kept of a line while its middle is skipped. */
class OversizeState {
  readonly offset: number;
  private readonly line: number;
  private readonly keepBytes: number;
  private readonly head: Buffer;
  private readonly tail: Buffer;
  private tailLength = 0;
  private totalBytes = 0;

  constructor(offset: number, line: number, keepBytes: number, first: Buffer) {
    this.offset = offset;
    this.line = line;
    this.keepBytes = keepBytes;
    this.head = Buffer.from(first.subarray(0, keepBytes));
    // One spare byte: a CRLF line's `\r` is dropped at the end and the tail still holds keepBytes.
    this.tail = Buffer.alloc(keepBytes + 1);
    this.skip(first);
  }

  /** Counts bytes of the line and keeps the newest `keepBytes` of them as the tail. */
  skip(bytes: Buffer): void {
    this.totalBytes += bytes.length;
    const capacity = this.tail.length;
    if (bytes.length >= capacity) {
      bytes.copy(this.tail, 0, bytes.length - capacity);
      this.tailLength = capacity;
      return;
    }
    const keepOld = Math.min(this.tailLength, capacity - bytes.length);
    this.tail.copyWithin(0, this.tailLength - keepOld, this.tailLength);
    bytes.copy(this.tail, keepOld);
    this.tailLength = keepOld + bytes.length;
  }

  finish(): OversizeLine {
    let tail = this.tail.subarray(0, this.tailLength);
    let totalBytes = this.totalBytes;
    if (tail.length > 0 && tail[tail.length - 1] === CARRIAGE_RETURN) {
      tail = tail.subarray(0, tail.length - 1);
      totalBytes -= 1;
    }
    tail = Buffer.from(tail.subarray(Math.max(0, tail.length - this.keepBytes)));
    return { oversize: true, line: this.line, offset: this.offset, head: this.head, tail, totalBytes };
  }
}
