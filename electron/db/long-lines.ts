/**
 * The whole bytes of transcript lines longer than RAW_LIMIT (migration 034, issue 15 "the archive"): the node
 * or record row keeps the line's head, these tables the line itself, in chunks, so a session whose transcript was
 * deleted still forks and exports its big tool results byte for byte.
 *
 * Why chunks in the store, not a blob in the snapshot object store: a 20 MB line took 53–90 ms as 1 MiB chunks
 * here (zlib level 1, text output compressing 6×) against 116–160 ms as one git blob (ObjectWriter, stored pack)
 * — and the object writer takes the body whole, where chunks are written as they are read, so a line over the
 * line reader's 64 MiB is kept in bounded memory too, and a deletion removes it with the session's rows.
 * Base64 images barely compress (21 → 15.8 MB for 6× the time: 476 ms), so a line whose first chunk saves less
 * than a quarter is stored as read.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import type { DatabaseHandles } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';
import { RAW_LIMIT } from '../importers/transcript';
import { ArborError } from '../../shared/errors';

/** Bytes per stored chunk: one read of the file, one row, one compression call. */
export const LONG_LINE_CHUNK_BYTES = 1024 * 1024;

export type LongLineCodec = 0 | 1;
export const LONG_LINE_PLAIN: LongLineCodec = 0;
/** zlib (RFC 1950) level 1: a chunk's stream on its own. */
export const LONG_LINE_ZLIB: LongLineCodec = 1;

/** A chunk kept compressed only when it shrinks to this share of its size or less. */
const WORTH_COMPRESSING = 0.75;

export interface LongLineHead {
  readonly fileId: number;
  /** What the store holds of the line now: its head row's full length, and whether the whole line is kept. */
  readonly rawBytes: number;
  readonly whole: boolean;
}

/** Where an oversize line was read: its node's id (null for a record), line number and byte offset. */
export interface LongLinePlace {
  readonly nodeId: string | null;
  readonly line: number;
  readonly offset: number;
}

export interface LongLines {
  /**
   * The row holding this line's head: the node (by id) or the record (by offset) first stored from this file at
   * this line; null when there is none (a node first stored from another file keeps its bytes there).
   */
  headOf(path: string, place: LongLinePlace): LongLineHead | null;
  /** Starts a line: drops any chunks a stopped copy left. */
  begin(fileId: number, line: number): void;
  /** Stores chunk `index`; `compress` false stores it as read. Returns whether it was stored compressed. */
  addChunk(fileId: number, line: number, index: number, bytes: Buffer, compress: boolean): boolean;
  /** Marks the line complete (after its last chunk). */
  finish(fileId: number, line: number, totalBytes: number, chunks: number, sha256: string): void;
  /** The whole line of `path`:`line`, or null when the store keeps only its head. */
  read(path: string, line: number): Buffer | null;
  /**
   * Every stored line cut at RAW_LIMIT that has no whole copy (a store imported before migration 034), with the
   * start of its stored head, file by file. Read on the reader, in one pass.
   */
  forEachUncopied(headBytes: number, onLine: (line: UncopiedLongLine) => void): void;
}

export interface UncopiedLongLine extends LongLinePlace {
  readonly path: string;
  readonly totalBytes: number;
  readonly head: Buffer;
}

const cache = new WeakMap<DatabaseHandles, LongLines>();

/** One set of prepared statements per store. The import's writes and lookups go through the writer; `read` through the reader. */
export function longLinesOf(handles: DatabaseHandles): LongLines {
  let lines = cache.get(handles);
  if (lines === undefined) cache.set(handles, (lines = createLongLines(handles)));
  return lines;
}

