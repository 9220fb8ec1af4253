/**
 * The canary test (issue 15): a unique random string planted in a session — its prompt, a tool's output, a
 * file it writes (so it lands in a manual snapshot and a fork's folder) and the fork's transcript — is
 * imported, indexed, snapshotted and forked; `arbor delete --forks --yes` then leaves no file in the data
 * folder holding it, decompressed content included. Before the deletion the same scan finds it in the store
 * and in the snapshot packs, so a scan that could not see it would fail here first. The session's file-history
 * backup holds it too: its copy in the snapshot store (the archive) leaves with the session. A second canary sits
 * past the first RAW_LIMIT bytes of a long Bash output, where only the store's whole copy of that line (migration
 * 034) holds it: found there before, gone after.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDeleteOutcome } from '../../../shared/forget';
import type { ForkCreated } from '../../../shared/operations';
import { openDatabase } from '../../../electron/db/database';
import { forgetSessions } from '../../../electron/db/session-delete';
import { runCliCaptured, type Run } from '../cli/run-cli';
import { scanForCanary } from './canary-scan';
import { writeSecretSession, type WrittenSession } from './forget-fixtures';

let root: string;
let dataDir: string;
let config: string;
let doomed: WrittenSession;
let kept: WrittenSession;
const canary = `canary${randomBytes(12).toString('hex')}`;
const keptSecret = `keptnote${randomBytes(8).toString('hex')}`;
const longLineCanary = `longcanary${randomBytes(12).toString('hex')}`;

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', dataDir, ...args], { cwd: root, homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: config } });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-canary-'));
  mkdirSync(join(root, 'home'));
  config = join(root, 'claude');
  doomed = writeSecretSession(join(config, 'projects'), join(root, 'work'), '0c0a0a0a-0000-4000-8000-000000000001', canary, 1, longLineCanary);
  kept = writeSecretSession(join(config, 'projects'), join(root, 'other'), '0c0a0a0a-0000-4000-8000-000000000002', keptSecret, 2);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Imports both sessions, snapshots both folders, forks the doomed one and imports the fork's transcript. */
async function plantCanary(): Promise<ForkCreated> {
  expect((await cli(['import', doomed.transcript, kept.transcript])).code).toBe(0);
  expect((await cli(['snapshot', doomed.cwd])).code).toBe(0);
  expect((await cli(['snapshot', kept.cwd])).code).toBe(0);
  const fork = await cli(['fork', doomed.writeResultId, '--to', join(root, `fork-${randomBytes(4).toString('hex')}`), '--json']);
  expect(fork.code, fork.stderr).toBe(0);
  const created = JSON.parse(fork.stdout) as ForkCreated;
  expect(existsSync(join(created.dir, 'notes.txt'))).toBe(true);
  // The fork's transcript imported too: its file joins the session.
  expect((await cli(['import', created.transcript!])).code).toBe(0);
  const found = await cli(['search', canary, '--json']);
  expect((JSON.parse(found.stdout) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
  return created;
}

describe('arbor delete: the canary', () => {
  it('is found after a deletion of the rows alone: the full-text segments and the snapshot packs keep it (the scan can see it)', async () => {
    dataDir = join(root, 'data-rows-only');
    await plantCanary();
    const handles = openDatabase(join(dataDir, 'arbor.sqlite'));
    expect(forgetSessions(handles.write, [doomed.sessionId], { withDependants: true }).status).toBe('deleted');
    handles.close();
    const finds = scanForCanary(dataDir, canary);
    expect(finds.some((find) => find.startsWith('arbor.sqlite')), finds.join('\n')).toBe(true);
    expect(finds.some((find) => find.startsWith('snapshots.git/objects/')), finds.join('\n')).toBe(true);
  }, 240_000);

  it('leaves no file in the data folder holding the canary, decompressed content included', async () => {
    dataDir = join(root, 'data');
    const created = await plantCanary();
    const before = scanForCanary(dataDir, canary);
    expect(before.some((find) => find.startsWith('arbor.sqlite')), before.join('\n')).toBe(true);
    expect(before.some((find) => find.startsWith('snapshots.git/objects/')), before.join('\n')).toBe(true);
    // The file-history backup's own bytes were copied into the snapshot store at import (the archive).
    const backupBytes = readFileSync(doomed.backup, 'utf8');
    expect(scanForCanary(dataDir, backupBytes).filter((find) => find.startsWith('snapshots.git/objects/')).length).toBeGreaterThan(0);
    // The long line's tail is in the store only as its whole copy.
    expect(scanForCanary(dataDir, longLineCanary).some((find) => find.startsWith('arbor.sqlite'))).toBe(true);

    const deleted = await cli(['delete', doomed.sessionId, '--forks', '--yes', '--json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    const outcome = JSON.parse(deleted.stdout) as SessionDeleteOutcome;
    expect(outcome.status).toBe('deleted');
    expect(outcome.plan.sessionIds).toEqual([doomed.sessionId]);
    expect(outcome.plan.forks.map((f) => f.fork)).toEqual([created.fork]);

    expect(scanForCanary(dataDir, canary)).toEqual([]);
    expect(scanForCanary(dataDir, backupBytes)).toEqual([]);
    expect(scanForCanary(dataDir, longLineCanary)).toEqual([]);
    expect(existsSync(created.dir)).toBe(false);
    expect(existsSync(created.transcript!)).toBe(false);
    expect(JSON.parse((await cli(['search', canary, '--json'])).stdout)).toMatchObject({ hits: [] });
    // The other session, its search entries and its snapshot stay.
    const ls = await cli(['ls', '--json']);
    expect(ls.stdout).toContain(kept.sessionId);
    expect(ls.stdout).not.toContain(doomed.sessionId);
    expect((JSON.parse((await cli(['search', keptSecret, '--json'])).stdout) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    expect(scanForCanary(dataDir, keptSecret).length).toBeGreaterThan(0);
    // The kept session's backup copy stays in the store.
    expect(scanForCanary(dataDir, readFileSync(kept.backup, 'utf8')).some((find) => find.startsWith('snapshots.git/objects/'))).toBe(true);
  }, 240_000);
});
