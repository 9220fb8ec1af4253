/**
 * Migration 023 adds tokens and cost (node_usage, prices, agent_plans). A store made by the previous schema
 * gets its counted replies from the raw lines it keeps (no transcript is read: the files are gone when it
 * opens), equal to what an import into the new schema counts, and the shipped price table.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { DEFAULT_PRICES } from '../../../electron/db/price-defaults';
import { openSessionStore } from '../../../electron/db/session-store';
import { createUsageStore } from '../../../electron/db/usage-store';
import { openHarness, type Harness } from '../service/service-harness';
import { EXPECTED, SESSION_A, SESSION_B, SESSION_C, SESSION_D, writeUsageFixtures } from '../stats/usage-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'agent_spawns', 'records', 'link_waiting', 'prompt_times', 'session_lineage', 'node_renames'];

it('migration 023 moves a store made by the previous schema: its replies are counted from the stored lines, as an import counts them', async () => {
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

  const migrated = openSessionStore(oldPath);
  try {
    expect(migrated.handles.read.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    const usage = createUsageStore(migrated.handles);
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
