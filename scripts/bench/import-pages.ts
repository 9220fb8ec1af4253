/**
 * Where an import's writes go: `tsx scripts/bench/import-pages.ts PROJECTS_DIR`.
 * Imports the folder into a fresh data folder and, while it runs, reads the frames the store appends to its WAL
 * (every frame is one page written) and attributes each page to the table or index that owns it (the dbstat
 * table of a read connection, refreshed as the store grows). Prints the pages written per b-tree, beside the
 * b-tree's own size at the end: a b-tree written many times its size is rewritten on every batch (random keys).
 * It samples between the import's batches, so a WAL restarted between two samples loses its frames: the shares
 * are what it measures, not the total (bench:import measures bytes written from /proc).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createArborService } from '../../electron/service/arbor-service';

const MiB = 1024 * 1024;

async function storePath(dataDir: string): Promise<string | null> {
  for (const entry of await readdir(dataDir, { recursive: true })) if (String(entry).endsWith('.sqlite')) return join(dataDir, String(entry));
  return null;
}

class WalFrames {
  private offset = 32;
  private salt = '';
  readonly pages = new Map<number, number>();
  frames = 0;

  read(wal: string): void {
    let size: number;
    try {
      size = statSync(wal).size;
    } catch {
      return;
    }
    if (size < 32) return;
    const fd = openSync(wal, 'r');
    try {
      const header = Buffer.alloc(32);
      readSync(fd, header, 0, 32, 0);
      const pageSize = header.readUInt32BE(8);
      const salt = header.toString('hex', 16, 24);
      if (salt !== this.salt || size < this.offset) {
        this.salt = salt;
        this.offset = 32;
      }
      const frame = Buffer.alloc(24);
      while (this.offset + 24 + pageSize <= size) {
        readSync(fd, frame, 0, 24, this.offset);
        // A frame of an earlier WAL generation (salts differ) was not written since the restart.
        if (frame.toString('hex', 8, 16) !== salt) break;
        const page = frame.readUInt32BE(0);
        this.pages.set(page, (this.pages.get(page) ?? 0) + 1);
        this.frames++;
        this.offset += 24 + pageSize;
      }
    } finally {
      closeSync(fd);
    }
  }
}

async function main(): Promise<void> {
  const projects = process.argv[2];
  if (projects === undefined) throw new Error('usage: import-pages.ts PROJECTS_DIR');
  const dataDir = await mkdtemp(join(tmpdir(), 'arbor-import-pages-'));
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
  const frames = new WalFrames();
  const owner = new Map<number, string>();
  let reader: Database.Database | null = null;
  let lastMap = 0;
  const sample = async (): Promise<void> => {
    const path = await storePath(dataDir);
    if (path === null) return;
    frames.read(`${path}-wal`);
    if (performance.now() - lastMap > 10_000) {
      reader ??= new Database(path, { readonly: true });
      for (const row of reader.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat').iterate()) owner.set(row.pageno, row.name);
      lastMap = performance.now();
    }
  };
  const timer = setInterval(() => void sample(), 200);
  const started = performance.now();
  const report = await service.api['import.run']({ paths: [projects] });
  clearInterval(timer);
  await sample();
  lastMap = 0;
  await sample();
  const seconds = (performance.now() - started) / 1000;
  const path = (await storePath(dataDir))!;
  const pageSize = (reader as Database.Database | null)?.pragma('page_size', { simple: true }) as number;
  const sizes = new Map<string, number>();
  for (const name of owner.values()) sizes.set(name, (sizes.get(name) ?? 0) + 1);
  const written = new Map<string, number>();
  for (const [page, count] of frames.pages) {
    const name = owner.get(page) ?? '(freed or unmapped)';
    written.set(name, (written.get(name) ?? 0) + count);
  }
  const input = report.sessions.reduce((sum, session) => sum + session.nodes, 0);
  console.log(`${input} nodes in ${seconds.toFixed(1)} s; store ${(statSync(path).size / MiB).toFixed(1)} MB; ${frames.frames} WAL frames seen (${((frames.frames * pageSize) / MiB).toFixed(0)} MB)`);
  console.log('b-tree: pages written (share), its size in pages, written / size');
  for (const [name, count] of [...written].sort((a, b) => b[1] - a[1])) {
    const size = sizes.get(name) ?? 0;
    console.log(`  ${name}: ${count} (${((100 * count) / frames.frames).toFixed(1)}%), ${size} pages, ${size > 0 ? (count / size).toFixed(1) : '-'}x`);
  }
  (reader as Database.Database | null)?.close();
  await service.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
