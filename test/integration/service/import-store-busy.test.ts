/**
 * Regression (issue 13): a store another process kept busy made `arbor import` report the file as "could not
 * read: database is locked" and exit 0 with the file not imported. A store failure fails the import, with a code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { storeErrorOf } from '../../../electron/db/database';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { importSessions } from '../../../electron/service/import-sessions';
import { prompt, writeTranscript } from './claude-lines';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-import-busy-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

/** What better-sqlite3 throws when busy_timeout runs out. */
function sqliteBusy(): Error {
  return Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' });
}

it('a busy store fails the import instead of reporting the file as unreadable and going on', async () => {
  writeTranscript(join(root, 'p', 'S1.jsonl'), [prompt('u1', null, 'one', 'S1')]);
  const busyStore: SessionStore = {
    ...store,
    beginFile(file) {
      const writer = store.beginFile(file);
      return {
        node: () => {
          throw sqliteBusy();
        },
        record: (record) => writer.record(record),
        blocksAhead: (blocks) => writer.blocksAhead(blocks),
        finish: (end) => writer.finish(end),
      };
    },
  };
  const failed = importSessions(busyStore, transcriptReader, [join(root, 'p')], { jobId: 'j' });
  await expect(failed).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
  expect(storeErrorOf(await failed.catch((error: unknown) => error))).toMatchObject({ code: 'STORE_BUSY' });
  expect(store.fileState(join(root, 'p', 'S1.jsonl'))?.size ?? 0).toBe(0);
});

it('names SQLite sharing failures with codes and leaves other errors alone', () => {
  expect(storeErrorOf(sqliteBusy())?.code).toBe('STORE_BUSY');
  expect(storeErrorOf(Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }))?.code).toBe('READ_ONLY');
  expect(storeErrorOf(new Error('EACCES'))).toBeNull();
});
