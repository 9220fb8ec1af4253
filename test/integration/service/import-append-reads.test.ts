/**
 * Re-importing after lines were appended reads what it needs for the lines added, not the session: the store
 * pages SQLite reads from disk during the append (bytes this thread read, /proc/thread-self/io `rchar`, in
 * pages, with the connection's page cache emptied first, so every page a step touches is a read) are about the
 * same for a session of 400 lines and one of 12,000. Bytes, not read calls: libuv's eventfd wake-ups are read
 * calls on this thread too, 8 bytes each, and their number follows the machine's load (73 to 6,732 calls on
 * one unchanged append), where a page is 4 KiB. A step that read the whole session again (the linker, lineage,
 * titles, the incomplete tail) would read every page of its rows. Counted, not timed: the machine is shared.
 * The same holds for a Codex rollout (whose parser state held every call id seen, read and written again by each
 * append), for an unchanged file imported again, and for the indexer's question of how much is left to index,
 * which an append waits behind (it counted every row not yet indexed: 8-16 ms after a 239 MB import).
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
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

interface AppendReads {
  /** Pages read by the import of the appended lines (none appended: of the unchanged file). */
  readonly reads: number;
  /** Pages read by asking how many stored rows wait for the full-text index (all of them: none is indexed). */
  readonly pendingReads: number;
  readonly nodesBefore: number;
  readonly pages: number;
  /** Bytes of the parser state kept with the file after the append, which the next append reads and writes again. */
  readonly stateBytes: number;
}

/** Empties the writer's page cache and the WAL: every page the next step touches is a read. */
function coldCache(store: ReturnType<typeof openSessionStore>): void {
  const db = store.handles.write;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('shrink_memory');
}

/** Store pages read (cold cache) while importing `appended` after `before` was imported, into `file` of `folder`. */
async function pagesReadByAppend(name: string, fileName: string, before: string, appended: string): Promise<AppendReads> {
  const projects = join(root, name, 'projects');
  const folder = join(projects, '-home-dev-projects-append');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, fileName);
  writeFileSync(file, before);
  const store = openSessionStore(join(root, name, 'arbor.sqlite'));
  try {
    await importSessions(store, transcriptReader, [projects], { jobId: 'first', workerFromBytes: Number.POSITIVE_INFINITY });
    const nodesBefore = store.listSessions({}).sessions.reduce((sum, session) => sum + session.nodeCount, 0);
    const db = store.handles.write;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db.pragma('page_count', { simple: true }) as number;
    coldCache(store);
    let started = readBytes();
    expect(store.pendingIndexRows()).toBeGreaterThan(0);
    const pendingReads = Math.ceil((readBytes() - started) / pageSize);
    coldCache(store);
    if (appended !== '') appendFileSync(file, appended);
    started = readBytes();
    const outcome = await importSessions(store, transcriptReader, [projects], { jobId: 'append' });
    const reads = Math.ceil((readBytes() - started) / pageSize);
    const added = outcome.sessions.reduce((sum, session) => sum + session.nodes, 0);
    if (appended === '') expect(added).toBe(0);
    else expect(added).toBeGreaterThan(10);
    const state = db.prepare<[], { bytes: number | null }>('SELECT max(length(parse_state)) AS bytes FROM files').get();
    return { reads, pendingReads, nodesBefore, pages, stateBytes: state?.bytes ?? 0 };
  } finally {
    store.close();
  }
}

const jsonl = (lines: readonly string[]): string => lines.map((line) => `${line}\n`).join('');

/** A Claude Code session of `lines`, its last APPENDED appended (or, `unchanged`, nothing). */
function claudeAppend(name: string, lines: readonly string[], unchanged = false): Promise<AppendReads> {
  return pagesReadByAppend(name, `${name}.jsonl`, jsonl(lines.slice(0, -APPENDED)), unchanged ? '' : jsonl(lines.slice(-APPENDED)));
}

