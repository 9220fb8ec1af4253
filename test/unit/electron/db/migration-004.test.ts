import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { openSessionStore, type SnapshotRecord } from '../../../../electron/db/session-store';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('upgrades a version-3 store with a snapshots table that records and finds snapshots by node and session', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-4-'));
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.slice(0, 3));
  old.exec(`
    INSERT INTO sessions (id, source, title, project, updated_at) VALUES
      ('S1', 'claude-code', 'older', '/w', '2026-01-01T00:00:00Z'),
      ('S2', 'claude-code', 'newer', '/w', '2026-02-01T00:00:00Z');
  `);
  old.close();

  const store = openSessionStore(path);
  try {
    expect(store.sessionOfProject('/w')).toBe('S2');
    expect(store.sessionOfProject('/elsewhere')).toBeNull();
    const record = (id: string): SnapshotRecord => ({
      id,
      nodeId: `snapshot-${id}`,
      sessionId: 'S2',
      parentId: null,
      dir: '/w',
      treeOid: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      commitOid: null,
      files: 0,
      createdAt: '2026-03-01T00:00:00.000Z',
      // Migration 005's columns, with their defaults for a manual snapshot.
      kind: 'manual',
      toolUseId: null,
      secondParentId: null,
    });
    expect(store.snapshotVersions().size).toBe(0);
    // Same time stamp: the order they were taken in still holds.
    store.recordSnapshot(record('b'));
    const afterOne = store.snapshotVersions().get('S2');
    store.recordSnapshot(record('a'));
    // The session's snapshot version moves with every snapshot; sessions without any are not listed.
    expect(afterOne).toBeDefined();
    expect(store.snapshotVersions().get('S2')).not.toBe(afterOne);
    expect(store.snapshotVersions().has('S1')).toBe(false);
    expect(store.getSnapshotByNode('snapshot-a')).toEqual(record('a'));
    expect(store.getSnapshotByNode('a')).toBeNull();
    expect(store.getSessionSnapshots('S2').map((snapshot) => snapshot.id)).toEqual(['b', 'a']);
  } finally {
    store.close();
  }
});