function createLongLines(handles: DatabaseHandles): LongLines {
  const { read } = handles;
  let writer: ReturnType<typeof prepareWriter> | undefined;
  const write = (): ReturnType<typeof prepareWriter> => (writer ??= prepareWriter(handles));
  const lineRow = read.prepare<[string, number], { file_id: number; total_bytes: number; chunks: number; sha256: string }>(
    'SELECT l.file_id, l.total_bytes, l.chunks, l.sha256 FROM long_lines l JOIN files f ON f.id = l.file_id WHERE f.path = ? AND l.line = ?',
  );
  const chunkRows = read.prepare<[number, number], { chunk: number; codec: number; data: Buffer }>(
    'SELECT chunk, codec, data FROM long_line_chunks WHERE file_id = ? AND line = ? ORDER BY chunk',
  );
  // One read transaction: a deletion between the two reads cannot leave half a line.
  const readLine = read.transaction((path: string, line: number) => {
    const row = lineRow.get(path, line);
    if (row === undefined) return null;
    return { row, chunks: chunkRows.all(row.file_id, line) };
  });

  const uncopied = read.prepare<[number, number], StoredRawColumns & { path: string; node_id: string | null; line: number; offset: number; raw_bytes: number }>(
        `SELECT f.path, h.node_id, h.line, h.offset, ${rawColumns('h')}, h.raw_bytes FROM (
           SELECT n.file_id, n.id AS node_id, n.line, n.offset, ${rawColumns('n')}, n.raw_bytes FROM nodes n WHERE n.raw_bytes > ?
           UNION ALL SELECT r.file_id, NULL, r.line, r.offset, ${rawColumns('r')}, r.raw_bytes FROM records r WHERE r.raw_bytes > ?
         ) h JOIN files f ON f.id = h.file_id
         WHERE NOT EXISTS (SELECT 1 FROM long_lines l WHERE l.file_id = h.file_id AND l.line = h.line)
         ORDER BY h.file_id, h.offset`,
  );

  const lines = prepareRawLineReader(read);

  return {
    headOf(path, place) {
      const statements = write();
      const file = statements.fileId.get(path);
      if (file === undefined) return null;
      const row = place.nodeId !== null ? statements.nodeHead.get(place.nodeId, file.id, place.line) : statements.recordHead.get(file.id, place.offset, place.line);
      if (row === undefined) return null;
      return { fileId: file.id, rawBytes: row.raw_bytes, whole: statements.stored.get(file.id, place.line)?.total_bytes === row.raw_bytes };
    },
    begin: (fileId, line) => write().begin(fileId, line),
    addChunk(fileId, line, index, bytes, compress) {
      const packed = compress ? deflateSync(bytes, { level: 1 }) : null;
      const keep = packed !== null && packed.length <= bytes.length * WORTH_COMPRESSING;
      write().insertChunk.run(fileId, line, index, keep ? LONG_LINE_ZLIB : LONG_LINE_PLAIN, keep ? packed : bytes);
      return keep;
    },
    finish(fileId, line, totalBytes, chunks, sha256) {
      write().insertLine.run(fileId, line, totalBytes, chunks, sha256);
    },
    read(path, line) {
      const found = readLine(path, line);
      if (found === null) return null;
      const { row } = found;
      const whole = Buffer.concat(found.chunks.map((chunk) => (chunk.codec === LONG_LINE_ZLIB ? inflateSync(chunk.data) : chunk.data)));
      if (found.chunks.length !== row.chunks || whole.length !== row.total_bytes || createHash('sha256').update(whole).digest('hex') !== row.sha256) {
        throw new ArborError('INTERNAL', `The stored copy of ${path}:${line} is damaged (${whole.length} of ${row.total_bytes} bytes)`, { path, line });
      }
      return whole;
    },
    forEachUncopied(headBytes, onLine) {
      for (const row of uncopied.iterate(RAW_LIMIT, RAW_LIMIT)) {
        const head = Buffer.from(lines.line(row).subarray(0, headBytes));
        onLine({ path: row.path, nodeId: row.node_id, line: row.line, offset: row.offset, totalBytes: row.raw_bytes, head });
      }
    },
  };
}

function prepareWriter(handles: DatabaseHandles) {
  const { write } = handles;
  const dropChunks = write.prepare<[number, number]>('DELETE FROM long_line_chunks WHERE file_id = ? AND line = ?');
  const dropLine = write.prepare<[number, number]>('DELETE FROM long_lines WHERE file_id = ? AND line = ?');
  return {
    fileId: write.prepare<[string], { id: number }>('SELECT id FROM files WHERE path = ?'),
    nodeHead: write.prepare<[string, number, number], { raw_bytes: number }>('SELECT raw_bytes FROM nodes WHERE id = ? AND file_id = ? AND line = ?'),
    recordHead: write.prepare<[number, number, number], { raw_bytes: number }>('SELECT raw_bytes FROM records WHERE file_id = ? AND offset = ? AND line = ?'),
    stored: write.prepare<[number, number], { total_bytes: number }>('SELECT total_bytes FROM long_lines WHERE file_id = ? AND line = ?'),
    insertChunk: write.prepare<[number, number, number, number, Buffer]>('INSERT OR REPLACE INTO long_line_chunks (file_id, line, chunk, codec, data) VALUES (?, ?, ?, ?, ?)'),
    insertLine: write.prepare<[number, number, number, number, string]>('INSERT OR REPLACE INTO long_lines (file_id, line, total_bytes, chunks, sha256) VALUES (?, ?, ?, ?, ?)'),
    begin: write.transaction((fileId: number, line: number) => {
      dropLine.run(fileId, line);
      dropChunks.run(fileId, line);
    }),
  };
}
