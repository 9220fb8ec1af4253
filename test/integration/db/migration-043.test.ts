/**
 * Migration 043 builds the full-text index again with prefixes of one and two letters, not three: a store indexed
 * by the previous schema drops its index at once (nothing is read), the indexer fills the new one from the rows
 * the store holds (the test's store has no transcript on disk), and then every search answers as on a store
 * indexed by the new schema from the start, first keystrokes and longer words alike, from a smaller index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ReadableDB, WritableDB } from '../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { indexNextChunk, prepareIndexStatements } from '../../../electron/db/search';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-43-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage'];
const WORDS = ['deploy', 'parser', 'depot', 'session', 'sessionizer', 'flushStatus', 'the', 'then', 'pa', 'x'];
/** What a person types, keystroke by keystroke and whole, filtered and as a phrase. */
const QUERIES = ['d', 'de', 'dep', 'depl', 'deploy', 'depo', 'p', 'pa', 'par', 'parser', 'ses', 'sessioni', 'flu', 'th', 'the', 'x', '"deploy parser"', 'deploy parser'];

function nodes(from: number, count: number): ParsedNode[] {
  return inOrder(
    Array.from({ length: count }, (_, k) => {
      const n = from + k;
      const text = `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]} ${WORDS[(n * 3 + 1) % WORDS.length]} step ${n}`;
      return parsedNode(`n${n}`, n === 0 ? null : `n${n - 1}`, { kind: n % 3 === 0 ? 'user' : 'assistant', text, timestamp: `2026-01-05T09:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z` });
    }),
    from + 1,
  );
}

function store(target: SessionStore, list: readonly ParsedNode[]): void {
  const writer = target.beginFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }));
  for (const node of list) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 100 });
  target.linkChangedSessions();
}

const hitsOf = (target: SessionStore, query: string, filters = {}) => {
  const page = target.searchPage(query, { limit: 50, offset: 0, cap: 1000, filters });
  return { query, ids: page.hits.map((hit) => hit.nodeId), total: page.total, capped: page.capped };
};
const answers = (target: SessionStore) => [...QUERIES.map((query) => hitsOf(target, query)), hitsOf(target, 'dep', { kinds: ['user'] })];
const indexAll = (target: SessionStore): void => {
  while (target.indexNextChunk(100) > 0);
};
const ftsSql = (db: ReadableDB | Database.Database): string => (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'node_text'").get() as { sql: string }).sql;
const ftsTables = (db: ReadableDB | Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'node_text%' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
const ftsBytes = (db: ReadableDB | Database.Database): number => (db.prepare('SELECT sum(length(block)) AS bytes FROM node_text_data').get() as { bytes: number }).bytes;

it('migration 043 moves a store indexed with three-letter prefixes to one- and two-letter ones, indexed again from its rows, with the same answers from a smaller index', () => {
  const freshPath = join(root, 'fresh.sqlite');
  const fresh = openSessionStore(freshPath);
  store(fresh, nodes(0, 600));
  indexAll(fresh);
  const expected = answers(fresh);
  expect(expected.find((answer) => answer.query === 'dep')?.ids.length).toBeGreaterThan(0);
  const freshTables = ftsTables(fresh.handles.read);
  fresh.close();

  // The previous schema's store: its migrations, the same rows, indexed by the indexer as it ran then.
  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 43));
  copyRows(old, freshPath, sharedColumns(old, freshPath, TABLES));
  const statements = prepareIndexStatements(old);
  while (indexNextChunk(old, statements, 100) > 0);
  expect(ftsSql(old)).toMatch(/prefix = '1 2 3'/);
  const oldBytes = ftsBytes(old);
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    const db = migrated.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    expect(ftsSql(db)).toMatch(/prefix = '1 2'/);
    // No table of the old index is left behind (FTS5 kept its `_content` table on DROP).
    expect(ftsTables(db)).toEqual(freshTables);
    // The old index is gone with its table; search answers from what is indexed again so far.
    expect(migrated.indexProgress()).toEqual({ indexed: 0, total: 600 });
    expect(hitsOf(migrated, 'deploy').ids).toEqual([]);
    indexAll(migrated);
    expect(answers(migrated)).toEqual(expected);
    expect(ftsBytes(db)).toBeLessThan(oldBytes * 0.9);

    // An append after the migration is indexed into the new index and found.
    store(migrated, nodes(600, 30));
    indexAll(migrated);
    expect(hitsOf(migrated, 'step 62').ids).toContain('n629');
  } finally {
    migrated.close();
  }
});
