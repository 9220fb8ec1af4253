/**
 * Migration 037 lets FTS5 hold a whole indexing chunk in memory (`hashsize`), so each chunk is one segment: a store
 * indexed by the previous schema keeps its rows, watermark and merge settings, and is not indexed again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../../electron/db/migrations';
import { FTS_AUTOMERGE, FTS_CRISISMERGE } from '../../../../electron/db/migrations/025-search-merge';
import { FTS_HASHSIZE } from '../../../../electron/db/migrations/037-search-chunk-memory';
import { facetTokens, searchRowid } from '../../../../electron/db/search-query';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-migrate-37-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const config = (db: Database.Database): Record<string, unknown> =>
  Object.fromEntries((db.prepare('SELECT k, v FROM node_text_config').all() as { k: string; v: unknown }[]).map((row) => [row.k, row.v]));

it('moves a store indexed by the previous schema to the larger in-memory bound without re-indexing it', () => {
  const path = join(dir, 'arbor.sqlite');
  const old = new Database(path) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 37));
  const insert = old.prepare('INSERT INTO node_text (rowid, text, facets, head, length) VALUES (?, ?, ?, ?, ?)');
  const facets = facetTokens({ kind: 'user', sessionId: 'S1', project: '/p', agentId: null, sidechain: false });
  old.transaction(() => {
    for (let seq = 1; seq <= 20; seq++) insert.run(searchRowid('2025-01-01T00:00:00Z', seq), `deploy parser ${seq}`, facets, `deploy parser ${seq}`, 16);
  })();
  old.prepare(`UPDATE meta SET value = 20 WHERE key = 'fts_indexed_upto'`).run();
  expect(config(old).hashsize).toBeUndefined();
  old.close();

  // Up to the schema before 043, which builds the index again (two-letter prefixes).
  const before043 = MIGRATIONS.filter((migration) => migration.version < 43);
  migrate(new Database(path) as WritableDB, before043);
  const db = new Database(path);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion(before043));
    expect(config(db)).toMatchObject({ hashsize: FTS_HASHSIZE, automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE });
    expect((db.prepare(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`).get() as { value: number }).value).toBe(20);
    expect((db.prepare(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH 'text : parser'`).get() as { n: number }).n).toBe(20);
  } finally {
    db.close();
  }
});
