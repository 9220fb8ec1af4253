/**
 * The parse worker's entry (a worker_threads Worker; electron-vite bundles it as out/main/import-worker.js).
 * Reads and parses the files it is given, in order, and posts their lines in batches, one per read chunk:
 * raw lines stay in the line reader's buffers, which are transferred (not copied). Reading pauses while more
 * than MAX_IN_FLIGHT_BYTES are sent but not yet stored, so memory stays bounded however fast it parses.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportProblem } from '../../../shared/model';
import { ArborError } from '../../../shared/errors';
import { encodeRaw } from '../../db/raw-line';
import { keptRaw } from './kept-raw';
import { parseTranscript } from '../registry';
import type { ParsedNode, ParsedRecord, ParseResult, ParseSink, StoredRaw } from '../transcript';
import { type FromWorker, type ItemKind, NODE_ITEM, type ParseJob, type ParseWorkerData, PROBLEM_ITEM, RECORD_ITEM, type ToWorker } from './worker-protocol';
import { runInBackground } from './background-priority';

/**
 * Read buffers sent but not yet stored, at most: a writer's batch (import-writer.ts, 24 MiB of lines) and a read
 * chunk beyond it, so the writer never waits for lines. 64 MiB held twice that for nothing (peak RSS, with
 * parse-worker.ts's WORKER_HEAP_LIMITS: 454–461 MB at 32 MiB, 464–498 MB at 64, same bytes written).
 */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/**
 * Encoded lines are copied into arenas of this size, transferred with their batch: deflate hands back each line
 * in a buffer of its own, often a slice of a larger one, and transferring those would move far more than the line.
 */
const ARENA_BYTES = 1024 * 1024;
/**
 * Compressing raw lines is most of an import's work (deflate, ~50–80 MB/s a core), more than parsing and
 * writing together, so the two threads share it: while less than this is sent but not yet stored, the
 * writer is keeping up and takes the lines as read (it encodes them itself); past it the writer is the slower
 * side and the lines are encoded here. Either way the stored bytes are the same.
 */
const ENCODE_FROM_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
const encodeFrom = (workerData as ParseWorkerData | null)?.encodeFromInFlightBytes ?? ENCODE_FROM_IN_FLIGHT_BYTES;

if (parentPort === null) throw new Error('import-worker runs as a worker thread');
const port = parentPort;
// Below the thread that answers requests: a busy machine gives a click the core before a batch.
runInBackground();

let inFlight = 0;
let resume: (() => void) | null = null;

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'parse':
      void parseAll(message.jobs);
      break;
    case 'ack':
      inFlight -= message.bytes;
      if (resume !== null && inFlight <= MAX_IN_FLIGHT_BYTES) {
        const go = resume;
        resume = null;
        go();
      }
      break;
  }
});
post({ type: 'ready' });

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

async function parseAll(jobs: readonly ParseJob[]): Promise<void> {
  for (let index = 0; index < jobs.length; index++) {
    const job = jobs[index] as ParseJob;
    const batch = new Batch(index, job.file.path);
    try {
      const end = await parseFile(job, batch);
      await batch.send();
      post({ type: 'end', job: index, endOffset: end.endOffset, endLine: end.endLine });
    } catch (error) {
      await batch.send();
      post({ type: 'failed', job: index, message: error instanceof Error ? error.message : String(error), ...(error instanceof ArborError ? { code: error.code } : {}) });
    }
  }
}

function parseFile(job: ParseJob, batch: Batch): Promise<ParseResult> {
  const options = {
    startOffset: job.startOffset,
    startLine: job.startLine,
    onBytes: (bytes: number) => batch.progress(bytes),
    // Every line parsed so far is complete and its buffer is never written again: send them.
    beforeRead: () => batch.send(),
  };
  return parseTranscript(job.file, batch, options);
}

/** One file's lines since the last send, in order. */
class Batch implements ParseSink {
  private kinds: ItemKind[] = [];
  private items: (ParsedNode | ParsedRecord | ImportProblem)[] = [];
  private buffers = new Set<ArrayBuffer>();
  private bytesRead = 0;

  constructor(
    private readonly job: number,
    private readonly path: string,
  ) {}

  private arena: Buffer | null = null;
  private arenaUsed = 0;

  node(node: ParsedNode): void {
    this.kinds.push(NODE_ITEM);
    const raw = keptRaw(node.raw, this.buffers, { file: this.path, line: node.line, rawBytes: node.rawBytes });
    const storedRaw = this.encode(raw);
    this.items.push(storedRaw === undefined ? (raw === node.raw ? node : { ...node, raw }) : { ...node, raw, storedRaw });
  }

  record(record: ParsedRecord): void {
    this.kinds.push(RECORD_ITEM);
    const raw = keptRaw(record.raw, this.buffers, { file: this.path, line: record.line, rawBytes: record.rawBytes });
    const storedRaw = this.encode(raw);
    this.items.push(storedRaw === undefined ? (raw === record.raw ? record : { ...record, raw }) : { ...record, raw, storedRaw });
  }

  problem(problem: ImportProblem): void {
    this.kinds.push(PROBLEM_ITEM);
    this.items.push(problem);
  }

  progress(bytesRead: number): void {
    this.bytesRead = bytesRead;
  }

  /** Posts what was gathered, then waits while too much is in flight. */
  async send(): Promise<void> {
    if (this.items.length > 0) {
      const transfer = [...this.buffers];
      const bytes = transfer.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      inFlight += bytes;
      post({ type: 'batch', job: this.job, kinds: this.kinds, items: this.items, bytesRead: this.bytesRead, bytes }, transfer);
      this.kinds = [];
      this.items = [];
      this.buffers = new Set();
      this.arena = null;
    }
    while (inFlight > MAX_IN_FLIGHT_BYTES) {
      await new Promise<void>((go) => {
        resume = go;
      });
    }
  }

  /**
   * The line as the store keeps it, when this side encodes it (undefined: the writer will). A compressed line is
   * copied into the batch's arena; a line kept as read is the raw view itself.
   */
  private encode(raw: Buffer): StoredRaw | undefined {
    if (inFlight < encodeFrom) return undefined;
    const encoded = encodeRaw(raw);
    if (encoded.raw === raw) return encoded;
    const length = encoded.raw.length;
    if (this.arena === null || this.arenaUsed + length > this.arena.length) {
      this.arena = Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, length));
      this.arenaUsed = 0;
      this.buffers.add(this.arena.buffer as ArrayBuffer);
    }
    const start = this.arenaUsed;
    encoded.raw.copy(this.arena, start);
    this.arenaUsed += length;
    return { raw: this.arena.subarray(start, start + length), codec: encoded.codec };
  }

}
