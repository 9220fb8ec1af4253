/**
 * Raw lines stored in blocks (migration 035): the lines an import stores from one file, in file order, are packed
 * into blocks of about BLOCK_BYTES and each block is compressed once, so the import pays one compression call per
 * ~64 KiB instead of one per line (per-line deflate, raw-line.ts, cost about 30 cpu-ms a MB, most of it setting
 * up each line's stream and dictionary). A node or record row points at its bytes: `raw_block`, `raw_start`,
 * `raw_length` (offsets into the decoded block), with `raw_codec` RAW_IN_BLOCK and an empty `raw`. Rows stored
 * before 035 keep their own bytes (codecs 0 and 1) and stay readable; raw-line-reader.ts reads both.
 *
 * A block holds lines of one file and one owner: the session its node lines belong to, or none for the file's
 * records. A deletion takes a block with its file, or with its session (a fork's file keeps the parent's copied
 * lines when the fork is deleted), so a deleted session's bytes never stay in a block that survives it.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { ArborError } from '../../shared/errors';
import type { WritableDB } from './database';
import type { BlocksAhead } from './blocks-ahead';

/** `raw_codec` of a row whose bytes are in a block. */
export const RAW_IN_BLOCK = 2;

export type BlockCodec = 0 | 1;
/** The block's lines as read (compressing gained nothing). */
export const BLOCK_PLAIN: BlockCodec = 0;
/** Brotli, any quality (the decoder needs none). */
export const BLOCK_BROTLI: BlockCodec = 1;

/**
 * A block is sealed once it holds this much. Measured on the corpus's lines (53 MB, one thread): brotli quality 0
 * on 64 KiB blocks compressed at 237 MB/s to 4.57× against per-line deflate's 33 MB/s at 2.45×; a larger block
 * gains little ratio and makes reading one node (the inspector) decode more.
 */
export const BLOCK_BYTES = 64 * 1024;

/**
 * Quality 0 is brotli's fastest: ~4 cpu-ms a MB, against JSON.parse's ~7 for the same lines; quality 1 gained 5%
 * size for ~25% more time.
 */
const BROTLI_QUALITY = 0;

/**
 * Which of a batch's open blocks of a file a line goes to: its session's node lines, those read for states, or the
 * file's records (a fork's copied lines go to their own session's block, in the first lane but under another owner).
 */
export type BlockLane = 0 | 1 | 2;
export const NODE_LANE: BlockLane = 0;
export const STATES_LANE: BlockLane = 1;
export const RECORD_LANE: BlockLane = 2;

export interface EncodedBlock {
  readonly codec: BlockCodec;
  readonly bytes: Buffer;
}

export function encodeBlock(lines: Buffer): EncodedBlock {
  // The size hint lets the encoder size its window and tables to the block rather than to a stream of any length.
  const packed = brotliCompressSync(lines, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: lines.length } });
  return packed.length < lines.length ? { codec: BLOCK_BROTLI, bytes: packed } : { codec: BLOCK_PLAIN, bytes: lines };
}

export function decodeBlock(bytes: Buffer, codec: number): Buffer {
  switch (codec) {
    case BLOCK_PLAIN:
      return bytes;
    case BLOCK_BROTLI:
      return brotliDecompressSync(bytes);
    default:
      // A store written by a newer Arbor: say so rather than hand back bytes that are not the lines.
      throw new ArborError('UNSUPPORTED', `This store holds raw lines in a block format this Arbor cannot read (codec ${codec})`, { codec });
  }
}

export function prepareBlockWrites(db: WritableDB) {
  return {
    // Ids never come back after a deletion (AUTOINCREMENT): a reader's cache of decoded blocks stays true.
    lastId: db.prepare<[], { id: number }>(
      `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'raw_blocks'), 0), coalesce((SELECT max(id) FROM raw_blocks), 0)) AS id`,
    ),
    insert: db.prepare<[number, number, string | null, number, Buffer]>('INSERT INTO raw_blocks (id, file_id, session_id, codec, bytes) VALUES (?, ?, ?, ?, ?)'),
  };
}
export type BlockWrites = ReturnType<typeof prepareBlockWrites>;

