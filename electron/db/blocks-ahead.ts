/**
 * Raw-line blocks compressed ahead by the parse worker. The writer thread set the import's pace, and brotli was ~17%
 * of its time (issue 12) while the parse worker waited for it: the worker now packs each file's lines into blocks as
 * the writer will (same batches, import-batches.ts; same lanes and block size, raw-blocks.ts) and compresses them,
 * and the writer stores a block compressed ahead when it holds exactly the lines its own block holds (the same file
 * offsets, in order), else compresses its own. The bytes stored are the same either way: the same lines through
 * the same encoder. Lines it cannot forecast (a fork's copied lines, whose owner the writer decides; a node that
 * turns out to be stored already) only make the writer compress that block itself.
 */
import { BLOCK_BYTES, BLOCK_PLAIN, encodeBlock, NODE_LANE, RECORD_LANE, STATES_LANE, type BlockCodec, type BlockLane, type EncodedBlock } from './raw-blocks';
import { BATCH_LINES, batchBytesOf, batchIsFull } from './import-batches';

/** A block as the parse worker packed it: its lines' file offsets in order and the encoded bytes (none when plain). */
export interface BlockAhead {
  readonly lane: BlockLane;
  readonly offsets: Float64Array;
  readonly codec: BlockCodec;
  /** The compressed block; empty for BLOCK_PLAIN (the writer has the lines themselves). */
  readonly bytes: Uint8Array;
}

/** How the writer will batch a file (null: it stores lines as read and packs no blocks). */
export interface BlockPacking {
  readonly firstBatchLines: number;
}

/** What the forecast reads of a parsed line. */
interface ForecastLine {
  readonly raw: Uint8Array;
  readonly offset: number;
  readonly text?: string | null;
  readonly readForStates?: true;
  readonly forkedFrom?: unknown;
}

/** One lane's open block: its lines copied in (their read buffers are sent away with the batch before it is full). */
class LaneBlock {
  bytes = Buffer.allocUnsafe(2 * BLOCK_BYTES);
  length = 0;
  offsets: number[] = [];

  add(line: Uint8Array, offset: number): void {
    if (this.length + line.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.length + line.length));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.bytes.set(line, this.length);
    this.length += line.length;
    this.offsets.push(offset);
  }
}

/**
 * The parse worker's side: told each line as it is parsed, in file order, it seals and compresses the blocks the
 * writer will write (a lane's block at BLOCK_BYTES, every open block where the writer's batch ends, and at the end).
 */
export class BlockForecast {
  private readonly lanes = [new LaneBlock(), new LaneBlock(), new LaneBlock()] as const;
  private sealed: BlockAhead[] = [];
  private lines = 0;
  private bytes = 0;
  private lineLimit: number;

  constructor(packing: BlockPacking) {
    this.lineLimit = packing.firstBatchLines;
  }

  node(node: ForecastLine): void {
    // A fork's copied line goes to the block of the session it is copied from, which only the writer knows.
    if (node.forkedFrom === undefined) this.add(node.readForStates === true ? STATES_LANE : NODE_LANE, node.raw, node.offset);
    this.count(batchBytesOf(node));
  }

  record(record: ForecastLine): void {
    this.add(RECORD_LANE, record.raw, record.offset);
    this.count(batchBytesOf(record));
  }

  /** The file is read: what is open is sealed, as the writer's last batch is. */
  end(): void {
    for (const lane of [NODE_LANE, STATES_LANE, RECORD_LANE]) this.seal(lane);
  }

  /** The blocks sealed since the last call, in the order they were sealed. */
  take(): BlockAhead[] {
    const sealed = this.sealed;
    this.sealed = [];
    return sealed;
  }

  private add(lane: BlockLane, line: Uint8Array, offset: number): void {
    const block = this.lanes[lane];
    block.add(line, offset);
    if (block.length >= BLOCK_BYTES) this.seal(lane);
  }

  private count(bytes: number): void {
    this.lines++;
    this.bytes += bytes;
    if (!batchIsFull(this.lines, this.bytes, this.lineLimit)) return;
    this.end();
    this.lines = 0;
    this.bytes = 0;
    this.lineLimit = BATCH_LINES;
  }

  private seal(lane: BlockLane): void {
    const block = this.lanes[lane];
    if (block.offsets.length === 0) return;
    const encoded = encodeBlock(block.bytes.subarray(0, block.length));
    // A copy of its own size: the encoder's output may be a view into a larger buffer, which would travel whole.
    const bytes = encoded.codec === BLOCK_PLAIN ? new Uint8Array(0) : new Uint8Array(encoded.bytes);
    this.sealed.push({ lane, offsets: Float64Array.from(block.offsets), codec: encoded.codec, bytes });
    block.length = 0;
    block.offsets = [];
  }
}

/**
 * The writer's side: the blocks the worker sent for the file being stored, by lane, in file order. `take` hands over
 * the encoded block for exactly the lines the writer's block holds, or undefined (it compresses its own).
 */
export class BlocksAhead {
  private readonly lanes: BlockAhead[][] = [[], [], []];

  offer(blocks: readonly BlockAhead[]): void {
    for (const block of blocks) this.lanes[block.lane]?.push(block);
  }

  take(lane: BlockLane, offsets: readonly number[], lines: () => Buffer): EncodedBlock {
    const queue = this.lanes[lane] as BlockAhead[];
    const first = offsets[0] ?? -1;
    // Blocks forecast for lines this block went past were never the writer's (a line it did not store, say).
    while (queue.length > 0 && (queue[0] as BlockAhead).offsets[0]! < first) queue.shift();
    const ahead = queue[0];
    if (ahead !== undefined && sameOffsets(ahead.offsets, offsets)) {
      queue.shift();
      return ahead.codec === BLOCK_PLAIN ? { codec: BLOCK_PLAIN, bytes: lines() } : { codec: ahead.codec, bytes: Buffer.from(ahead.bytes.buffer, ahead.bytes.byteOffset, ahead.bytes.byteLength) };
    }
    return encodeBlock(lines());
  }

  /** The writer stored its batch up to the line at `offset`: blocks that end there or before can no longer be its. */
  dropThrough(offset: number): void {
    for (const queue of this.lanes) {
      while (queue.length > 0 && (queue[0] as BlockAhead).offsets.at(-1)! <= offset) queue.shift();
    }
  }
}

function sameOffsets(ahead: Float64Array, offsets: readonly number[]): boolean {
  if (ahead.length !== offsets.length) return false;
  for (let index = 0; index < offsets.length; index++) if (ahead[index] !== offsets[index]) return false;
  return true;
}
