/**
 * lstat of many files on two threads, overlapped with the walk that finds them: as the walk names files,
 * every full chunk goes to one long-lived helper worker, which lstats it while the main thread keeps
 * walking; when the walk ends, the main thread takes the chunks the worker has not started, from the back.
 * An incremental capture is mostly this stat pass and the walk, so overlapping them is what keeps it ahead
 * of git (whose preloaded index stats on several threads too).
 *
 * Each chunk has its own small shared buffers: a state word (free → taken → done) that whichever thread
 * claims it first with compare-and-swap owns, and the chunk's numbers. The main thread never waits on the
 * worker (helper-thread.ts) for long: a chunk it has not finished in time is stat'ed again here, into the
 * result the caller gets (which the worker never writes), so a late worker cannot mix its numbers into it.
 */
import { lstatSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { helperThread } from './helper-thread';

/** Per file: size, mtimeMs, ino, mode (-1 when lstat failed). */
export const STAT_FIELDS = 4;
const CHUNK = 128;
const WAIT_MS = 200;
const FREE = 0;
const TAKEN = 1;
const DONE = 2;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
parentPort.on('message', (job) => {
  const state = new Int32Array(job.state);
  if (Atomics.compareExchange(state, 0, ${FREE}, ${TAKEN}) !== ${FREE}) return;
  const paths = job.paths.split('\\0');
  const out = new Float64Array(job.stats);
  for (let i = 0; i < paths.length; i++) {
    let s;
    try { s = lstatSync(job.root + '/' + paths[i], { throwIfNoEntry: false }); } catch { s = undefined; }
    const o = i * ${STAT_FIELDS};
    if (s === undefined) { out[o + 3] = -1; continue; }
    out[o] = s.size; out[o + 1] = s.mtimeMs; out[o + 2] = s.ino; out[o + 3] = s.mode;
  }
  Atomics.store(state, 0, ${DONE});
  Atomics.notify(state, 0);
});
`;

const helper = helperThread(WORKER_SOURCE);

function statInto(out: Float64Array, index: number, absolute: string): void {
  const o = index * STAT_FIELDS;
  let s;
  try {
    s = lstatSync(absolute, { throwIfNoEntry: false });
  } catch {
    s = undefined; // EACCES and the like: treated as gone, like a file deleted since the walk
  }
  if (s === undefined) {
    out[o + 3] = -1;
    return;
  }
  out[o] = s.size;
  out[o + 1] = s.mtimeMs;
  out[o + 2] = s.ino;
  out[o + 3] = s.mode;
}

interface PostedChunk {
  readonly first: number;
  readonly count: number;
  readonly state: Int32Array;
  readonly stats: Float64Array;
}

/** One stat pass: `add` each path as it is found, then `finish` for STAT_FIELDS numbers per path, in order. */
export class StatPass {
  private readonly paths: string[] = [];
  private readonly chunks: PostedChunk[] = [];
  private posted = 0;
  private readonly worker: Worker | undefined;

  constructor(private readonly root: string) {
    this.worker = helper.get();
  }

  get size(): number {
    return this.paths.length;
  }

  /** `${root}/${path}` will be stat'ed. */
  add(path: string): void {
    this.paths.push(path);
    if (this.worker && this.paths.length - this.posted >= CHUNK) this.post();
  }

  private post(): void {
    const first = this.posted;
    const count = this.paths.length - first;
    const stateBuffer = new SharedArrayBuffer(4);
    const statsBuffer = new SharedArrayBuffer(count * STAT_FIELDS * 8);
    const paths = this.paths.slice(first).join('\0');
    this.chunks.push({ first, count, state: new Int32Array(stateBuffer), stats: new Float64Array(statsBuffer) });
    this.posted = this.paths.length;
    try {
      this.worker!.postMessage({ root: this.root, paths, state: stateBuffer, stats: statsBuffer });
    } catch {
      // The chunk stays free, so finish() stats it here.
    }
  }

  /** lstat paths [from, to) on this thread, into `out`. */
  private statRange(out: Float64Array, from: number, to: number): void {
    for (let i = from; i < to; i++) statInto(out, i, `${this.root}/${this.paths[i]}`);
  }

  /** The numbers for every path added; `checkAbort` is called between chunks. */
  finish(checkAbort: () => void): Float64Array {
    const { paths } = this;
    const out = new Float64Array(paths.length * STAT_FIELDS);
    for (let i = this.posted; i < paths.length; i += 1024) {
      checkAbort();
      this.statRange(out, i, Math.min(i + 1024, paths.length));
    }
    // The worker works from the front, so take free chunks from the back.
    const theirs: PostedChunk[] = [];
    for (let c = this.chunks.length - 1; c >= 0; c--) {
      const chunk = this.chunks[c]!;
      if (Atomics.compareExchange(chunk.state, 0, FREE, TAKEN) !== FREE) {
        theirs.push(chunk);
        continue;
      }
      try {
        checkAbort();
      } catch (error) {
        // The worker skips chunks that are not free, so nothing is left running for a capture that stopped.
        for (const rest of this.chunks) Atomics.compareExchange(rest.state, 0, FREE, TAKEN);
        throw error;
      }
      this.statRange(out, chunk.first, chunk.first + chunk.count);
      Atomics.store(chunk.state, 0, DONE);
    }
    // At most one chunk is still in the worker's hands; wait briefly, then do whatever is left here.
    const deadline = Date.now() + WAIT_MS;
    for (const chunk of theirs) {
      let state = Atomics.load(chunk.state, 0);
      while (state !== DONE && !helper.broken) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        Atomics.wait(chunk.state, 0, state, Math.min(left, 5));
        state = Atomics.load(chunk.state, 0);
      }
      if (state === DONE) {
        out.set(chunk.stats, chunk.first * STAT_FIELDS);
      } else {
        this.statRange(out, chunk.first, chunk.first + chunk.count);
      }
    }
    return out;
  }
}

/** lstat `${root}/${path}` for every path (a whole list known up front); STAT_FIELDS numbers per path. */
export function statFiles(root: string, paths: readonly string[], checkAbort: () => void): Float64Array {
  const pass = new StatPass(root);
  for (const path of paths) pass.add(path);
  return pass.finish(checkAbort);
}
