/**
 * While the background indexer is only part way through, a search answers from what is indexed so far and
 * says how far that is: a real import of generated transcripts, an indexer paused halfway.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { createFullTextIndexer } from '../../../electron/service/full-text-indexer';
import { importSessions } from '../../../electron/service/import-sessions';
import { createSearchMethod } from '../../../electron/service/search-method';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-partial-index-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

it('answers from the half already indexed, says so, and finds the rest once indexing resumes', async () => {
  const folder = join(root, 'projects', '-repo');
  mkdirSync(folder, { recursive: true });
  for (const [index, start] of ['2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z'].entries()) {
    const lines = [...syntheticSessionLines(300, { seed: 11 + index, cwd: '/repo', startTime: new Date(start) })];
    writeFileSync(join(folder, `s${index}.jsonl`), `${lines.join('\n')}\n`);
  }
  await importSessions(store, transcriptReader, [join(root, 'projects')], { jobId: 'test', signal: new AbortController().signal });
  const total = store.indexProgress().total;
  expect(total).toBeGreaterThan(400);

  let paused = false;
  const indexer = createFullTextIndexer(store, {
    chunkRows: 20,
    // Chunks grow by how fast the last went: on a quiet machine the second took every row left, past the pause.
    maxChunkRows: 20,
    paused: () => paused,
    onProgress: ({ done }) => {
      if (done >= total / 2) paused = true;
    },
  });
  indexer.kick();
  await indexer.idle();
  const search = createSearchMethod(store, () => false);
  // A two-letter prefix is counted exactly (a longer word's count stops at "at least" its candidates, search.ts).
  const partial = await search({ query: 'th' });
  expect(partial.indexing).toBe(true);
  expect(partial.index?.indexed).toBeGreaterThanOrEqual(total / 2);
  expect(partial.index?.indexed).toBeLessThan(total);
  expect(partial.hits.length).toBeGreaterThan(0);
  const partialTotal = partial.total;

  paused = false;
  indexer.kick();
  await indexer.idle();
  const complete = await search({ query: 'th' });
  expect(complete).toMatchObject({ indexing: false, index: { indexed: total, total } });
  expect(complete.total).toBeGreaterThan(partialTotal);
  await indexer.stop();
});
