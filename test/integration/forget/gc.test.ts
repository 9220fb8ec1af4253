/**
 * `arbor gc` on a store with unreachable snapshot objects (a removed fork's branch) and an orphan fork (its
 * folder deleted by hand): the dry run changes nothing and says what a run reclaims; the run reclaims exactly
 * those objects and keeps the orphan's records until --orphans; a temporary fork past its time goes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/db/database';
import { createArborService } from '../../../electron/service/arbor-service';
import { forkExpiry, setForkExpiry } from '../../../electron/db/store-gc-records';
import type { GcReport } from '../../../shared/forget';
import type { ForkCreated, ForkSummary } from '../../../shared/operations';
import { runCliCaptured, type Run } from '../cli/run-cli';
import { writeSecretSession, type WrittenSession } from './forget-fixtures';

let root: string;
let dataDir: string;
let session: WrittenSession;

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', dataDir, ...args], { cwd: root, homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: join(root, 'claude') } });
}

async function fork(name: string): Promise<ForkCreated> {
  const run = await cli(['fork', session.writeResultId, '--to', join(root, name), '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ForkCreated;
}

async function gc(...args: string[]): Promise<GcReport> {
  const run = await cli(['gc', ...args, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as GcReport;
}

const packs = (): string[] => readdirSync(join(dataDir, 'snapshots.git', 'objects', 'pack')).sort();
const forkIds = async (): Promise<string[]> => (JSON.parse((await cli(['forks', '--json'])).stdout) as { forks: ForkSummary[] }).forks.map((f) => f.fork).sort();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-gc-'));
  mkdirSync(join(root, 'home'));
  dataDir = join(root, 'data');
  session = writeSecretSession(join(root, 'claude', 'projects'), join(root, 'work'), '0c0a0a0a-0000-4000-8000-0000000000a1', 'gc-test-note');
  expect((await cli(['import', session.transcript])).code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor gc', () => {
  it('dry run changes nothing; the run prunes exactly the unreachable objects; --orphans removes the orphan fork', async () => {
    const kept = await fork('kept');
    const removed = await fork('removed');
    const orphan = await fork('orphan');
    // A fork's branch holds its own commit: removing the fork leaves that commit unreachable.
    expect((await cli(['forks', 'remove', removed.fork])).code).toBe(0);
    rmSync(orphan.dir, { recursive: true, force: true });

    const packsBefore = packs();
    const dry = await gc('--dry-run');
    expect(dry.dryRun).toBe(true);
    expect(dry.reclaimed.objects).toBeGreaterThan(0);
    expect(dry.orphans.map((o) => o.fork)).toEqual([orphan.fork]);
    expect(dry.orphansRemoved).toEqual([]);
    expect(packs()).toEqual(packsBefore);
    expect(await forkIds()).toEqual([kept.fork, orphan.fork].sort());

    const run = await gc();
    expect(run.reclaimed.objects).toBe(dry.reclaimed.objects);
    expect(run.orphans.map((o) => o.fork)).toEqual([orphan.fork]);
    expect(await forkIds()).toEqual([kept.fork, orphan.fork].sort());
    expect((await gc('--dry-run')).reclaimed.objects).toBe(0);
    // What is left is a whole repository: git finds every object the refs reach.
    if (hasGit()) execFileSync('git', ['--git-dir', join(dataDir, 'snapshots.git'), 'fsck', '--full', '--strict', '--no-dangling'], { stdio: 'pipe' });
    expect(existsSync(join(kept.dir, 'notes.txt'))).toBe(true);

    const plain = await cli(['gc']);
    expect(plain.stdout).toContain(`Orphan fork ${orphan.fork}`);
    expect(plain.stdout).toContain('arbor gc --orphans');
    const orphans = await gc('--orphans');
    expect(orphans.orphansRemoved).toEqual([orphan.fork]);
    expect(orphans.reclaimed.objects).toBeGreaterThan(0);
    expect(await forkIds()).toEqual([kept.fork]);
  }, 240_000);

  it('removes a temporary fork once its time to live is over, and not before', async () => {
    const early = await fork('temporary-later');
    const late = await fork('temporary-over');
    const handles = openDatabase(join(dataDir, 'arbor.sqlite'));
    setForkExpiry(handles.write, early.fork, new Date(Date.now() + 3_600_000).toISOString());
    setForkExpiry(handles.write, late.fork, new Date(Date.now() - 1000).toISOString());
    handles.close();
    const dry = await gc('--dry-run');
    expect(dry.expired).toEqual([late.fork]);
    expect(existsSync(late.dir)).toBe(true);
    const run = await gc();
    expect(run.expired).toEqual([late.fork]);
    expect(run.reclaimed.folders).toBe(1);
    expect(existsSync(late.dir)).toBe(false);
    expect(existsSync(early.dir)).toBe(true);
    expect(await forkIds()).toContain(early.fork);
  }, 240_000);

  it('arbor fork --temporary TTL marks the fork; a bad TTL is bad usage (exit 2)', async () => {
    const run = await cli(['fork', session.writeResultId, '--to', join(root, 'marked'), '--temporary', '2h', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout) as ForkCreated;
    const handles = openDatabase(join(dataDir, 'arbor.sqlite'));
    const expiry = forkExpiry(handles.write, created.fork);
    handles.close();
    expect(Date.parse(expiry!) - Date.now()).toBeGreaterThan(7_000_000);
    expect(Date.parse(expiry!) - Date.now()).toBeLessThanOrEqual(7_200_000);
    expect((await gc('--dry-run')).expired).not.toContain(created.fork);
    expect((await cli(['fork', session.writeResultId, '--to', join(root, 'bad'), '--temporary', 'soon'])).code).toBe(2);
  }, 240_000);

  it("removes only the forks the user ticked (store.gc forkIds, the app's Clean up); the others stay listed", async () => {
    const chosenOrphan = await fork('orphan-chosen');
    const keptOrphan = await fork('orphan-kept');
    const expiredKept = await fork('expired-kept');
    rmSync(chosenOrphan.dir, { recursive: true, force: true });
    rmSync(keptOrphan.dir, { recursive: true, force: true });
    const handles = openDatabase(join(dataDir, 'arbor.sqlite'));
    setForkExpiry(handles.write, expiredKept.fork, new Date(Date.now() - 1000).toISOString());
    handles.close();

    const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: join(root, 'claude') } });
    const changed: string[][] = [];
    const stop = service.events.on('sessions.changed', ({ sessionIds }) => changed.push([...sessionIds]));
    try {
      const report = await service.api['store.gc']({ forkIds: [chosenOrphan.fork] });
      // The session that lost the fork's branch is told, so an open graph drops it.
      expect(changed).toEqual([[session.sessionId]]);
      expect(report.orphansRemoved).toEqual([chosenOrphan.fork]);
      expect(report.expired).toEqual([]);
      expect(report.orphans.map((o) => o.fork).sort()).toEqual([chosenOrphan.fork, keptOrphan.fork].sort());
      const dry = await service.api['store.gc']({ dryRun: true });
      expect(dry.orphans.map((o) => o.fork)).toEqual([keptOrphan.fork]);
      expect(dry.expired).toContain(expiredKept.fork);
      expect(changed).toHaveLength(1);
    } finally {
      stop();
      await service.close();
    }
    const left = await forkIds();
    expect(left).not.toContain(chosenOrphan.fork);
    expect(left).toEqual(expect.arrayContaining([keptOrphan.fork, expiredKept.fork]));
    expect(existsSync(expiredKept.dir)).toBe(true);
  }, 240_000);
});

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