const CODEX_ID = '019e0000-0000-7000-8000-0000000000d9';

/** A Codex rollout of `turns` turns (two calls each), then three more appended. */
function codexAppend(name: string, turns: number): Promise<AppendReads> {
  const builder = new RolloutBuilder({ id: CODEX_ID, cwd: '/work/app' });
  const turn = (at: number): string[] =>
    builder
      .user(`Turn ${at}: fix module ${at % 7}`)
      .command(`npm test -- module-${at % 7}`, { exitCode: at % 3 === 0 ? 1 : 0, output: `output of turn ${at}\n` })
      .patch(`src/module-${at % 7}.ts`, `old ${at}`, `new ${at}`, at % 4 !== 0)
      .agent(`Turn ${at} done.`)
      .complete()
      .drain();
  const before: string[] = [];
  for (let at = 0; at < turns; at++) before.push(...turn(at));
  const appended: string[] = [];
  for (let at = turns; at < turns + 3; at++) appended.push(...turn(at));
  return pagesReadByAppend(name, `rollout-2026-11-30T09-00-00-${CODEX_ID}.jsonl`, jsonl(before), jsonl(appended));
}

it.skipIf(!existsSync(THREAD_IO))('an append reads store pages for the lines it adds, not for the whole session', async () => {
  const all = [...syntheticSessionLines(12_000, { seed: 31 })];
  const small = await claudeAppend('small', all.slice(0, 400));
  const big = await claudeAppend('big', all);
  expect(big.nodesBefore).toBeGreaterThan(small.nodesBefore * 20);
  // The big store has far more pages than an append could need: reading them would show.
  expect(big.pages).toBeGreaterThan(small.reads * 4);
  expect(small.reads).toBeGreaterThan(0);
  // B-tree lookups go one or two levels deeper in the big store; a scan of its rows would read most of its pages.
  console.log(`append reads: small ${small.reads} (store ${small.pages} pages), big ${big.reads} (store ${big.pages} pages)`);
  expect(big.reads).toBeLessThan(small.reads * 2 + 20);
});

it.skipIf(!existsSync(THREAD_IO))('an unchanged file imported again, and the question of what waits for the index, read a few pages whatever the session\'s size', async () => {
  const all = [...syntheticSessionLines(12_000, { seed: 37 })];
  const small = await claudeAppend('small', all.slice(0, 400), true);
  const big = await claudeAppend('big', all, true);
  expect(big.nodesBefore).toBeGreaterThan(small.nodesBefore * 20);
  console.log(`unchanged: small ${small.reads}, big ${big.reads}; pending rows: small ${small.pendingReads}, big ${big.pendingReads} (store ${big.pages} pages)`);
  expect(big.reads).toBeLessThan(small.reads * 2 + 20);
  // Counting the 12k rows not yet indexed read the nodes table's leaves: hundreds of pages.
  expect(big.pendingReads).toBeLessThan(small.pendingReads * 2 + 10);
});

it.skipIf(!existsSync(THREAD_IO))('a Codex append reads store pages for the lines it adds, not for the calls the rollout made before', async () => {
  const small = await codexAppend('small', 20);
  const big = await codexAppend('big', 4000);
  expect(big.nodesBefore).toBeGreaterThan(small.nodesBefore * 50);
  expect(big.pages).toBeGreaterThan(small.reads * 4);
  console.log(`codex append reads: small ${small.reads} (store ${small.pages} pages), big ${big.reads} (store ${big.pages} pages)`);
  expect(big.reads).toBeLessThan(small.reads * 2 + 20);
  // The parser's state held every call id seen (8000 here, ~280 KB read and written back by each append): its
  // few pages hid among the append's own at this page size, so its size is checked apart.
  console.log(`codex parser state after the append: small ${small.stateBytes} bytes, big ${big.stateBytes} bytes`);
  expect(small.stateBytes).toBeGreaterThan(0);
  expect(big.stateBytes).toBeLessThan(small.stateBytes + 200);
});
