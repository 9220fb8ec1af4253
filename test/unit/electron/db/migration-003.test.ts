import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { prepareSessionQueries } from '../../../../electron/db/session-queries';
import { openSessionStore } from '../../../../electron/db/session-store';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('upgrades a version-2 store: the graph is read from the covering index alone, in transcript order', () => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-3-'));
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.slice(0, 2));
  old.exec(`
    INSERT INTO sessions (id, source, title) VALUES ('S1', 'claude-code', 'old');
    INSERT INTO files (path, format, role) VALUES ('/t/a.jsonl', 'claude-code', 'main'), ('/t/b.jsonl', 'claude-code', 'main');
    INSERT INTO nodes (id, session_id, file_id, line, offset, parent_id, parent_source_id, kind, label, sidechain, raw_bytes, raw)
      VALUES ('b1', 'S1', 2, 1, 0, 'a2', 'a2', 'user', 'second file', 0, 2, X'7B7D'),
             ('a2', 'S1', 1, 2, 9, 'a1', 'a1', 'assistant', 'answer', 0, 2, X'7B7D'),
             ('a1', 'S1', 1, 1, 0, NULL, NULL, 'user', 'prompt', 0, 2, X'7B7D');
  `);
  old.close();

  const store = openSessionStore(path);
  try {
    expect(store.getSessionNodes('S1').map((node) => [node.id, node.parentId, node.label])).toEqual([
      ['a1', null, 'prompt'],
      ['a2', 'a1', 'answer'],
      ['b1', 'a2', 'second file'],
    ]);
  } finally {
    store.close();
  }
  const db = new Database(path, { readonly: true });
  try {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${prepareSessionQueries(db as never).nodes.source}`)
      .all('S1')
      .map((row) => (row as { detail: string }).detail);
    // No table rows (with their raw lines) read, and no sort step.
    expect(plan).toEqual(['SEARCH n USING COVERING INDEX nodes_by_session_graph (session_id=?)']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'nodes_by_session'").get()).toBeUndefined();
  } finally {
    db.close();
  }
});
