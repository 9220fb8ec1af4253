/**
 * Streams a Codex rollout's lines, plain (`.jsonl`) or zstd-compressed (`.jsonl.zst`), from the start: a rollout
 * has no parent pointers, so a node's parent and a call's name come from the lines before it. A plain file may
 * be read from `resumeAt` when the parser kept what those lines told it (parse-rollout.ts `ResumeState`).
 * A compressed file is decompressed as a stream (fzstd), holding one chunk and one partial line at a time.
 * Offsets are positions in the decompressed text, so a plain and a compressed copy give the same node ids.
 */
import { createReadStream } from 'node:fs';
import { Decompress } from 'fzstd';
import { throwIfAborted } from '../../../shared/errors';
import { readLines, type ReadLine } from '../line-reader';

export interface RolloutReadOptions {
  readonly signal?: AbortSignal;
  readonly onBytes?: (bytesRead: number) => void;
  readonly beforeRead?: () => Promise<void> | void;
  readonly chunkSize?: number;
  /** Lines this long or longer are not parsed (see line-reader). */
  readonly maxLineBytes?: number;
  /** Where to start a plain file (a line's start, and its number); a compressed one is always read whole. */
  readonly resumeAt?: { readonly offset: number; readonly line: number };
}

export interface RolloutReadResult {
  /** Just after the last complete line; 0 for a compressed file, which is read whole again when it changes. */
  readonly endOffset: number;
  readonly endLine: number;
}

export function isCompressedRollout(path: string): boolean {
  return path.endsWith('.zst');
}

export async function readRolloutLines(
  path: string,
  onLine: (line: ReadLine) => void,
  options: RolloutReadOptions,
): Promise<RolloutReadResult> {
  if (!isCompressedRollout(path)) {
    return readLines(path, onLine, {
      startOffset: options.resumeAt?.offset ?? 0,
      startLine: options.resumeAt?.line ?? 1,
      signal: options.signal,
      onBytes: options.onBytes,
      beforeRead: options.beforeRead,
      chunkSize: options.chunkSize,
      maxLineBytes: options.maxLineBytes,
      keepLines: true,
      // Hand-made rollouts often lack the final newline: a last line that parses is complete.
      onUnterminatedLine: (line) => {
        if (!parsesAsObject(line.bytes)) return false;
        onLine(line);
        return true;
      },
    });
  }
  return readCompressed(path, onLine, options);
}

async function readCompressed(path: string, onLine: (line: ReadLine) => void, options: RolloutReadOptions): Promise<RolloutReadResult> {
  const maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let oversize = false;
  let lineStart = 0; // decompressed offset of the current line
  let lineNumber = 1;
  let position = 0; // decompressed bytes seen
  let bytesRead = 0;

  const endLine = (bytes: Buffer): void => {
    const length = oversize ? partialBytes : bytes.length;
    if (oversize) {
      onLine({ oversize: true, line: lineNumber, offset: lineStart, head: Buffer.alloc(0), tail: Buffer.alloc(0), totalBytes: length });
    } else {
      const clean = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
      onLine({ oversize: false, line: lineNumber, offset: lineStart, bytes: clean });
    }
    lineNumber += 1;
  };

  const decoder = new Decompress((data) => {
    let from = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, from);
      const piece = data.subarray(from, newline === -1 ? data.length : newline);
      if (!oversize) {
        partial.push(Buffer.from(piece)); // copied: fzstd reuses its window
        if (partialBytes + piece.length >= maxLineBytes) {
          oversize = true;
          partial = [];
        }
      }
      partialBytes += piece.length;
      if (newline === -1) break;
      endLine(Buffer.concat(partial));
      position += partialBytes + 1;
      lineStart = position;
      partial = [];
      partialBytes = 0;
      oversize = false;
      from = newline + 1;
    }
  });

  const stream = createReadStream(path, { highWaterMark: options.chunkSize ?? 1024 * 1024 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    throwIfAborted(options.signal);
    decoder.push(chunk);
    bytesRead += chunk.length;
    options.onBytes?.(bytesRead);
    await options.beforeRead?.();
  }
  decoder.push(new Uint8Array(0), true);
  if (partialBytes > 0 && !oversize) {
    const last = Buffer.concat(partial);
    if (parsesAsObject(last)) endLine(last);
  }
  return { endOffset: 0, endLine: 1 };
}

function parsesAsObject(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
