/**
 * Migration 033 drops migration 023's trigger that deleted a node's counted reply with the node: the deletion's
 * one table list (session-delete-tables.ts) does it, and is what the schema test checks. A store made by the
 * previous schema loses the trigger and keeps its rows; deleting a session still takes its replies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { forgetSessions } from '../../../electron/db/session-delete';
import { openSessionStore } from '../../../electron/db/session-store';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-33-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const usage = { inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 0 };
const usageTriggers = (db: WritableDB): string[] =>
  db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%node_usage%'").all().map((row) => row.name);

it('migration 033 drops the trigger on nodes; the rows stay, and a deletion still takes a session\'s replies through the list', () => {
  const path = join(root, 'old.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 33));
  expect(usageTriggers(old)).toEqual(['node_usage_node_removed']);
  old.close();

  const store = openSessionStore(path);
  try {
    for (const session of ['S1', 'S2']) {
      const writer = store.beginFile(transcriptFile(`/t/${session}.jsonl`, { sessionHint: session }));
      for (const node of inOrder([parsedNode(`${session}-a`, null, { sessionSourceId: session, model: 'm', usage }), parsedNode(`${session}-b`, `${session}-a`, { sessionSourceId: session, model: 'm', usage })])) writer.node(node);
      writer.finish({ endOffset: 100, endLine: 2 });
    }
    store.linkChangedSessions();
    const db = store.handles.write;
    expect(usageTriggers(db)).toEqual([]);
    const replies = () => db.prepare<[], { session: string; n: number }>('SELECT n.session_id AS session, count(*) AS n FROM node_usage u JOIN nodes n ON n.seq = u.node_seq GROUP BY 1 ORDER BY 1').all();
    const before = replies();
    expect(before.map((row) => row.n)).toEqual([2, 2]);
    expect(forgetSessions(db, [before[0]!.session]).status).toBe('deleted');
    expect(replies()).toEqual([before[1]]);
    expect(db.prepare('SELECT count(*) AS n FROM node_usage').get()).toEqual({ n: 2 });
  } finally {
    store.close();
  }
});
