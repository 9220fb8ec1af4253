/**
 * `arbor snapshot --hook` while Arbor runs: the capture is handed to the running host over the data folder's
 * hook socket (the hook process never opens the store), one host per data folder, a socket left by a dead
 * host is replaced, anything but a hook capture is refused, and without a host the hook captures by itself.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/main';
import type { ArborApi } from '../../../shared/contract';
import { handOverCapture } from '../../../electron/hooks/hook-client';
import { listenForHooks } from '../../../electron/hooks/hook-listener';
import { HOOK_LOG } from '../../../electron/hooks/hook-log';
import { hookSocketPath } from '../../../electron/hooks/hook-socket';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService, ArborServiceOptions } from '../../../electron/service/service-types';

const SESSION = '7b1f0c2e-2222-4aaa-8bbb-000000000002';
const unix = process.platform !== 'win32';

let root: string;
let home: string;
let dataDir: string;
let workspace: string;

function payload(toolUseId: string): string {
  return JSON.stringify({ session_id: SESSION, cwd: workspace, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: {}, tool_response: {}, tool_use_id: toolUseId });
}

/** The hook in-process, with a service factory that records whether the hook opened the store itself. */
async function runHook(toolUseId: string): Promise<{ code: number; stdout: string; stderr: string; openedStore: boolean }> {
  let stdout = '';
  let stderr = '';
  let openedStore = false;
  const input = new PassThrough();
  input.end(payload(toolUseId));
  const io: CliIO = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), stdin: input, cwd: root, env: {}, interactive: false };
  const createService = (options: ArborServiceOptions): Promise<ArborService> => {
    openedStore = true;
    return createArborService(options);
  };
  const code = await runCli(['--data-dir', dataDir, 'snapshot', '--hook'], io, { createService, homeDir: home, platform: 'linux' });
  return { code, stdout, stderr, openedStore };
}

const openService = (): Promise<ArborService> => createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {} });

async function hookSnapshots(service: ArborService): Promise<string[]> {
  const graph = await service.api['sessions.graph']({ sessionId: SESSION });
  return (graph.workspaceNodes ?? []).filter((node) => node.kind === 'hook-snapshot').map((node) => node.nodeId);
}