/** Where a row's line is: its block and its span in the decoded block. */
export interface BlockPlace {
  readonly block: number;
  readonly start: number;
  readonly length: number;
}

class OpenBlock {
  readonly lines: Buffer[] = [];
  /** Each line's offset in its file: how the writer knows a block compressed ahead holds these lines (blocks-ahead.ts). */
  readonly offsets: number[] = [];
  bytes = 0;
  constructor(
    readonly id: number,
    readonly owner: string | null,
    readonly lane: BlockLane,
  ) {}
}

/**
 * Packs one batch's lines into blocks, inside the batch's transaction. `placeOf` says where a line would go, the
 * row is inserted pointing there, and only a row that was inserted `add`s its line (a copy of a stored node, or a
 * record read again, stores nothing); `seal` writes the blocks still open at the end of the batch.
 */
export class BlockPacker {
  /**
   * Each owner's open block, and apart, its open block of lines read to rebuild file states (ParsedNode.readForStates):
   * `sessions.states` then decodes those blocks alone, not every block of the session. Two maps keyed by the owner
   * itself, not one keyed by a lane name built per line: that was a string concatenation and a hash of it per line.
   */
  private readonly open = new Map<string | null, OpenBlock>();
  private readonly openApart = new Map<string | null, OpenBlock>();
  private nextId: number;

  constructor(
    private readonly writes: BlockWrites,
    private readonly fileId: number,
    /** Blocks the parse worker compressed ahead (null: every block is compressed here). */
    private readonly ahead: BlocksAhead | null = null,
  ) {
    this.nextId = (writes.lastId.get()?.id ?? 0) + 1;
  }

  /** Where `line` goes in `owner`'s open block (a session for node lines, null for the file's records). */
  placeOf(owner: string | null, line: Buffer, apart = false): BlockPlace {
    const open = apart ? this.openApart : this.open;
    let block = open.get(owner);
    if (block === undefined) {
      block = new OpenBlock(this.nextId++, owner, apart ? STATES_LANE : owner === null ? RECORD_LANE : NODE_LANE);
      open.set(owner, block);
    }
    return { block: block.id, start: block.bytes, length: line.length };
  }

  /** Stores `line`, at `offset` in its file, where `placeOf` said (called right after it, for the same owner and lane). */
  add(owner: string | null, line: Buffer, offset: number, apart = false): void {
    const open = apart ? this.openApart : this.open;
    const block = open.get(owner)!;
    block.lines.push(line);
    block.offsets.push(offset);
    block.bytes += line.length;
    if (block.bytes >= BLOCK_BYTES) {
      this.write(block);
      open.delete(owner);
    }
  }

  /**
   * The line at `place` when its block is still open (not written yet: a node stored earlier in this batch whose
   * uuid repeats), else undefined.
   */
  openLine(place: BlockPlace): Buffer | undefined {
    for (const open of [this.open, this.openApart]) {
      for (const block of open.values()) {
        if (block.id !== place.block) continue;
        return Buffer.concat(block.lines, block.bytes).subarray(place.start, place.start + place.length);
      }
    }
    return undefined;
  }

  /** Writes every open block; the packer is done. */
  seal(): void {
    for (const open of [this.open, this.openApart]) {
      for (const block of open.values()) if (block.lines.length > 0) this.write(block);
      open.clear();
    }
  }

  private write(block: OpenBlock): void {
    const lines = (): Buffer => (block.lines.length === 1 ? (block.lines[0] as Buffer) : Buffer.concat(block.lines, block.bytes));
    const encoded = this.ahead !== null ? this.ahead.take(block.lane, block.offsets, lines) : encodeBlock(lines());
    this.writes.insert.run(block.id, this.fileId, block.owner, encoded.codec, encoded.bytes);
  }
}
