/**
 * Where an import's written bytes go (issue 12): `tsx scripts/bench/import-writes.ts --transcript FILE [--work DIR]`.
 * Imports FILE into a fresh store in this thread (as the write worker does, without the indexing) and, before each
 * WAL fold and at the end, reads the frames the WAL gained since the last look (from its frame headers); at the end
 * dbstat names each frame's page (its table or index; "free/other" for pages no b-tree holds any more). Prints the
 * frames per table beside the process's write_bytes (/proc/self/io: the WAL and the folds' copies into the store
 * file), the folds, and each table's size, as ratios to the input, with the load average.
 */
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionStore } from '../../electron/db/session-store';
import { importSessions } from '../../electron/service/import-sessions';
import { transcriptReader } from '../../electron/service/transcript-reader';
import { argValue } from './bench-args';

const MiB = 1024 * 1024;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');
const writtenBytes = (): number => Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);

/** Counts the WAL's frames by page, generation after generation (a restarted WAL is read from its first frame). */
function walPages(path: string): { read(): void; pages: Map<number, number>; frames(): number } {
  let salt = -1;
  let frames = 0;
  let total = 0;
  const pages = new Map<number, number>();
  return {
    pages,
    frames: () => total,
    read() {
      if (!existsSync(path)) return;
      const fd = openSync(path, 'r');
      try {
        const size = fstatSync(fd).size;
        if (size < 32) return;
        const header = Buffer.alloc(32);
        readSync(fd, header, 0, 32, 0);
        const pageSize = header.readUInt32BE(8);
        const walSalt = header.readUInt32BE(16);
        if (walSalt !== salt) {
          salt = walSalt;
          frames = 0;
        }
        const frame = Buffer.alloc(24);
        for (;;) {
          const offset = 32 + frames * (24 + pageSize);
          if (offset + 24 + pageSize > size) break;
          readSync(fd, frame, 0, 24, offset);
          if (frame.readUInt32BE(8) !== walSalt) break;
          const page = frame.readUInt32BE(0);
          pages.set(page, (pages.get(page) ?? 0) + 1);
          frames++;
          total++;
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

async function main(): Promise<void> {
  const transcript = argValue('--transcript');
  if (transcript === undefined) throw new Error('--transcript FILE is needed');
  const work = argValue('--work') ?? join(tmpdir(), `arbor-import-writes-${process.pid}`);
  const input = statSync(transcript).size;
  const folder = join(work, 'projects', '-home-dev-projects-big');
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, 'session.jsonl');
  if (!existsSync(copy)) linkSync(transcript, copy);
  const storeFile = join(work, 'store.sqlite');
  rmSync(storeFile, { force: true });
  rmSync(`${storeFile}-wal`, { force: true });
  const store = openSessionStore(storeFile, { mappedReads: false });
  const db = store.handles.write;
  const wal = walPages(`${storeFile}-wal`);
  let folds = 0;
  // Every fold goes through pragma('wal_checkpoint(...)'): the frames are counted before the WAL restarts.
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, options?: { simple?: boolean }) => {
    if (source.startsWith('wal_checkpoint')) {
      wal.read();
      folds++;
    }
    return pragma(source, options);
  }) as typeof db.pragma;
  const before = writtenBytes();
  const started = performance.now();
  const cpu = process.cpuUsage();
  await importSessions(store, transcriptReader, [join(work, 'projects')], { jobId: 'import' });
  wal.read();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const written = writtenBytes() - before;
  const pageSize = pragma('page_size', { simple: true }) as number;
  const names = new Map<number, string>();
  const sizes = new Map<string, number>();
  for (const row of db.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat').all()) {
    names.set(row.pageno, row.name);
    sizes.set(row.name, (sizes.get(row.name) ?? 0) + 1);
  }
  const byName = new Map<string, { frames: number; pages: number }>();
  for (const [page, frames] of wal.pages) {
    const name = names.get(page) ?? 'free/other';
    const entry = byName.get(name) ?? { frames: 0, pages: 0 };
    entry.frames += frames;
    entry.pages++;
    byName.set(name, entry);
  }
  const x = (pages: number): string => `${((pages * pageSize) / input).toFixed(3)}x`;
  console.log(
    `import ${(input / MiB).toFixed(1)} MB in ${seconds.toFixed(1)} s = ${(input / MiB / seconds).toFixed(1)} MB/s, ${((used.user + used.system) / 1e6).toFixed(1)} cpu-s; ` +
      `written ${(written / MiB).toFixed(1)} MB = ${(written / input).toFixed(2)}x input; WAL frames ${wal.frames()} = ${x(wal.frames())}; folds ${folds}; ` +
      `store ${((statSync(storeFile).size) / input).toFixed(2)}x; load ${load()}`,
  );
  for (const [name, entry] of [...byName].sort((a, b) => b[1].frames - a[1].frames).slice(0, 14)) {
    console.log(`  ${name}: frames ${x(entry.frames)} over ${entry.pages} pages (${(entry.frames / entry.pages).toFixed(1)} each); size ${x(sizes.get(name) ?? 0)}`);
  }
  store.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
