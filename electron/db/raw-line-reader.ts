/**
 * The one reader of stored raw lines: every query that hands out a node's or record's line selects `rawColumns`
 * and reads it here, whichever way the row was stored — its own bytes (codec 0 as read, 1 deflated: rows written
 * before migration 035, and a small append's) or a span of a block (raw-blocks.ts). Decoded blocks are kept in
 * a small cache, so a reader going through a session in file order (export, fork, indexing, the usage backfill)
 * decodes each block once; a block never changes once written and its id is never reused, so the cache needs no
 * invalidation.
 */
import { ArborError } from '../../shared/errors';
import type { Statement } from 'better-sqlite3';
import type { ReadableDB } from './database';
import { decodeBlock, RAW_IN_BLOCK } from './raw-blocks';
import { decodeRaw } from './raw-line';

/** The columns a stored line is read from, as `rawColumns` selects them. */
export interface StoredRawColumns {
  readonly raw: Buffer;
  readonly raw_codec: number;
  readonly raw_block: number | null;
  readonly raw_start: number | null;
  readonly raw_length: number | null;
}

/** `raw, raw_codec, raw_block, raw_start, raw_length` of the table aliased `alias`, for a SELECT list. */
export function rawColumns(alias: string): string {
  return ['raw', 'raw_codec', 'raw_block', 'raw_start', 'raw_length'].map((column) => `${alias}.${column}`).join(', ');
}

/**
 * Decoded blocks kept: a node's line and its tool result's (a few blocks apart), a session's nodes and records
 * read in one pass (two interleaved runs of blocks), with room to spare. 16 × 64 KiB is 1 MiB at most.
 */
const CACHED_BLOCKS = 16;

export interface RawLineReaderOptions {
  /**
   * Decoded blocks to keep (default CACHED_BLOCKS). 0 for a reader inside the import's write transaction: a block
   * it wrote is not committed yet, and a rollback would hand its id to other lines.
   */
  readonly cachedBlocks?: number;
}

export interface RawLineReader {
  /** The line's bytes exactly as they were read (cut at RAW_LIMIT), however the row stores them. */
  line(row: StoredRawColumns): Buffer;
}

export function prepareRawLineReader(db: ReadableDB, options: RawLineReaderOptions = {}): RawLineReader {
  const cachedBlocks = options.cachedBlocks ?? CACHED_BLOCKS;
  // Prepared at the first row in a block: a store before migration 035 has no raw_blocks table (a migration's reads).
  let block: Statement<[number], { codec: number; bytes: Buffer }> | null = null;
  // Map keeps insertion order: the first key is the least recently used.
  const cache = new Map<number, Buffer>();
  const decoded = (id: number): Buffer => {
    const hit = cache.get(id);
    if (hit !== undefined) {
      cache.delete(id);
      cache.set(id, hit);
      return hit;
    }
    block ??= db.prepare<[number], { codec: number; bytes: Buffer }>('SELECT codec, bytes FROM raw_blocks WHERE id = ?');
    const row = block.get(id);
    // A row pointing at a block that is not there is a damaged store: say so rather than hand back no line.
    if (row === undefined) throw new ArborError('CORRUPT', `The store lost the block of raw lines ${id}`, { block: id });
    const bytes = decodeBlock(row.bytes, row.codec);
    if (cachedBlocks === 0) return bytes;
    cache.set(id, bytes);
    if (cache.size > cachedBlocks) cache.delete(cache.keys().next().value as number);
    return bytes;
  };
  return {
    line(row) {
      if (row.raw_codec !== RAW_IN_BLOCK) return decodeRaw(row.raw, row.raw_codec);
      const start = row.raw_start ?? 0;
      const length = row.raw_length ?? 0;
      if (length === 0) return Buffer.alloc(0);
      return decoded(row.raw_block ?? 0).subarray(start, start + length);
    },
  };
}
