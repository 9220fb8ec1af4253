/**
 * Where the full-text indexing's written bytes go (issue 12): `tsx scripts/bench/index-writes.ts --transcript FILE
 * [--work DIR] [--tables] [--stepwise] [--checkpoint PAGES] [--fold-mb MB]`.
 * FILE is imported once into DIR's store, which is kept unindexed (later runs reuse it). Each run indexes a copy of
 * it in this thread as the write worker does (a 100-row first chunk, then chunks of 50k rows ended by the store's text
 * cap, then the merge: many steps per transaction, as the worker's sliced merge commits them, or with --stepwise
 * one step per transaction as before), and after each step counts the WAL frames it appended (read from the WAL's frame
 * headers) and the process's write_bytes (/proc/self/io: the WAL and the checkpoints' copies into the store file).
 * With --tables, each frame's page is named by dbstat (FTS5's tables, meta; "other" for the rest and free pages):
 * it walks the index's b-trees after every step, so it is slow on big stores. --checkpoint sets wal_autocheckpoint
 * (default 256, as after an import; 0: none, the WAL folded back past --fold-mb (default 256) MB between steps, as the indexer does). Prints the figures per phase and the
 * slowest steps, beside the input's size, with the load average. --search times a few searches (CPU ms, p50/max) before
 * and after the merge: what searches cost while the index is unmerged.
 */
import { closeSync, copyFileSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_WAL_BYTES, foldLargeWal } from '../../electron/db/database';
import { openSessionStore, type SessionStore } from '../../electron/db/session-store';
import { deriveSearchText } from '../../electron/importers/search-text';
import { importSessions } from '../../electron/service/import-sessions';
import { transcriptReader } from '../../electron/service/transcript-reader';
import { argValue } from './bench-args';

const MiB = 1024 * 1024;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');
const writtenBytes = (): number => Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);

/** Frames of the WAL's current generation from frame `from` on, by page number. */
class WalReader {
  private salt = -1;
  private frames = 0;
  constructor(private readonly path: string) {}

  /** The pages of the frames appended since the last call (a restarted WAL counts from its first frame). */
  newPages(): number[] {
    if (!existsSync(this.path)) return [];
    const fd = openSync(this.path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < 32) return [];
      const header = Buffer.alloc(32);
      readSync(fd, header, 0, 32, 0);
      const pageSize = header.readUInt32BE(8);
      const salt = header.readUInt32BE(16);
      if (salt !== this.salt) {
        this.salt = salt;
        this.frames = 0;
      }
      const pages: number[] = [];
      const frame = Buffer.alloc(24);
      for (;;) {
        const offset = 32 + this.frames * (24 + pageSize);
        if (offset + 24 + pageSize > size) break;
        readSync(fd, frame, 0, 24, offset);
        if (frame.readUInt32BE(8) !== salt) break;
        pages.push(frame.readUInt32BE(0));
        this.frames++;
      }
      return pages;
    } finally {
      closeSync(fd);
    }
  }
}

interface Phase {
  steps: number;
  ms: number;
  frames: number;
  written: number;
  byTable: Map<string, number>;
  slowest: number[];
}
const newPhase = (): Phase => ({ steps: 0, ms: 0, frames: 0, written: 0, byTable: new Map(), slowest: [] });

/** Search-as-you-type over the index as it stands: CPU ms per top-50 page (p50/max of 15), per query. */
function searchTimes(store: SessionStore): () => string {
  const inputs = ['s', 'co', 'fil', 'the', 'error', 'src/components', '"the file"'];
  return () =>
    inputs
      .map((input) => {
        const times: number[] = [];
        for (let run = 0; run < 15; run++) {
          const cpu = process.cpuUsage();
          store.searchPage(input, { limit: 50, offset: 0, cap: 1000 });
          const used = process.cpuUsage(cpu);
          times.push((used.user + used.system) / 1000);
        }
        times.sort((a, b) => a - b);
        return `${input} ${times[7]!.toFixed(1)}/${times[14]!.toFixed(1)}`;
      })
      .join(', ');
}

