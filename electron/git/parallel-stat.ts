/**
 * lstat of many files on two threads: the main thread and one long-lived helper worker claim chunks of the
 * list from a shared counter and write size/mtime/inode/mode into shared memory, so an incremental capture's
 * stat pass (most of its time) takes about half as long on a multi-core machine, as git's preloaded index
 * does. The worker is plain JavaScript evaluated from a string (no separate bundle entry), unref'd so it
 * never keeps a process alive, and the main thread never awaits it: chunks it has not finished in time are
 * simply done again on the main thread.
 */
import { lstatSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Per file: size, mtimeMs, ino, mode (-1 when lstat failed). */
export const STAT_FIELDS = 4;
const CHUNK = 128;
/** Below this, a second thread's hand-off costs more than it saves. */
const MIN_PARALLEL = 2048;
const WAIT_MS = 200;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
parentPort.on('message', (job) => {
  const paths = job.paths.split('\\0');
  const control = new Int32Array(job.control);
  const done = new Int32Array(job.done);
  const out = new Float64Array(job.stats);
  const chunks = done.length;
  for (;;) {
    const chunk = Atomics.add(control, 0, 1);
    if (chunk >= chunks) break;
    const end = Math.min((chunk + 1) * ${CHUNK}, paths.length);
    for (let i = chunk * ${CHUNK}; i < end; i++) {
      let s;
      try { s = lstatSync(job.root + '/' + paths[i], { throwIfNoEntry: false }); } catch { s = undefined; }
      const o = i * ${STAT_FIELDS};
      if (s === undefined) { out[o + 3] = -1; continue; }
      out[o] = s.size; out[o + 1] = s.mtimeMs; out[o + 2] = s.ino; out[o + 3] = s.mode;
    }
    Atomics.store(done, chunk, 1);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
});
`;

let helper: Worker | undefined;
let helperBroken = false;

function getHelper(): Worker | undefined {
  if (helperBroken) return undefined;
  if (!helper) {
    try {
      helper = new Worker(WORKER_SOURCE, { eval: true });
      helper.unref();
      const drop = () => {
        helperBroken = true;
        helper = undefined;
      };
      helper.on('error', drop);
      helper.on('exit', drop);
    } catch {
      helperBroken = true;
      return undefined;
    }
  }
  return helper;
}

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

/**
 * lstat `${root}/${path}` for every path; returns STAT_FIELDS numbers per path. `checkAbort` is called between
 * chunks on the main thread.
 */
export function statFiles(root: string, paths: readonly string[], checkAbort: () => void): Float64Array {
  const n = paths.length;
  const worker = n >= MIN_PARALLEL && availableParallelism() > 1 ? getHelper() : undefined;
  if (!worker) {
    const out = new Float64Array(n * STAT_FIELDS);
    for (let i = 0; i < n; i++) {
      if (i % 1024 === 0) checkAbort();
      statInto(out, i, `${root}/${paths[i]}`);
    }
    return out;
  }
  const chunks = Math.ceil(n / CHUNK);
  const statsBuffer = new SharedArrayBuffer(n * STAT_FIELDS * 8);
  const controlBuffer = new SharedArrayBuffer(8);
  const doneBuffer = new SharedArrayBuffer(chunks * 4);
  const out = new Float64Array(statsBuffer);
  const control = new Int32Array(controlBuffer);
  const done = new Int32Array(doneBuffer);
  worker.postMessage({ root, paths: paths.join('\0'), control: controlBuffer, done: doneBuffer, stats: statsBuffer });
  for (;;) {
    const chunk = Atomics.add(control, 0, 1);
    if (chunk >= chunks) break;
    try {
      checkAbort();
    } catch (error) {
      Atomics.store(control, 0, chunks); // the worker stops claiming too
      throw error;
    }
    const end = Math.min((chunk + 1) * CHUNK, n);
    for (let i = chunk * CHUNK; i < end; i++) statInto(out, i, `${root}/${paths[i]}`);
    Atomics.store(done, chunk, 1);
    Atomics.add(control, 1, 1);
  }
  // At most one chunk per worker is still in flight; wait briefly, then do whatever is left here.
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const completed = Atomics.load(control, 1);
    if (completed >= chunks || helperBroken || Date.now() >= deadline) break;
    Atomics.wait(control, 1, completed, 5);
  }
  if (Atomics.load(control, 1) < chunks) {
    for (let chunk = 0; chunk < chunks; chunk++) {
      if (Atomics.load(done, chunk) === 1) continue;
      const end = Math.min((chunk + 1) * CHUNK, n);
      for (let i = chunk * CHUNK; i < end; i++) statInto(out, i, `${root}/${paths[i]}`);
    }
  }
  return out;
}
