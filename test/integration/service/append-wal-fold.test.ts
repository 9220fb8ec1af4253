/**
 * An append never folds the WAL, however large the indexer left it (issue 12): an append that arrived as the index
 * merge of a 1 GB transcript began found 254 MB of WAL past the fold bound and folded it as its write group
 * committed, 1.5 of its 1.7 s. The indexer folds between its steps; an import reading little leaves it to them.
 * The WAL file is made large by extending it (the bytes past its last frame are never read), so no 256 MB is written.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BULK_WAL_BYTES, foldLargeWal } from '../../../electron/db/database';
import { openSessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-append-wal-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

it('an append leaves a WAL past the fold bound to the indexer: no checkpoint runs in its import', async () => {
  const lines = [...syntheticSessionLines(500, { seed: 5 })];
  const projects = join(root, 'projects');
  const folder = join(projects, '-home-dev-projects-wal');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'session.jsonl');
  writeFileSync(file, lines.slice(0, -100).map((line) => `${line}\n`).join(''));
  const storePath = join(root, 'arbor.sqlite');
  const store = openSessionStore(storePath);
  try {
    await importSessions(store, transcriptReader, [projects], { jobId: 'first', workerFromBytes: Number.POSITIVE_INFINITY });
    const wal = `${storePath}-wal`;
    expect(existsSync(wal)).toBe(true);
    // As the indexer's merge leaves it: past the bound the import's commits fold at.
    truncateSync(wal, BULK_WAL_BYTES + 32 * 1024 * 1024);
    const db = store.handles.write;
    const checkpoints: string[] = [];
    const pragma = db.pragma.bind(db);
    db.pragma = ((source: string, options?: { simple?: boolean }) => {
      if (source.includes('wal_checkpoint')) checkpoints.push(source);
      return pragma(source, options);
    }) as typeof db.pragma;

    appendFileSync(file, lines.slice(-100).map((line) => `${line}\n`).join(''));
    const appended = await importSessions(store, transcriptReader, [projects], { jobId: 'append' });
    expect(appended.sessions.reduce((sum, session) => sum + session.nodes, 0)).toBeGreaterThan(50);
    expect(checkpoints).toEqual([]);
    expect(statSync(wal).size).toBeGreaterThanOrEqual(BULK_WAL_BYTES);
    // What the indexer does between its steps does fold it (so the check above could see one).
    expect(foldLargeWal(db)).toBe(true);
    expect(checkpoints.length).toBe(1);
    expect(statSync(wal).size).toBe(0);
    expect(store.listSessions({}).sessions.reduce((sum, session) => sum + session.nodeCount, 0)).toBeGreaterThan(400);
  } finally {
    store.close();
  }
});
