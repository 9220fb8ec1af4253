/**
 * The hook as Claude Code runs it: `arbor hook install` writes a command line; a shell runs that line with the
 * PostToolUse JSON on stdin (a real pipe, a real process that must exit by itself), through the bundled CLI:
 * its lean hook entry, which hands the capture to a running Arbor or else loads the whole CLI and captures.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ArborApi } from '../../../shared/contract';
import { listenForHooks } from '../../../electron/hooks/hook-listener';
import { hookSocketPath } from '../../../electron/hooks/hook-socket';
import { createArborService } from '../../../electron/service/arbor-service';
import { runCliCaptured } from '../cli/run-cli';
import { buildCliBundle } from '../cli/spawned-cli';

let dir: string;
let bundleDir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-installed-hook-'));
  // The run's CLI bundle (its hook.js is the lean entry the installed command runs).
  bundleDir = dirname(buildCliBundle().bundle);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

it('runs the installed command line from a shell: silent, exit 0, and the snapshot is recorded', async () => {
  const home = join(dir, 'home');
  const data = join(dir, 'data with space');
  const workspace = join(dir, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.md'), 'written by the agent\n');
  const install = await runCliCaptured(['--data-dir', data, 'hook', 'install'], { cwd: dir, homeDir: home });
  expect(install.code).toBe(0);
  const settings = JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as {
    hooks: { PostToolUse: { hooks: { command: string }[] }[] };
  };
  const command = settings.hooks.PostToolUse[0]!.hooks[0]!.command;

  const payload = JSON.stringify({
    session_id: 'c0ffee00-0000-4000-8000-000000000001',
    transcript_path: join(home, '.claude/projects/-workspace/c0ffee00-0000-4000-8000-000000000001.jsonl'),
    cwd: workspace,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(workspace, 'notes.md'), content: 'written by the agent\n' },
    tool_response: { filePath: join(workspace, 'notes.md'), success: true },
    tool_use_id: 'toolu_01InstalledHook',
  });
  const started = performance.now();
  const run = spawnSync('/bin/sh', ['-c', command], {
    cwd: workspace,
    input: payload,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: home, ARBOR_CLI_BUNDLE: join(bundleDir, 'arbor.js') },
  });
  const ms = performance.now() - started;
  console.log(`installed hook (new process, bundled CLI, first capture): ${ms.toFixed(0)} ms`);
  expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  expect(ms).toBeLessThan(20_000);

  const service = await createArborService({ dataDir: data, host: 'cli', version: 'test', homeDir: home, env: {} });
  try {
    const graph = await service.api['sessions.graph']({ sessionId: 'c0ffee00-0000-4000-8000-000000000001' });
    expect(graph.workspaceNodes).toEqual([expect.objectContaining({ kind: 'hook-snapshot', dir: workspace })]);
    const content = await service.api['nodes.file']({ nodeId: graph.workspaceNodes![0]!.nodeId, path: join(workspace, 'notes.md') });
    expect(content).toMatchObject({ exists: true, known: 'exact', content: 'written by the agent\n' });
  } finally {
    await service.close();
  }
});

it.skipIf(process.platform === 'win32')('hands the capture to a running Arbor without opening the store', async () => {
  const home = join(dir, 'home-2');
  const data = join(dir, 'data-2');
  const workspace = join(dir, 'workspace-2');
  mkdirSync(home, { recursive: true });
  mkdirSync(data);
  mkdirSync(workspace);
  const install = await runCliCaptured(['--data-dir', data, 'hook', 'install'], { cwd: dir, homeDir: home });
  expect(install.code).toBe(0);
  const settings = JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { hooks: { PostToolUse: { hooks: { command: string }[] }[] } };
  const command = settings.hooks.PostToolUse[0]!.hooks[0]!.command;

  // A stand-in host on the data folder's socket: it records what it is asked to capture.
  const asked: unknown[] = [];
  const api = { 'snapshots.capture': async (request: unknown) => void asked.push(request) } as unknown as ArborApi;
  const lifetime = new AbortController();
  const listener = await listenForHooks(hookSocketPath(data), api, lifetime.signal);
  expect(listener.path).not.toBeNull();
  try {
    const payload = JSON.stringify({ session_id: 'c0ffee00-0000-4000-8000-000000000002', cwd: workspace, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_use_id: 'toolu_02HandedOver' });
    // Asynchronous: the stand-in host answers on this process's event loop.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn('/bin/sh', ['-c', command], { cwd: workspace, env: { PATH: process.env.PATH ?? '', HOME: home, ARBOR_CLI_BUNDLE: join(bundleDir, 'arbor.js'), ARBOR_CLI_TRACE: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => done({ status, stdout, stderr }));
      child.stdin.end(payload);
    });
    expect(run).toEqual({ status: 0, stdout: '', stderr: 'arbor: running hook.js\n' });
    expect(asked).toEqual([{ dir: workspace, hook: { sessionId: 'c0ffee00-0000-4000-8000-000000000002', toolUseId: 'toolu_02HandedOver' } }]);
    // The hook process never opened the store: no database, no hook.log.
    expect(existsSync(join(data, 'arbor.sqlite'))).toBe(false);
    expect(existsSync(join(data, 'hook.log'))).toBe(false);
  } finally {
    lifetime.abort();
    await listener.stop();
  }
});
