/**
 * Migration 027 adds the archive's `file_history_copies` (issue 15) to a store made by the previous schema: its
 * sessions and files stay as they were, nothing is copied for them (their backups are copied at their next import
 * that names new ones), and copies recorded afterwards are found by their backup's folder and name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { createFileHistoryCopies } from '../../../electron/db/file-history-copies';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-27-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const FILE = transcriptFile('/t/a.jsonl', { sessionHint: 'S1' });

it('migration 027 adds the file-history copies to a store made by the previous schema, leaving its rows as they were', () => {
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  const writer = current.beginFile(FILE);
  for (const node of inOrder([parsedNode('u1', null, { kind: 'user' }), parsedNode('a1', 'u1')], 1)) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 3 });
  current.linkChangedSessions();
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 27));
  expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'file_history_copies'").all()).toEqual([]);
  copyRows(old, currentPath, sharedColumns(old, currentPath, ['sessions', 'files', 'nodes', 'edges']));
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(migrated.getSessionNodes('S1').map((node) => node.id)).toEqual(['u1', 'a1']);
    const copies = createFileHistoryCopies(migrated.handles);
    expect(copies.any()).toBe(false);
    const fileId = copies.fileIdOf('/t/a.jsonl')!;
    expect(fileId).toBeGreaterThan(0);
    copies.add(fileId, [{ backupSession: 'S1', backupName: 'abc@v1', blobOid: 'a'.repeat(40), size: 3 }]);
    expect(copies.find('S1', 'abc@v1')).toEqual({ blobOid: 'a'.repeat(40), size: 3 });
    expect(copies.has(fileId, 'S1', 'abc@v1')).toBe(true);
    expect(copies.ofBackupSession('S1')).toEqual([{ backupName: 'abc@v1', blobOid: 'a'.repeat(40) }]);
  } finally {
    migrated.close();
  }
});
