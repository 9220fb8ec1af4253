/**
 * The parse worker's entry (a worker_threads Worker; electron-vite bundles it as out/main/import-worker.js).
 * Reads and parses the files it is given, in order, and posts their lines in batches, one per read chunk:
 * raw lines stay in the line reader's buffers, which are transferred (not copied). Reading pauses while more
 * than MAX_IN_FLIGHT_BYTES are sent but not yet stored, so memory stays bounded however fast it parses.
 */
import { parentPort } from 'node:worker_threads';
import type { ImportProblem } from '../../../shared/model';
import { ArborError } from '../../../shared/errors';
import { keptRaw } from './kept-raw';
import { parseTranscript } from '../registry';
import type { ParsedNode, ParsedRecord, ParseResult, ParseSink } from '../transcript';
import { type FromWorker, type ItemKind, NODE_ITEM, type ParseJob, PROBLEM_ITEM, RECORD_ITEM, type ToWorker } from './worker-protocol';
import { runInBackground } from './background-priority';
import { BlockForecast } from '../../db/blocks-ahead';

/**
 * Read buffers sent but not yet stored, at most: a writer's batch (import-writer.ts, 24 MiB of lines) and a read
 * chunk beyond it, so the writer never waits for lines. 64 MiB held twice that for nothing (peak RSS, with
 * parse-worker.ts's WORKER_HEAP_LIMITS: 454–461 MB at 32 MiB, 464–498 MB at 64, same bytes written).
 */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

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
    const batch = new Batch(index, job.file.path, job.packing != null ? new BlockForecast(job.packing) : null);
    try {
      const end = await parseFile(job, batch);
      batch.end();
      await batch.send();
      post({
        type: 'end',
        job: index,
        endOffset: end.endOffset,
        endLine: end.endLine,
        ...(end.resumeState !== undefined ? { resumeState: end.resumeState } : {}),
        ...(end.resumeKeys !== undefined ? { resumeKeys: end.resumeKeys } : {}),
      });
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
    resumeState: job.resumeState,
    ...(job.resumeKeys === undefined ? {} : { resumeKey: keyLookup(job.resumeKeys) }),
    onBytes: (bytes: number) => batch.progress(bytes),
    // Every line parsed so far is complete and its buffer is never written again: send them.
    beforeRead: () => batch.send(),
  };
  return parseTranscript(job.file, batch, options);
}

function keyLookup(entries: readonly (readonly [string, string])[]): (key: string) => string | null {
  const values = new Map(entries);
  return (key) => values.get(key) ?? null;
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
    /** Packs and compresses the lines' blocks as the writer will store them (db/blocks-ahead.ts); null: it packs none. */
    private readonly forecast: BlockForecast | null,
  ) {}

  node(node: ParsedNode): void {
    this.kinds.push(NODE_ITEM);
    // The lines travel as read, beside the blocks compressed from them (the writer stores a line's span of its block).
    const raw = keptRaw(node.raw, this.buffers, { file: this.path, line: node.line, rawBytes: node.rawBytes });
    this.items.push(raw === node.raw ? node : { ...node, raw });
    this.forecast?.node(node);
  }

  record(record: ParsedRecord): void {
    this.kinds.push(RECORD_ITEM);
    const raw = keptRaw(record.raw, this.buffers, { file: this.path, line: record.line, rawBytes: record.rawBytes });
    this.items.push(raw === record.raw ? record : { ...record, raw });
    this.forecast?.record(record);
  }

  /** The file is read: its last blocks are sealed. */
  end(): void {
    this.forecast?.end();
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
    // The file's last blocks are sealed after its last lines were sent: they go on their own.
    const blocks = this.forecast?.take() ?? [];
    if (this.items.length > 0 || blocks.length > 0) {
      const transfer = [...this.buffers];
      for (const block of blocks) if (block.bytes.byteLength > 0) transfer.push(block.bytes.buffer as ArrayBuffer);
      const bytes = transfer.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      inFlight += bytes;
      post({ type: 'batch', job: this.job, kinds: this.kinds, items: this.items, blocks, bytesRead: this.bytesRead, bytes }, transfer);
      this.kinds = [];
      this.items = [];
      this.buffers = new Set();
    }
    while (inFlight > MAX_IN_FLIGHT_BYTES) {
      await new Promise<void>((go) => {
        resume = go;
      });
    }
  }
}
