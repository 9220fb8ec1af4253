import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { createForkRecords, type ForkRecord } from '../../../../electron/db/fork-records';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { openSessionStore } from '../../../../electron/db/session-store';
import type { SnapshotRecord } from '../../../../electron/db/snapshot-records';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const branch = (id: string): SnapshotRecord => ({
  id,
  nodeId: `snapshot-${id}`,
  sessionId: 'S1',
  parentId: 'n1',
  dir: `/forks/${id}`,
  treeOid: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  commitOid: null,
  files: 3,
  createdAt: `2026-03-0${id.length}T00:00:00.000Z`,
  kind: 'fork',
});
const fork = (id: string, createdAt: string): ForkRecord => ({
  id,
  nodeId: 'n1',
  sessionId: 'S1',
  branchNodeId: `snapshot-${id}`,
  dir: `/forks/${id}`,
  dirCreated: id === 'f1',
  resumeSessionId: id === 'f1' ? '11111111-1111-4111-8111-111111111111' : null,
  transcript: id === 'f1' ? '/home/.claude/projects/-forks-f1/11111111-1111-4111-8111-111111111111.jsonl' : null,
  createdAt,
});

it('upgrades a version-6 store, then records forks with their branch node and removes both together', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-7-'));
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 7));
  expect(old.pragma('user_version', { simple: true })).toBe(6);
  old.close();

  const store = openSessionStore(path);
  try {
    const records = createForkRecords(store.handles);
    records.add(fork('f1', '2026-03-01T00:00:00.000Z'), branch('f1'));
    records.add(fork('f22', '2026-03-02T00:00:00.000Z'), branch('f22'));
    expect(records.get('f1')).toEqual(fork('f1', '2026-03-01T00:00:00.000Z'));
    expect(records.list().map((record) => record.id)).toEqual(['f22', 'f1']);
    expect(store.getSnapshotByNode('snapshot-f1')).toMatchObject({ kind: 'fork', parentId: 'n1' });

    // A fork whose branch row cannot be written is not recorded either (one transaction).
    expect(() => records.add(fork('f3', '2026-03-03T00:00:00.000Z'), branch('f1'))).toThrow();
    expect(records.get('f3')).toBeNull();

    expect(records.remove('f1')).toBe(true);
    expect(records.remove('f1')).toBe(false);
    expect(records.get('f1')).toBeNull();
    expect(store.getSnapshotByNode('snapshot-f1')).toBeNull();
    expect(store.getSnapshotByNode('snapshot-f22')).not.toBeNull();
  } finally {
    store.close();
  }
});
