/**
 * Migration 023 adds tokens and cost (node_usage, prices, agent_plans). A store made by the previous schema
 * gets its counted replies from the raw lines it keeps (no transcript is read: the files are gone when it
 * opens), equal to what an import into the new schema counts, and the shipped price table. The lines are read
 * in the background after the migration (usage-backfill.ts), in chunks that survive a restart; the migration
 * itself reads none.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { DEFAULT_PRICES } from '../../../electron/db/price-defaults';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { createFullTextIndexer } from '../../../electron/service/full-text-indexer';
import { createUsageStore } from '../../../electron/db/usage-store';
import { openHarness, type Harness } from '../service/service-harness';
import { EXPECTED, SESSION_A, SESSION_B, SESSION_C, SESSION_D, writeUsageFixtures } from '../stats/usage-fixtures';
import { copyRows, sharedColumns } from './previous-schema';
import type { UsageGroupRow } from '../../../shared/usage';

let h: Harness;
let template: { oldPath: string; imported: UsageGroupRow[] };
let copies = 0;
// One import for the file: each test migrates its own copy of the old store.
beforeAll(async () => {
  h = await openHarness();
  template = await buildPreviousStore();
});
afterAll(async () => {
  await h.dispose();
});

function previousStore(): { oldPath: string; imported: UsageGroupRow[] } {
  const oldPath = join(h.root, `old-${++copies}.sqlite`);
  copyFileSync(template.oldPath, oldPath);
  return { oldPath, imported: template.imported };
}

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage', 'node_renames'];

/** A store made by the schema before 023, holding the usage fixtures' rows; their transcripts are deleted. */
async function buildPreviousStore(): Promise<{ oldPath: string; imported: UsageGroupRow[] }> {
  const fixtures = await writeUsageFixtures(h.root);
  expect((await h.service.api['import.run']({ paths: [...fixtures.paths] })).problems).toEqual([]);
  await h.service.idle();
  const currentPath = join(h.root, 'data', 'arbor.sqlite');
  const current = openSessionStore(currentPath);
  const imported = createUsageStore(current.handles).groups('session', {});
  current.close();
  // The transcripts are gone: only the store's raw lines can fill the new table.
  for (const path of fixtures.paths) rmSync(path, { recursive: true, force: true });

  const oldPath = join(h.root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 23));
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  expect(old.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'node_usage'").get()).toEqual({ n: 0 });
  old.close();
  return { oldPath, imported };
}

/** Runs the background work (the indexer's loop, as the service does) until nothing is left. */
async function driveBackground(store: SessionStore): Promise<void> {
  const indexer = createFullTextIndexer(store);
  indexer.kick();
  await indexer.idle();
  await indexer.stop();
}

it('migration 023 moves a store made by the previous schema: its replies are counted from the stored lines in the background, as an import counts them', async () => {
  const { oldPath, imported } = previousStore();
  const first = openSessionStore(oldPath);
  try {
    expect(first.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    // The migration counted nothing: stats say they are counting.
    expect(createUsageStore(first.handles).counting()).toBe(true);
    expect(createUsageStore(first.handles).groups('session', {})).toEqual([]);
    // One small chunk, then a restart: the work resumes where its watermark is.
    const pending = first.pendingUsageRows();
    expect(first.backfillUsageChunk(3)).toBe(3);
    expect(first.pendingUsageRows()).toBeLessThan(pending);
  } finally {
    first.close();
  }

  const migrated = openSessionStore(oldPath);
  try {
    await driveBackground(migrated);
    expect(migrated.pendingUsageRows()).toBe(0);
    const usage = createUsageStore(migrated.handles);
    expect(usage.counting()).toBe(false);
    const groups = usage.groups('session', {});
    expect(groups).toEqual(imported);
    const tokensOf = (session: string) => groups.filter((row) => row.key === session).reduce((sum, row) => sum + row.tokens.output, 0);
    expect(tokensOf(SESSION_A)).toBe(EXPECTED.a.output);
    expect(tokensOf(SESSION_B)).toBe(EXPECTED.b.output);
    expect(tokensOf(SESSION_C)).toBe(EXPECTED.c.output);
    expect(tokensOf(SESSION_D)).toBe(EXPECTED.d.output);
    expect(usage.prices()).toHaveLength(DEFAULT_PRICES.length);
  } finally {
    migrated.close();
  }
});

it('migration 023 itself reads no raw line: it only records where the background count ends', async () => {
  const { oldPath } = previousStore();
  const old = new Database(oldPath) as WritableDB;
  try {
    migrate(old, MIGRATIONS.filter((migration) => migration.version <= 23));
    // The stored lines carry replies (the first test counts them from these very rows): none was read here.
    expect(old.prepare('SELECT count(*) AS n FROM node_usage').get()).toEqual({ n: 0 });
    const meta = (key: string) => (old.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: number }).value;
    expect(meta('usage_backfill_until')).toBe((old.prepare('SELECT max(seq) AS n FROM nodes').get() as { n: number }).n);
    expect(meta('usage_backfill_records_until')).toBe((old.prepare('SELECT max(id) AS n FROM records').get() as { n: number }).n);
    expect(meta('usage_backfill_upto')).toBe(0);
  } finally {
    old.close();
  }
});

it('a store that ran migration 023 when it counted inside the migration has nothing left to count', async () => {
  const { oldPath } = previousStore();
  const store = openSessionStore(oldPath);
  try {
    await driveBackground(store);
    const counted = createUsageStore(store.handles).groups('session', {});
    // As such a store is: its rows, and no watermark.
    store.handles.write.exec("DELETE FROM meta WHERE key LIKE 'usage_backfill_%'");
    expect(store.pendingUsageRows()).toBe(0);
    expect(store.backfillUsageChunk(100)).toBe(0);
    expect(createUsageStore(store.handles).counting()).toBe(false);
    expect(createUsageStore(store.handles).groups('session', {})).toEqual(counted);
  } finally {
    store.close();
  }
});
