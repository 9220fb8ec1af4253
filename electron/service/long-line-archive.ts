/**
 * The archive keeps long lines whole (issue 15): the store keeps only the first RAW_LIMIT bytes of a line in its
 * node or record row, and no bytes at all of what lies past the line reader's 64 MiB, so once the agent deletes
 * the transcript a fork through such a line could not be written. After a file is imported, each such line it
 * read is copied from the file into the store (electron/db/long-lines.ts) a chunk at a time: memory stays at one
 * chunk whatever the line's length, and the parse pipeline carries no more than the head it always did.
 *
 * A line is copied only by the file whose row holds its head (a fork's copy of a line, stored once under the
 * original, is not kept twice) and only once (an append reads past it; a re-import finds it kept).
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { isStoreError } from '../db/database';
import { LONG_LINE_CHUNK_BYTES, longLinesOf, type LongLinePlace } from '../db/long-lines';
import { readMeta, writeMeta } from '../db/store-gc-records';
import type { SessionStore } from '../db/session-store';
import type { ParsedNode, ParsedRecord } from '../importers/transcript';
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { ImportProblem } from '../../shared/model';

/** How much of the stored head is compared with the file's bytes (the file may have been rewritten meanwhile). */
const HEAD_CHECK_BYTES = 4096;

/** An oversize line the import read: where it is, its length, and the start of what the store kept of it. */
export interface LongLineSighting extends LongLinePlace {
  readonly totalBytes: number;
  readonly head: Buffer;
}

/** The sighting of a parsed line whose stored row keeps only its head; null for a line stored whole. */
export function longLineSighting(line: ParsedNode | ParsedRecord): LongLineSighting | null {
  if (line.rawBytes <= line.raw.length) return null;
  return {
    nodeId: 'sourceId' in line ? line.sourceId : null,
    line: line.line,
    offset: line.offset,
    totalBytes: line.rawBytes,
    // A copy: the parsed line's buffer belongs to the reader (or the worker's transfer).
    head: Buffer.from(line.raw.subarray(0, HEAD_CHECK_BYTES)),
  };
}

/** Copies the sighted lines' whole bytes from `path` into the store; returns how many were copied. */
export async function keepLongLines(store: SessionStore, path: string, sightings: readonly LongLineSighting[], signal?: AbortSignal): Promise<number> {
  if (sightings.length === 0) return 0;
  const lines = longLinesOf(store.handles);
  let copied = 0;
  let handle: FileHandle | undefined;
  try {
    for (const sighting of sightings) {
      throwIfAborted(signal);
      const head = lines.headOf(path, sighting);
      if (head === null || head.whole || head.rawBytes !== sighting.totalBytes) continue;
      handle ??= await open(path, 'r');
      await copyLine(handle, lines, head.fileId, sighting, path, signal);
      copied += 1;
    }
  } finally {
    await handle?.close();
  }
  return copied;
}

async function copyLine(
  handle: FileHandle,
  lines: ReturnType<typeof longLinesOf>,
  fileId: number,
  sighting: LongLineSighting,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { line, offset, totalBytes } = sighting;
  lines.begin(fileId, line);
  const buffer = Buffer.allocUnsafe(LONG_LINE_CHUNK_BYTES);
  const hash = createHash('sha256');
  let compress = true;
  let chunks = 0;
  for (let done = 0; done < totalBytes; chunks++) {
    throwIfAborted(signal);
    const want = Math.min(LONG_LINE_CHUNK_BYTES, totalBytes - done);
    const bytes = await readExactly(handle, buffer, want, offset + done, path);
    if (done === 0 && !bytes.subarray(0, sighting.head.length).equals(sighting.head.subarray(0, Math.min(sighting.head.length, bytes.length)))) {
      lines.begin(fileId, line);
      throw new ArborError('IO', `${path}:${line} changed since it was read, so its whole line was not kept`, { path, line });
    }
    hash.update(bytes);
    // Whether this line compresses is judged by its first chunk: base64 images hardly do, at 6× the time.
    const packed = lines.addChunk(fileId, line, chunks, bytes, compress);
    if (chunks === 0) compress = packed;
    done += want;
  }
  const after = await handle.read(Buffer.alloc(1), 0, 1, offset + totalBytes);
  if (after.bytesRead === 1 && after.buffer[0] !== 0x0a && after.buffer[0] !== 0x0d) {
    lines.begin(fileId, line);
    throw new ArborError('IO', `${path}:${line} is longer than when it was read, so its whole line was not kept`, { path, line });
  }
  lines.finish(fileId, line, totalBytes, chunks, hash.digest('hex'));
}

async function readExactly(handle: FileHandle, buffer: Buffer, length: number, position: number, path: string): Promise<Buffer> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) throw new ArborError('IO', `${path} ended before its line at byte ${position} did, so the line was not kept whole`, { path });
    filled += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** The store's meta key: the long lines of transcripts imported before migration 034 were copied. */
const BACKFILL_DONE_KEY = 'long_lines_backfilled_at';

/**
 * Once per store: the long lines of transcripts imported before the store kept them whole are copied from those
 * transcripts that are still there (one already deleted has nothing left to copy). Returns how many were copied
 * and, per file that could not be read, a problem. `skip`: files this import already tried (reported once).
 */
export async function backfillLongLines(
  store: SessionStore,
  signal?: AbortSignal,
  options: { readonly now?: () => Date; readonly skip?: ReadonlySet<string> } = {},
): Promise<{ copied: number; problems: ImportProblem[] }> {
  const db = store.handles.write;
  if (readMeta(db, BACKFILL_DONE_KEY) !== null) return { copied: 0, problems: [] };
  const byFile = new Map<string, LongLineSighting[]>();
  longLinesOf(store.handles).forEachUncopied(HEAD_CHECK_BYTES, (line) => {
    if (options.skip?.has(line.path) === true) return;
    let sightings = byFile.get(line.path);
    if (sightings === undefined) byFile.set(line.path, (sightings = []));
    sightings.push(line);
  });
  let copied = 0;
  const problems: ImportProblem[] = [];
  for (const [path, sightings] of byFile) {
    try {
      copied += await keepLongLines(store, path, sightings, signal);
    } catch (error) {
      throwIfAborted(signal);
      if (isStoreError(error)) throw error;
      // The agent deleted it already: there is nothing left to copy.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      problems.push({ file: path, line: 0, reason: `could not keep its long lines whole: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  writeMeta(db, BACKFILL_DONE_KEY, (options.now?.() ?? new Date()).toISOString());
  return { copied, problems };
}
