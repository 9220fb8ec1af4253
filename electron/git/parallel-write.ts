/**
 * New files written on two threads, for a fork's folder: the main thread reads each chunk's blobs (cheap:
 * our packs are read synchronously) and either writes the chunk itself or hands it, bytes and all, to the
 * helper thread (helper-thread.ts) when the helper has less than BACKLOG chunks waiting, so the two share
 * the work by how fast each goes. Creating a file is what costs (a journaled inode and directory entry): on
 * 10k files of 2 KB, two threads took 0.65–0.75× of one here, as `tar -x` gets a second core from the
 * `git archive` feeding it.
 *
 * A chunk belongs to one thread from the start (a write is not idempotent, so unlike the stat pass nothing
 * is redone). Files are created exclusively (`wx`), into folders that already exist. The first failure on
 * either side stops both: the helper checks a shared stop word before every file, and `finish` waits for
 * every chunk handed out, so no write happens after it returns or throws.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import type { FileMode } from './git-object';
import { helperThread } from './helper-thread';

export interface NewFile {
  readonly path: string;
  readonly mode: FileMode;
  readonly bytes: Buffer;
}

/** Chunks the helper may have waiting before the main thread writes the next one itself. */
const BACKLOG = 2;
const KIND_FILE = 0;
const KIND_EXECUTABLE = 1;
const KIND_SYMLINK = 2;
/** Words of a pass's shared control buffer. */
const FILES_DONE = 0;
const CHUNKS_DONE = 1;
const STOP = 2;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { writeFileSync, symlinkSync } = require('node:fs');
parentPort.on('message', (job) => {
  const control = new Int32Array(job.control);
  const paths = job.paths.split('\\0');
  const bytes = Buffer.from(job.bytes);
  let error = null;
  let at = 0;
  for (let i = 0; i < paths.length; i++) {
    if (Atomics.load(control, ${STOP}) !== 0) break;
    const end = job.ends[i];
    const path = job.root + '/' + paths[i];
    try {
      if (job.kinds[i] === ${KIND_SYMLINK}) symlinkSync(bytes.subarray(at, end), path);
      else writeFileSync(path, bytes.subarray(at, end), { mode: job.kinds[i] === ${KIND_EXECUTABLE} ? 0o777 : 0o666, flag: 'wx' });
    } catch (e) {
      error = { path: paths[i], message: e && e.message ? e.message : String(e) };
      Atomics.store(control, ${STOP}, 1);
      break;
    }
    at = end;
    Atomics.add(control, ${FILES_DONE}, 1);
  }
  Atomics.add(control, ${CHUNKS_DONE}, 1);
  parentPort.postMessage({ id: job.id, error });
});
`;

const helper = helperThread(WORKER_SOURCE);

interface ChunkResult {
  readonly error: { readonly path: string; readonly message: string } | null;
}

/** Chunks handed to the helper, by id, across all passes (one message listener routes the answers). */
const waiting = new Map<number, (result: ChunkResult) => void>();
let nextChunkId = 0;
let listening = false;

function listen(worker: NonNullable<ReturnType<typeof helper.get>>): void {
  if (listening) return;
  listening = true;
  worker.on('message', (message: { id: number; error: ChunkResult['error'] }) => {
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    // Unref'd again once idle: a process never stays alive for the helper alone.
    if (waiting.size === 0) worker.unref();
    settle?.({ error: message.error });
  });
  // A helper that dies answers nothing more: every chunk it held fails.
  worker.once('exit', () => {
    listening = false;
    for (const settle of waiting.values()) settle({ error: { path: '', message: 'the helper thread stopped' } });
    waiting.clear();
  });
}

export class WriteFailure extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function writeOne(root: string, file: NewFile): void {
  const path = `${root}/${file.path}`;
  if (file.mode === '120000') symlinkSync(file.bytes, path);
  else writeFileSync(path, file.bytes, { mode: file.mode === '100755' ? 0o777 : 0o666, flag: 'wx' });
}

/** One folder's worth of new files: `write` chunk by chunk, then `finish`. */
export class WritePass {
  private readonly worker = helper.get();
  private readonly control = new Int32Array(new SharedArrayBuffer(12));
  private readonly handedOut: Promise<ChunkResult>[] = [];
  private chunksHanded = 0;
  private filesHere = 0;

  constructor(private readonly root: string) {
    if (this.worker) listen(this.worker);
  }

  /** True after a failure on either thread (or stop): the rest is not written, and `finish` says why. */
  get stopped(): boolean {
    return Atomics.load(this.control, STOP) !== 0;
  }

  /** Chunks handed to the helper so far (the rest were written on this thread). */
  get helperChunks(): number {
    return this.chunksHanded;
  }

  /** Files written so far by both threads. */
  get filesDone(): number {
    return this.filesHere + Atomics.load(this.control, FILES_DONE);
  }

  /** Writes `files` here or hands them to the helper. Throws WriteFailure for a file this thread could not write. */
  write(files: readonly NewFile[]): void {
    if (this.stopped) return;
    if (this.worker && this.chunksHanded - Atomics.load(this.control, CHUNKS_DONE) < BACKLOG) {
      try {
        this.handOut(this.worker, files);
        return;
      } catch {
        // Could not post (the helper just died): written here instead.
      }
    }
    for (const file of files) {
      try {
        writeOne(this.root, file);
      } catch (error) {
        Atomics.store(this.control, STOP, 1);
        throw new WriteFailure(file.path, error instanceof Error ? error.message : String(error));
      }
      this.filesHere++;
    }
  }

  private handOut(worker: NonNullable<ReturnType<typeof helper.get>>, files: readonly NewFile[]): void {
    let total = 0;
    for (const file of files) total += file.bytes.length;
    const bytes = new ArrayBuffer(total);
    const view = new Uint8Array(bytes);
    const ends = new Float64Array(files.length);
    const kinds = new Uint8Array(files.length);
    let at = 0;
    files.forEach((file, i) => {
      view.set(file.bytes, at);
      at += file.bytes.length;
      ends[i] = at;
      kinds[i] = file.mode === '120000' ? KIND_SYMLINK : file.mode === '100755' ? KIND_EXECUTABLE : KIND_FILE;
    });
    const id = nextChunkId++;
    // Held by the event loop while it has work: a CLI awaiting only these chunks must not exit first.
    if (waiting.size === 0) worker.ref();
    const result = new Promise<ChunkResult>((resolve) => waiting.set(id, resolve));
    try {
      worker.postMessage({ id, root: this.root, paths: files.map((f) => f.path).join('\0'), ends, kinds, bytes, control: this.control.buffer }, [bytes]);
    } catch (error) {
      waiting.delete(id);
      if (waiting.size === 0) worker.unref();
      throw error;
    }
    this.handedOut.push(result);
    this.chunksHanded++;
  }

  /** Waits for every chunk handed to the helper; throws WriteFailure for the first it could not write. */
  async finish(): Promise<void> {
    const results = await Promise.all(this.handedOut);
    const failed = results.find((result) => result.error !== null);
    if (failed?.error) throw new WriteFailure(failed.error.path, failed.error.message);
  }

  /** Stops the helper's remaining files of this pass and waits until it has let go of them. */
  async stop(): Promise<void> {
    Atomics.store(this.control, STOP, 1);
    await Promise.all(this.handedOut);
  }
}
