/**
 * Migration 008 (the folders an operation may remove, with their bits): a store journaled at version 7 opens,
 * its operations read with no folders recorded, and new operations keep theirs.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { createOperationJournal } from '../../../electron/db/operation-journal';
import { openSessionStore } from '../../../electron/db/session-store';
import { tempDir } from './operation-fixture';

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir('operations-migration');
});
afterEach(() => temp.remove());

it('upgrades a version-7 store: old operations have no folders recorded, new ones keep theirs', () => {
  const path = join(temp.path, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 8));
  expect(old.pragma('user_version', { simple: true })).toBe(7);
  old
    .prepare(`INSERT INTO operations (id, kind, status, workspace, side_effects, created_dirs, created_at) VALUES ('op-old', 'rewind', 'applied', '/w', '[]', '["made"]', '2025-06-01T12:00:00.000Z')`)
    .run();
  old.close();

  const store = openSessionStore(path);
  try {
    expect(store.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    const journal = createOperationJournal(store.handles);
    expect(journal.get('op-old')).toMatchObject({ createdDirs: ['made'], foldersBefore: {} });
    journal.begin(
      { id: 'op-new', kind: 'rewind', workspace: '/w', nodeId: null, undoes: null, sideEffects: [], safetyCommit: null, createdDirs: [], foldersBefore: { 'docs/img': 0o700 }, createdAt: '2025-06-01T12:00:01.000Z' },
      [],
    );
    expect(journal.get('op-new')?.foldersBefore).toEqual({ 'docs/img': 0o700 });
  } finally {
    store.close();
  }
});
