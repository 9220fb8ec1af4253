/**
 * Captures of one folder from two services on one data folder (two hook processes, or the app and a hook)
 * take turns through the lock file; a lock left by a process that died is broken, and a held one waits.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOOK_LOG } from '../../../electron/hooks/hook-log';
import { runHookSnapshot } from '../../../electron/hooks/hook-snapshot';
import { withCaptureLock } from '../../../electron/service/capture-lock';
import { createArborService } from '../../../electron/service/arbor-service';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-capture-lock-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('serializes captures of one folder by two services and leaves no lock behind', { timeout: 20_000 }, async () => {
  const data = join(root, 'data');
  const workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(workspace, 'src', `f${i}.txt`), `file ${i}\n`);
  const options = { dataDir: data, host: 'cli' as const, version: 'test', homeDir: join(root, 'home'), env: {} };
  const [a, b] = await Promise.all([createArborService(options), createArborService(options)]);
  try {
    const hook = (id: string) => ({ dir: workspace, hook: { sessionId: 'lock-session', toolUseId: id } });
    const [first, second] = await Promise.all([a.api['snapshots.capture'](hook('toolu_a')), b.api['snapshots.capture'](hook('toolu_b'))]);
    expect(first.snapshot.tree).toBe(second.snapshot.tree);
    expect(first.files).toBe(50);
    expect(readdirSync(join(data, 'locks'))).toEqual([]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

it('breaks a lock whose process is gone, and waits for a live one', { timeout: 20_000 }, async () => {
  const data = join(root, 'data2');
  const folder = join(root, 'folder');
  // Take the lock and leave it behind with the pid of a process that has exited.
  let lockFile = '';
  await withCaptureLock(data, folder, new AbortController().signal, async () => {
    lockFile = join(data, 'locks', readdirSync(join(data, 'locks'))[0]!);
  });
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(lockFile, String(dead));
  expect(await withCaptureLock(data, folder, AbortSignal.timeout(5000), async () => 'taken')).toBe('taken');
  expect(existsSync(lockFile)).toBe(false);

  // A lock held by a live process (this test's parent) is waited for until the signal gives up.
  writeFileSync(lockFile, String(process.ppid));
  await expect(withCaptureLock(data, folder, AbortSignal.timeout(200), async () => 'taken')).rejects.toMatchObject({ code: 'CANCELLED' });
  rmSync(lockFile);
});

it('gives up at the hook’s time limit when the folder stays locked, logging it, never throwing', { timeout: 20_000 }, async () => {
  const data = join(root, 'data3');
  const workspace = join(root, 'workspace3');
  mkdirSync(workspace);
  const service = await createArborService({ dataDir: data, host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  try {
    let lockFile = '';
    await withCaptureLock(data, workspace, new AbortController().signal, async () => {
      lockFile = join(data, 'locks', readdirSync(join(data, 'locks'))[0]!);
    });
    writeFileSync(lockFile, String(process.ppid));
    const stdin = new PassThrough();
    stdin.end(JSON.stringify({ session_id: 's', tool_use_id: 'toolu_locked', cwd: workspace, tool_name: 'Edit' }));
    const started = performance.now();
    const outcome = await runHookSnapshot({ stdin, dataDir: data, signal: new AbortController().signal, api: async () => service.api, timeLimitMs: 400 });
    const ms = performance.now() - started;
    expect(outcome).toBe('failed');
    expect(ms).toBeLessThan(5000);
    expect(readFileSync(join(data, HOOK_LOG), 'utf8')).toMatch(/stopped after 400 ms \(session s, tool call toolu_locked, cwd .*workspace3\); nothing captured\n$/);
    rmSync(lockFile);
  } finally {
    await service.close();
  }
});
