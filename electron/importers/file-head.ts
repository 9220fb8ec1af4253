/**
 * The first bytes of a transcript file (decompressed for `.zst`), for the importer registry to decide by
 * content which format a file is: a file's name says little (a Codex rollout may be named `agent-*.jsonl`).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';

export const HEAD_BYTES = 64 * 1024;

/** null when the head cannot be read as what its name says (a `.zst` that is not zstd). */
export async function readFileHead(path: string): Promise<Buffer | null> {
  if (path.endsWith('.zst')) return readCompressedHead(path);
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readCompressedHead(path: string): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  const decoder = new Decompress((data) => {
    if (size < HEAD_BYTES) {
      parts.push(Buffer.from(data.subarray(0, HEAD_BYTES - size)));
      size += Math.min(data.length, HEAD_BYTES - size);
    }
  });
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      decoder.push(chunk);
      if (size >= HEAD_BYTES) break;
    }
  } catch {
    return null;
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts);
}

/** The head's first non-empty lines (at most `count`); the last may be cut at HEAD_BYTES. */
export function headLines(head: Buffer, count = 8): string[] {
  const text = head.toString('utf8');
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/^\uFEFF/, '').trim();
    if (trimmed.length > 0) lines.push(trimmed);
    if (lines.length >= count) break;
  }
  return lines;
}

/** NUL bytes never appear in a JSON lines file; invalid UTF-8 other than a cut last character neither. */
export function looksBinary(head: Buffer): boolean {
  if (head.includes(0)) return true;
  const text = head.toString('utf8');
  const replacements = text.split('\uFFFD').length - 1;
  return replacements > 1 || (replacements === 1 && !text.endsWith('\uFFFD'));
}

export function parseJsonObject(line: string): Readonly<Record<string, unknown>> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
