import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { openSessionStore } from '../../../../electron/db/session-store';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('upgrades a store indexed by the previous schema: the index is rebuilt from the stored nodes, newest first', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-10-'));
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 10));
  old.exec(`
    INSERT INTO sessions (id, source, title) VALUES ('S1', 'claude-code', 'old'), ('S2', 'claude-code', 'older');
    INSERT INTO files (path, format, role) VALUES ('/t/a.jsonl', 'claude-code', 'main'), ('/t/b.jsonl', 'claude-code', 'main');
    INSERT INTO nodes (id, session_id, file_id, line, offset, kind, timestamp, label, sidechain, raw_bytes, raw, text)
      VALUES ('a1', 'S1', 1, 1, 0, 'user', '2025-05-01T00:00:00Z', 'p', 0, 2, X'7B7D', 'deploy the parser'),
             ('b1', 'S2', 2, 1, 0, 'assistant', '2024-05-01T00:00:00Z', 'p', 0, 2, X'7B7D', 'deploy the parser');
    INSERT INTO node_text (rowid, text) SELECT seq, text FROM nodes;
    UPDATE meta SET value = 2 WHERE key = 'fts_indexed_upto';
  `);
  old.close();

  const store = openSessionStore(path);
  try {
    // The old rows are gone with the old table; the indexer starts again from the stored text.
    expect(store.indexProgress()).toEqual({ indexed: 0, total: 2 });
    expect(store.search('deploy', 10)).toEqual([]);
    while (store.indexNextChunk(10) > 0);
    expect(store.search('deploy', 10).map((hit) => hit.nodeId)).toEqual(['a1', 'b1']);
    expect(store.search('deploy', 10, 0, { kinds: ['assistant'] }).map((hit) => hit.nodeId)).toEqual(['b1']);
  } finally {
    store.close();
  }
  const db = new Database(path, { readonly: true });
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'node_text'").get() as { sql: string }).sql;
    expect(sql).toMatch(/facets/);
    expect(sql).toMatch(/prefix = '1 2'/); // migration 043
  } finally {
    db.close();
  }
});
