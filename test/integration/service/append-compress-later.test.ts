/**
 * A small append stores its raw lines as read and leaves their compression to the background (issue 12: one
 * deflate stream per line was a fixed cost of every append): the compaction's range then covers the appended
 * rows only, and once it has run every appended line is compressed and reads back byte for byte.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { RAW_IN_BLOCK } from '../../../electron/db/raw-blocks';
import { RAW_DEFLATE_V1, RAW_PLAIN } from '../../../electron/db/raw-line';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { createFullTextIndexer } from '../../../electron/service/full-text-indexer';
import { COMPRESS_LATER_BELOW_BYTES, importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';

const APPENDED = 100;
let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-compress-later-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

const codecs = (): Map<number, number> => {
  const rows = store.handles.write.prepare<[], { codec: number; rows: number }>('SELECT raw_codec AS codec, count(*) AS rows FROM nodes GROUP BY raw_codec').all();
  return new Map(rows.map((row) => [row.codec, row.rows]));
};

it('an append stores its lines as read, and the background compaction compresses exactly those, readable as they were', async () => {
  const lines = [...syntheticSessionLines(1500, { seed: 41, sessionId: 'append' })];
  const folder = join(root, 'projects', '-home-dev-append');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'append.jsonl');
  const first = lines.slice(0, -APPENDED).map((line) => `${line}\n`).join('');
  expect(Buffer.byteLength(first)).toBeGreaterThan(COMPRESS_LATER_BELOW_BYTES);
  writeFileSync(file, first);
  await importSessions(store, transcriptReader, [join(root, 'projects')], { jobId: 'first' });
  const indexer = createFullTextIndexer(store);
  indexer.kick();
  await indexer.idle();
  // A big import compresses as it stores, in blocks (migration 035): nothing is left for the compaction.
  const compressedFirst = codecs().get(RAW_IN_BLOCK) ?? 0;
  expect(compressedFirst).toBeGreaterThan(1000);
  expect(store.pendingCompactionRows()).toBe(0);
  const plainBefore = codecs().get(RAW_PLAIN) ?? 0;

  const tail = lines.slice(-APPENDED);
  appendFileSync(file, tail.map((line) => `${line}\n`).join(''));
  const appended = await importSessions(store, transcriptReader, [join(root, 'projects')], { jobId: 'append' });
  const appendedNodes = appended.sessions.reduce((sum, session) => sum + session.nodes, 0);
  expect(appendedNodes).toBeGreaterThan(APPENDED / 2);
  expect((codecs().get(RAW_PLAIN) ?? 0) - plainBefore).toBe(appendedNodes);
  // The range covers the appended nodes and records, not the rows before them.
  expect(store.pendingCompactionRows()).toBeGreaterThanOrEqual(appendedNodes);
  expect(store.pendingCompactionRows()).toBeLessThanOrEqual(APPENDED);

  indexer.kick();
  await indexer.idle();
  expect(store.pendingCompactionRows()).toBe(0);
  expect(codecs().get(RAW_PLAIN) ?? 0).toBe(plainBefore);
  // The compaction compresses the appended lines one by one; the blocks stay as they were.
  expect(codecs().get(RAW_IN_BLOCK)).toBe(compressedFirst);
  expect(codecs().get(RAW_DEFLATE_V1)).toBe(appendedNodes);
  let checked = 0;
  for (const line of tail) {
    const id = (JSON.parse(line) as { uuid?: string }).uuid;
    const node = id === undefined ? null : store.getNode(id);
    if (node === null) continue;
    expect(node.raw.toString('utf8')).toBe(line);
    checked++;
  }
  expect(checked).toBeGreaterThan(APPENDED / 2);
  await indexer.stop();
});
