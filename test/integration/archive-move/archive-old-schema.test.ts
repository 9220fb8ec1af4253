/**
 * An archive written from a store at an older schema (the previous Arbor's) is migrated when it is installed.
 * The old store is made as the migration tests make theirs: a file migrated with the migrations index cut
 * before the last one, holding a current store's rows; the archive is written from it by the export itself,
 * over that file as the old Arbor's store. Installed, the store reaches this Arbor's schema and its sessions
 * and snapshot read as the current store's do.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ArchiveImported } from '../../../shared/archive';
import type { NodeFiles, SessionGraph, SessionSummary, SnapshotCaptured } from '../../../shared/model';
import type { WritableDB } from '../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { SnapshotStore } from '../../../electron/git/object-store';
import { exportArchive } from '../../../electron/service/archive-export';
import { createEventHub } from '../../../electron/service/event-hub';
import { createSerialQueue } from '../../../electron/service/serial-queue';
import type { WorkspaceContext } from '../../../electron/service/workspace-context';
import { openCliDemo, runCliCaptured, type CliDemo, type Run } from '../cli/run-cli';
import { copyRows, sharedColumns } from '../db/previous-schema';

const PREVIOUS = MIGRATIONS.filter((migration) => migration.version < latestVersion());
const previousVersion = latestVersion(PREVIOUS);

let demo: CliDemo;
let snapshot: SnapshotCaptured;
beforeAll(async () => {
  demo = await openCliDemo('arbor-archive-old-');
  const run = await demo.cli(['snapshot', demo.graph.session.project!, '--json']);
  expect(run.code, run.stderr).toBe(0);
  snapshot = JSON.parse(run.stdout) as SnapshotCaptured;
}, 30_000);
afterAll(() => demo?.remove());

const json = <T>(run: Run): T => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
};

/** The previous schema's store in `dataDir`, holding the demo store's rows and a copy of its repository. */
function previousSchemaStore(dataDir: string): WritableDB {
  cpSync(join(demo.dataDir, 'snapshots.git'), join(dataDir, 'snapshots.git'), { recursive: true });
  const old = new Database(join(dataDir, 'arbor.sqlite')) as WritableDB;
  migrate(old, PREVIOUS);
  const tables = old.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'node_text%'").pluck().all() as string[];
  // Rows the migrations seed (meta, the shipped prices) come from the current store instead.
  for (const table of tables) old.exec(`DELETE FROM ${table}`);
  copyRows(old, join(demo.dataDir, 'arbor.sqlite'), sharedColumns(old, join(demo.dataDir, 'arbor.sqlite'), tables));
  return old;
}

it('an archive of a store at the previous schema migrates on import, and reads as the current store', async () => {
  const oldDataDir = join(demo.root, 'old-data');
  const archive = join(demo.root, 'old-archive');
  const old = previousSchemaStore(oldDataDir);
  let objects: SnapshotStore | undefined;
  try {
    expect(old.pragma('user_version', { simple: true })).toBe(previousVersion);
    // The export's own code over the old store: the parts of the service it uses, with the old file as the store.
    const workspace = {
      dataDir: oldDataDir,
      store: { handles: { write: old, read: old, readOnly: false } },
      writes: createSerialQueue(),
      objects: () => (objects ??= SnapshotStore.open({ dataDir: oldDataDir })),
      now: () => new Date('2026-06-01T00:00:00Z'),
      events: createEventHub(),
    } as unknown as WorkspaceContext;
    const written = await exportArchive(workspace, { dir: archive }, { version: '0.9.0', signal: new AbortController().signal });
    expect(written.manifest.schemaVersion).toBe(previousVersion);
  } finally {
    objects?.close();
    old.close();
  }

  const dataDir = join(demo.root, 'new-data');
  const cli = (args: string[]): Promise<Run> => runCliCaptured(['--data-dir', dataDir, ...args], { cwd: demo.root, homeDir: demo.home });
  const installed = json<ArchiveImported>(await cli(['import-archive', archive, '--json']));
  expect(installed).toMatchObject({ migrated: true, schemaVersion: latestVersion(), manifest: { schemaVersion: previousVersion, arborVersion: '0.9.0' } });
  const text = await cli(['import-archive', archive, '--replace']);
  expect(text.stdout).toContain(`migrated from schema ${previousVersion} to ${latestVersion()}`);

  const sessions = (store: (args: string[]) => Promise<Run>) => store(['ls', '--json']).then((run) => json<{ sessions: SessionSummary[] }>(run).sessions);
  expect(await sessions(cli)).toEqual(await sessions(demo.cli));
  const id = demo.graph.session.id;
  expect(json<SessionGraph>(await cli(['show', id, '--json']))).toEqual(json<SessionGraph>(await demo.cli(['show', id, '--json'])));
  expect(json<NodeFiles>(await cli(['files', snapshot.node.id, '--json']))).toEqual(json<NodeFiles>(await demo.cli(['files', snapshot.node.id, '--json'])));
}, 30_000);
