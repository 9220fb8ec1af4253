/**
 * The store file's online backup (electron/db/store-backup.ts) in steps: a writer on another connection
 * between two steps makes SQLite start over, and after a few restarts the rest is copied in one step, so the
 * backup ends with every committed row however busy the writer; an abort between steps stops it with
 * CANCELLED; an export aborted while it copies leaves neither the archive nor its partial folder.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReadableDB } from '../../../electron/db/database';
import { backupStore } from '../../../electron/db/store-backup';
import { ArborError } from '../../../shared/errors';
import { openCliDemo } from '../cli/run-cli';
import { createArborService } from '../../../electron/service/arbor-service';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-store-backup-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A WAL store of a few hundred pages, and a second connection that writes to it. */
function storeWithWriter(name: string): { source: Database.Database; writer: Database.Database } {
  const path = join(root, `${name}.sqlite`);
  const source = new Database(path);
  source.pragma('journal_mode = WAL');
  source.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)');
  const insert = source.prepare('INSERT INTO rows (body) VALUES (?)');
  source.transaction(() => {
    for (let i = 0; i < 400; i++) insert.run(`row ${i} ${'x'.repeat(2000)}`);
  })();
  return { source, writer: new Database(path) };
}

const rowsIn = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

it('starts over when another connection writes between steps, then copies the rest in one step with every committed row', async () => {
  const { source, writer } = storeWithWriter('busy');
  let writes = 0;
  try {
    const outcome = await backupStore(source as unknown as ReadableDB, join(root, 'busy-copy.sqlite'), {
      pagesPerStep: 20,
      restartsBeforeOneStep: 2,
      // A writer that never stops between steps: only the one-step copy can finish.
      onProgress: () => {
        writer.prepare('INSERT INTO rows (body) VALUES (?)').run(`written during the backup ${++writes}`);
      },
    });
    expect(outcome.restarts).toBe(2);
    // Every row written before the last step; the last write comes with the final report, after the copy.
    expect(rowsIn(join(root, 'busy-copy.sqlite'))).toBe(400 + writes - 1);
  } finally {
    writer.close();
    source.close();
  }
});

it('stops between steps with CANCELLED when its signal aborts', async () => {
  const { source, writer } = storeWithWriter('aborted');
  writer.close();
  const controller = new AbortController();
  let steps = 0;
  try {
    const backup = backupStore(source as unknown as ReadableDB, join(root, 'aborted-copy.sqlite'), {
      pagesPerStep: 5,
      signal: controller.signal,
      onProgress: ({ done }) => {
        steps++;
        if (done >= 20) controller.abort();
      },
    });
    await expect(backup).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(steps).toBeLessThan(20);
  } finally {
    source.close();
  }
});

it('an export aborted while it copies the store leaves no archive and no partial folder', async () => {
  const demo = await openCliDemo('arbor-archive-abort-');
  const service = await createArborService({ dataDir: demo.dataDir, host: 'cli', version: 'test', homeDir: demo.home, env: {} });
  const dir = join(demo.root, 'archive');
  try {
    const controller = new AbortController();
    service.events.on('operation.progress', ({ operation }) => operation === 'archive-export' && controller.abort());
    const error = await service.api['archive.export']({ dir }, { signal: controller.signal }).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(ArborError);
    expect((error as ArborError).code).toBe('CANCELLED');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.partial`)).toBe(false);
  } finally {
    await service.close();
    demo.remove();
  }
}, 30_000);
