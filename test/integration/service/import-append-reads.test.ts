/**
 * Re-importing after lines were appended reads what it needs for the lines added, not the session: the store
 * pages SQLite reads from disk during the append (bytes this thread read, /proc/thread-self/io `rchar`, in
 * pages, with the connection's page cache emptied first, so every page a step touches is a read) are about the
 * same for a session of 400 lines and one of 12,000. Bytes, not read calls: libuv's eventfd wake-ups are read
 * calls on this thread too, 8 bytes each, and their number follows the machine's load (73 to 6,732 calls on
 * one unchanged append), where a page is 4 KiB. A step that read the whole session again (the linker, lineage,
 * titles, the incomplete tail) would read every page of its rows. Counted, not timed: the machine is shared.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { importSessions } from '../../../electron/service/import-sessions';

const APPENDED = 100;
const THREAD_IO = '/proc/thread-self/io';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-append-reads-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Bytes this thread read so far: SQLite reads on the calling thread, the transcript's in libuv's pool. */
function readBytes(): number {
  const match = /^rchar:\s*(\d+)/m.exec(readFileSync(THREAD_IO, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

/** Store pages read while importing the last APPENDED of the session's `lines`, with a cold page cache. */
async function pagesReadByAppend(name: string, lines: readonly string[]): Promise<{ reads: number; nodesBefore: number; pages: number }> {
  const projects = join(root, name, 'projects');
  const folder = join(projects, '-home-dev-projects-append');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.jsonl`);
  writeFileSync(file, lines.slice(0, -APPENDED).map((line) => `${line}\n`).join(''));
  const store = openSessionStore(join(root, name, 'arbor.sqlite'));
  try {
    await importSessions(store, transcriptReader, [projects], { jobId: 'first', workerFromBytes: Number.POSITIVE_INFINITY });
    const nodesBefore = store.listSessions({}).sessions.reduce((sum, session) => sum + session.nodeCount, 0);
    const db = store.handles.write;
    // Everything in the main file, and no page left in memory: each page the append touches is read.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('shrink_memory');
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    appendFileSync(file, lines.slice(-APPENDED).map((line) => `${line}\n`).join(''));
    const before = readBytes();
    const appended = await importSessions(store, transcriptReader, [projects], { jobId: 'append' });
    const reads = Math.ceil((readBytes() - before) / pageSize);
    expect(appended.sessions.reduce((sum, session) => sum + session.nodes, 0)).toBeGreaterThan(APPENDED / 2);
    return { reads, nodesBefore, pages };
  } finally {
    store.close();
  }
}

it.skipIf(!existsSync(THREAD_IO))('an append reads store pages for the lines it adds, not for the whole session', async () => {
  const all = [...syntheticSessionLines(12_000, { seed: 31 })];
  const small = await pagesReadByAppend('small', all.slice(0, 400));
  const big = await pagesReadByAppend('big', all);
  expect(big.nodesBefore).toBeGreaterThan(small.nodesBefore * 20);
  // The big store has far more pages than an append could need: reading them would show.
  expect(big.pages).toBeGreaterThan(small.reads * 4);
  expect(small.reads).toBeGreaterThan(0);
  // B-tree lookups go one or two levels deeper in the big store; a scan of its rows would read most of its pages.
  console.log(`append reads: small ${small.reads} (store ${small.pages} pages), big ${big.reads} (store ${big.pages} pages)`);
  expect(big.reads).toBeLessThan(small.reads * 2 + 20);
});