/** One raw request line to the socket; resolves with the answer line. */
function ask(path: string, line: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(JSON.parse(answer)));
    socket.on('error', reject);
  });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-hook-handover-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src/app.ts'), 'export const app = 1;\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hook captures handed to a running Arbor', () => {
  it('are taken by the host: the hook process never opens the store, and the snapshot is the host’s', async () => {
    const host = await openService();
    try {
      const listener = await host.listenForHooks();
      expect(listener.path).toBe(hookSocketPath(dataDir));
      if (unix) expect(lstatSync(listener.path!).mode & 0o777).toBe(0o600);

      const run = await runHook('toolu_01HandedOver');
      expect(run).toEqual({ code: 0, stdout: '', stderr: '', openedStore: false });
      expect(await hookSnapshots(host)).toHaveLength(1);
      expect(existsSync(join(dataDir, HOOK_LOG))).toBe(false);

      // A second host on the same data folder leaves the socket to the first.
      const second = await openService();
      try {
        expect((await second.listenForHooks()).path).toBeNull();
      } finally {
        await second.close();
      }
      expect((await runHook('toolu_02HandedOver')).openedStore).toBe(false);
      expect(await hookSnapshots(host)).toHaveLength(2);
    } finally {
      await host.close();
    }
    // Gone with its host: the next hook captures on its own.
    if (unix) expect(existsSync(hookSocketPath(dataDir))).toBe(false);
    const alone = await runHook('toolu_03Alone');
    expect(alone).toEqual({ code: 0, stdout: '', stderr: '', openedStore: true });
    const service = await openService();
    try {
      expect(await hookSnapshots(service)).toHaveLength(3);
    } finally {
      await service.close();
    }
  });

  it('refuses anything but a valid hook capture, and the hook then captures by itself and logs why', async () => {
    const host = await openService();
    try {
      const { path } = await host.listenForHooks();
      expect(await ask(path!, `${JSON.stringify({ dir: workspace })}\n`)).toEqual({ ok: false, message: 'only hook captures are taken here' });
      expect(await ask(path!, 'not json\n')).toEqual({ ok: false, message: 'the request is not JSON' });
      const relative = await ask(path!, `${JSON.stringify({ dir: 'relative/dir', hook: { sessionId: SESSION, toolUseId: 'toolu_x' } })}\n`);
      expect(relative).toEqual({ ok: false, message: 'the folder must be an absolute path' });
      const badId = await ask(path!, `${JSON.stringify({ dir: workspace, hook: { sessionId: '', toolUseId: 'toolu_x' } })}\n`);
      expect(badId).toMatchObject({ ok: false, message: expect.stringContaining('BAD_REQUEST') as unknown });

      // The client reports a refusal as a failure (so the hook falls back), never as a capture.
      const handed = await handOverCapture(path!, { dir: join(root, 'no such folder'), hook: { sessionId: SESSION, toolUseId: 'toolu_missing' } }, new AbortController().signal);
      expect(handed).toMatchObject({ status: 'failed', reason: expect.stringContaining('NOT_FOUND') as unknown });
      // The hook logs the host's refusal and tries by itself (which fails the same way here, and is logged too).
      const saved = workspace;
      workspace = join(root, 'no such folder');
      try {
        const run = await runHook('toolu_05Refused');
        expect(run).toEqual({ code: 0, stdout: '', stderr: '', openedStore: true });
      } finally {
        workspace = saved;
      }
      const log = readFileSync(join(dataDir, HOOK_LOG), 'utf8').trim().split('\n');
      expect(log).toHaveLength(2);
      expect(log[0]).toMatch(/the running Arbor did not capture \(No directory at .* \[NOT_FOUND\]\).*toolu_05Refused.*; capturing here/);
      expect(log[1]).toMatch(/No directory at .*toolu_05Refused/);
    } finally {
      await host.close();
    }
  });

  it('gives up on a host that does not answer in time, so the hook can still capture by itself', async () => {
    const stuck = { 'snapshots.capture': () => new Promise<never>(() => undefined) } as unknown as ArborApi;
    const lifetime = new AbortController();
    const path = join(root, 'stuck.sock');
    const listener = await listenForHooks(unix ? path : hookSocketPath(join(root, 'stuck')), stuck, lifetime.signal);
    try {
      const started = performance.now();
      const handed = await handOverCapture(listener.path!, { dir: workspace, hook: { sessionId: SESSION, toolUseId: 'toolu_stuck' } }, new AbortController().signal, 300);
      expect(handed).toEqual({ status: 'failed', reason: 'no answer within 300 ms' });
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      lifetime.abort();
      await listener.stop();
    }
  });

  it.skipIf(!unix)('replaces a socket file left by a host that died, and ignores a path that is not a socket', async () => {
    const path = hookSocketPath(dataDir);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, 'left behind\n');
    expect(await handOverCapture(path, { dir: workspace, hook: { sessionId: SESSION, toolUseId: 'toolu_y' } }, new AbortController().signal)).toEqual({
      status: 'no-host',
    });
    const host = await openService();
    try {
      const listener = await host.listenForHooks();
      expect(listener.path).toBe(path);
      expect(lstatSync(path).isSocket()).toBe(true);
      expect((await runHook('toolu_04AfterStale')).openedStore).toBe(false);
    } finally {
      await host.close();
    }
    expect(readFileSync(join(dataDir, 'arbor.sqlite')).length).toBeGreaterThan(0);
  });

  it('puts the socket in the temporary folder when the data folder’s path is too long for one', () => {
    const deep = join('/home', 'x'.repeat(120), 'Arbor');
    expect(hookSocketPath(deep, 'linux', '/tmp')).toMatch(/^\/tmp\/arbor-hooks-[0-9a-f]{24}\.sock$/);
    expect(hookSocketPath('/home/me/.config/Arbor', 'linux', '/tmp')).toBe('/home/me/.config/Arbor/hooks.sock');
    expect(hookSocketPath('C:\\Users\\me\\AppData\\Roaming\\Arbor', 'win32')).toMatch(/^\\\\\.\\pipe\\arbor-hooks-[0-9a-f]{24}$/);
  });
});
