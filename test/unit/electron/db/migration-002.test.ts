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

it('upgrades a version-1 store: its stored text and its raw-only nodes are indexed again and found', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-2-'));
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.slice(0, 1));
  old.exec(`
    INSERT INTO sessions (id, source, title) VALUES ('S1', 'claude-code', 'old');
    INSERT INTO files (path, format, role) VALUES ('/t/a.jsonl', 'claude-code', 'main');
    INSERT INTO nodes (id, session_id, file_id, line, offset, kind, label, sidechain, raw_bytes, raw, text)
      VALUES ('u1', 'S1', 1, 1, 0, 'user', 'x', 0, 2, X'7B7D', 'walrus migration text');
    INSERT INTO node_text (rowid, text) SELECT seq, text FROM nodes;
    UPDATE meta SET value = 1 WHERE key = 'fts_indexed_upto';
  `);
  old.prepare(
    `INSERT INTO nodes (id, session_id, file_id, line, offset, kind, label, sidechain, raw_bytes, raw, text)
     VALUES ('a1', 'S1', 1, 2, 10, 'assistant', 'y', 0, 1, ?, NULL)`,
  ).run(Buffer.from(JSON.stringify({ type: 'assistant', uuid: 'a1', message: { content: [{ type: 'text', text: 'narwhal reply' }] } })));
  old.close();

  const store = openSessionStore(path);
  try {
    expect(store.pendingIndexRows()).toBe(2);
    expect(store.search('walrus', 10)).toEqual([]);
    const derived: string[] = [];
    while (store.indexNextChunk(10, (raw) => (derived.push(raw.toString()), 'narwhal derived')) > 0);
    // Stored text is used as it is; only the node without text is derived from its raw line.
    expect(derived).toHaveLength(1);
    expect(store.search('walrus', 10).map((hit) => hit.nodeId)).toEqual(['u1']);
    expect(store.search('narwhal', 10).map((hit) => hit.nodeId)).toEqual(['a1']);
  } finally {
    store.close();
  }
});
