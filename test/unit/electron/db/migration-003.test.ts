import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { openSessionStore } from '../../../../electron/db/session-store';

/** The graph query as it was at version 3 (today's list queries need later columns). */
const GRAPH_AT_VERSION_3 = `SELECT n.seq, n.id, n.parent_source_id, n.parent_id, n.kind, n.timestamp, n.label, n.sidechain, n.agent_id, n.model
  FROM nodes n WHERE n.session_id = ? ORDER BY n.session_id, n.file_id, n.line`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('upgrades a version-2 store: at version 3 the graph is read from the covering index alone, and in transcript order after every migration', () => {
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
  migrate(old, MIGRATIONS.slice(0, 3));
  try {
    const plan = old
      .prepare(`EXPLAIN QUERY PLAN ${GRAPH_AT_VERSION_3}`)
      .all('S1')
      .map((row) => (row as { detail: string }).detail);
    // At version 3, no table rows (with their raw lines) read, and no sort step (migration 042 narrows it later).
    expect(plan).toEqual(['SEARCH n USING COVERING INDEX nodes_by_session_graph (session_id=?)']);
    expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'nodes_by_session'").get()).toBeUndefined();
  } finally {
    old.close();
  }

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
});
