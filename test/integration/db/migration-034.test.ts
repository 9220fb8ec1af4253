/**
 * Migration 034 adds the whole copies of long lines (issue 15, the archive) to a store made by the previous schema:
 * its rows stay as they were, a line its rows keep only the head of is listed as not copied yet (the next import
 * copies it from its transcript).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { longLinesOf, type UncopiedLongLine } from '../../../electron/db/long-lines';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-34-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const FILE = transcriptFile('/t/long.jsonl', { sessionHint: 'S1' });

it('migration 034 adds the long-line copies to a store made by the previous schema; its cut lines wait to be copied', () => {
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  // Lines as the schema before 035 stored them: each row its own bytes.
  const writer = current.beginFile(FILE, { compressRaw: false });
  const head = Buffer.from(`{"uuid":"r1","parentUuid":"u1","type":"user","message":{"content":"${'y'.repeat(200)}`);
  const [prompt, cut] = inOrder([parsedNode('u1', null, { kind: 'user' }), parsedNode('r1', 'u1', { raw: head, rawBytes: RAW_LIMIT + 10, offset: 80 })], 1);
  writer.node(prompt!);
  writer.node({ ...cut!, line: 2, offset: 80 });
  writer.finish({ endOffset: RAW_LIMIT + 200, endLine: 3 });
  current.linkChangedSessions();
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 34));
  expect(old.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'long_line%'").all()).toEqual([]);
  copyRows(old, currentPath, sharedColumns(old, currentPath, ['sessions', 'files', 'nodes', 'edges']));
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(migrated.getSessionNodes('S1').map((node) => node.id)).toEqual(['u1', 'r1']);
    const lines = longLinesOf(migrated.handles);
    expect(lines.read('/t/long.jsonl', 2)).toBeNull();
    const waiting: UncopiedLongLine[] = [];
    lines.forEachUncopied(64, (line) => waiting.push(line));
    expect(waiting).toEqual([{ path: '/t/long.jsonl', nodeId: 'r1', line: 2, offset: 80, totalBytes: RAW_LIMIT + 10, head: head.subarray(0, 64) }]);
  } finally {
    migrated.close();
  }
});