async function main(): Promise<void> {
  const transcript = argValue('--transcript');
  if (transcript === undefined) throw new Error('--transcript FILE is needed');
  const work = argValue('--work') ?? join(tmpdir(), `arbor-index-writes-${process.pid}`);
  const tables = process.argv.includes('--tables');
  const unindexed = join(work, 'unindexed.sqlite');
  const input = statSync(transcript).size;
  if (!existsSync(unindexed)) {
    const folder = join(work, 'projects', '-home-dev-projects-big');
    mkdirSync(folder, { recursive: true });
    const copy = join(folder, 'session.jsonl');
    if (!existsSync(copy)) {
      try {
        linkSync(transcript, copy);
      } catch {
        copyFileSync(transcript, copy);
      }
    }
    const started = performance.now();
    const store = openSessionStore(join(work, 'import.sqlite'));
    await importSessions(store, transcriptReader, [join(work, 'projects')], { jobId: 'import' });
    store.close(); // folds the WAL back: one file
    copyFileSync(join(work, 'import.sqlite'), unindexed);
    rmSync(join(work, 'import.sqlite'));
    console.log(`imported ${(input / MiB).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s; load ${load()}`);
  }
  const storeFile = join(work, `run-${process.pid}.sqlite`);
  copyFileSync(unindexed, storeFile);
  const store = openSessionStore(storeFile, { mappedReads: false });
  const db = store.handles.write;
  const wal = new WalReader(`${storeFile}-wal`);
  const checkpoint = Number(argValue('--checkpoint') ?? 256);
  db.pragma(`wal_autocheckpoint = ${checkpoint}`);
  const foldBytes = Number(argValue('--fold-mb') ?? BULK_WAL_BYTES / MiB) * MiB;
  const pageNames = (): Map<number, string> => {
    const names = new Map<number, string>();
    const rows = db.prepare<[], { name: string; pageno: number }>(`SELECT name, pageno FROM dbstat WHERE name LIKE 'node_text%' OR name IN ('meta', 'sqlite_schema')`).all();
    for (const row of rows) names.set(row.pageno, row.name);
    return names;
  };
  const phases = { chunks: newPhase(), merge: newPhase() };
  const measure = (phase: Phase, step: () => number): number => {
    const written = writtenBytes();
    const started = performance.now();
    const result = step();
    const ms = performance.now() - started;
    const pages = wal.newPages();
    if (checkpoint === 0) foldLargeWal(db, foldBytes);
    phase.steps++;
    phase.ms += ms;
    phase.frames += pages.length;
    phase.written += writtenBytes() - written;
    phase.slowest.push(ms);
    if (tables) {
      const names = pageNames();
      for (const page of pages) {
        const name = names.get(page) ?? 'other';
        phase.byTable.set(name, (phase.byTable.get(name) ?? 0) + 1);
      }
    }
    return result;
  };
  console.log(`indexing ${(input / MiB).toFixed(1)} MB, ${store.pendingIndexRows()} rows; load ${load()}`);
  const allWritten = writtenBytes();
  const started = performance.now();
  let rows = 100;
  while (measure(phases.chunks, () => store.indexNextChunk(rows, deriveSearchText)) > 0) rows = 50_000;
  const queries = process.argv.includes('--search') ? searchTimes(store) : null;
  if (queries !== null) console.log(`search before the merge: ${queries()}; load ${load()}`);
  const stepwise = process.argv.includes('--stepwise');
  while (measure(phases.merge, () => (stepwise ? store.mergeIndexStep() : (store.startIndexMerge().advance(Infinity) ?? 0))) > 0);
  // The WAL left at the end is folded back by the indexer as its run ends: its copy is indexing's too.
  if (checkpoint === 0) measure(phases.merge, () => (db.pragma('wal_checkpoint(PASSIVE)'), 0));
  const seconds = (performance.now() - started) / 1000;
  if (queries !== null) console.log(`search after the merge: ${queries()}; load ${load()}`);
  const total = writtenBytes() - allWritten;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  for (const [name, phase] of Object.entries(phases)) {
    const sorted = [...phase.slowest].sort((a, b) => b - a);
    console.log(
      `${name}: ${phase.steps} steps, ${(phase.ms / 1000).toFixed(1)} s (slowest ${sorted.slice(0, 3).map((ms) => ms.toFixed(0)).join('/')} ms, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} ms); ` +
        `WAL frames ${phase.frames} = ${((phase.frames * pageSize) / MiB).toFixed(1)} MB = ${((phase.frames * pageSize) / input).toFixed(2)}x input; ` +
        `written ${(phase.written / MiB).toFixed(1)} MB = ${(phase.written / input).toFixed(2)}x`,
    );
    if (tables) console.log(`  frames by table: ${[...phase.byTable].sort((a, b) => b[1] - a[1]).map(([table, frames]) => `${table} ${frames}`).join(', ')}`);
  }
  const fts = db.prepare<[], { bytes: number; blocks: number }>(`SELECT sum(length(block)) AS bytes, count(*) AS blocks FROM node_text_data`).get();
  console.log(
    `total: ${seconds.toFixed(1)} s, written ${(total / MiB).toFixed(1)} MB = ${(total / input).toFixed(2)}x input; FTS data ${((fts?.bytes ?? 0) / MiB).toFixed(1)} MB in ${fts?.blocks} blocks; ` +
      `peak RSS ${(Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024).toFixed(0)} MB; load ${load()}`,
  );
  store.close();
  rmSync(storeFile, { force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
