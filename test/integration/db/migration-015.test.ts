/**
 * Migration 015 on a store made by the previous schema: the partial index for session records is added,
 * and custom-title / ai-title records stored before this version (their text not kept) get their text from
 * the stored line, so the next link run titles their sessions as the new importer does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { MIGRATIONS } from '../../../electron/db/migrations';
import { migration015SessionRecords } from '../../../electron/db/migrations/015-session-records';
import { openSessionStore } from '../../../electron/db/session-store';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { answer, titleBuilder } from '../service/generated-titles';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-15-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

it('migration 015: a store of the previous schema gets the session-records index, and its title records title their sessions', async () => {
  const sessionId = '15151515-0000-4000-8000-000000000001';
  const b = titleBuilder(sessionId, 15);
  b.userPrompt('Make the loader retry');
  answer(b, 'Done.');
  b.aiTitle('Loader retries');
  b.customTitle('My loader work');
  const projects = join(root, 'projects', '-work-app');
  mkdirSync(projects, { recursive: true });
  writeFileSync(join(projects, `${sessionId}.jsonl`), b.take().join('\n') + '\n');
  const path = join(root, 'arbor.sqlite');

  let store = openSessionStore(path);
  await importSessions(store, transcriptReader, [join(root, 'projects')], { jobId: 'm', workerFromBytes: Infinity });
  store.close();

  // What schema 011's importer left: title records without their text, the session titled by its prompt.
  const old = new Database(path);
  old.exec(`DROP INDEX records_of_sessions;
    UPDATE records SET summary = NULL WHERE type IN ('custom-title', 'ai-title');
    UPDATE sessions SET title = 'Make the loader retry', summary_title = NULL, summary_stale = 0, dirty = 0;`);
  // Later migrations already ran on this file: 015 alone runs again, as it would on the previous schema.
  migration015SessionRecords.up(old as unknown as WritableDB);
  old.close();

  store = openSessionStore(path);
  try {
    const db = store.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = 'records_of_sessions'").get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT type, summary FROM records WHERE type LIKE '%-title' ORDER BY line").all()).toEqual([
      { type: 'ai-title', summary: 'Loader retries' },
      { type: 'custom-title', summary: 'My loader work' },
    ]);
    store.linkChangedSessions();
    expect(store.getSession(sessionId)?.title).toBe('My loader work');
  } finally {
    store.close();
  }
});
