/** `arbor serve` in-process and as the real `bin/arbor.cjs` process (tsx registration, Ctrl-C handling). */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CliIO } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/main';
import { createFakeService } from '../../fakes/fake-service';
import { ArborError } from '../../../shared/errors';

const REPO = resolve(__dirname, '../../..');
let root: string;
let rendererDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-serve-'));
  rendererDir = join(root, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>served by test</title>');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor serve', () => {
  it('prints the URL, answers the socket as the web host, and stops on abort with exit 0', async () => {
    const service = createFakeService();
    let stdout = '';
    const controller = new AbortController();
    const io: CliIO = {
      stdout: (output) => void (stdout += Buffer.from(output).toString('utf8')),
      stderr: () => undefined,
      stdin: new PassThrough(),
      cwd: root,
      env: { ARBOR_RENDERER_DIR: rendererDir },
      interactive: false,
    };
    let hostOption: string | undefined;
    const exit = runCli(['serve', '--port', '0', '--data-dir', join(root, 'data')], io, {
      signal: controller.signal,
      createService: async (options) => {
        hostOption = options.host;
        return service;
      },
    });
    await expect.poll(() => stdout).toMatch(/^Arbor is serving at http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}\n$/);
    expect(hostOption).toBe('web');
    const url = new URL(stdout.trim().split(' ').at(-1) as string);
    const page = await fetch(url);
    expect(await page.text()).toContain('served by test');
    const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { origin: url.origin });
    await new Promise((done) => ws.once('open', done));
    ws.send(JSON.stringify({ t: 'req', id: 1, method: 'app.info', params: {} }));
    const reply = await new Promise<string>((done) => ws.once('message', (data) => done(data.toString())));
    expect(JSON.parse(reply)).toMatchObject({ t: 'res', id: 1, ok: true });
    controller.abort();
    expect(await exit).toBe(0);
    expect(service.closed).toBe(true);
  });

  it('runs from bin/arbor.cjs and exits cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'arbor.cjs'), 'serve', '--port', '0', '--data-dir', join(root, 'bin-data')], {
      cwd: REPO,
      env: { ...process.env, ARBOR_RENDERER_DIR: rendererDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await expect.poll(() => stdout, { timeout: 30_000 }).toContain('Arbor is serving at http://127.0.0.1:');
    const url = stdout.trim().split(' ').at(-1) as string;
    expect((await fetch(url)).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
  });
});

describe('arbor serve reports what its live tail could not import', () => {
  it('regression: a live import that failed (the store busy too long) was dropped in silence; it is said on stderr with its code', async () => {
    const service = createFakeService();
    let stderr = '';
    let stdout = '';
    const controller = new AbortController();
    const io: CliIO = {
      stdout: (output) => void (stdout += Buffer.from(output).toString('utf8')),
      stderr: (text) => void (stderr += text),
      stdin: new PassThrough(),
      cwd: root,
      env: { ARBOR_RENDERER_DIR: rendererDir },
      interactive: false,
    };
    const exit = runCli(['serve', '--port', '0', '--data-dir', join(root, 'tail-data')], io, {
      signal: controller.signal,
      createService: async () => ({
        ...service,
        tail(options) {
          options?.onError?.(new ArborError('STORE_BUSY', 'Another process kept the store busy'), '/t/S1.jsonl');
          return { ready: Promise.resolve(), stop: () => Promise.resolve() };
        },
      }),
    });
    await expect.poll(() => stdout).toContain('Arbor is serving at');
    expect(stderr).toBe('arbor: live import of /t/S1.jsonl: Another process kept the store busy [STORE_BUSY]\n');
    controller.abort();
    expect(await exit).toBe(0);
  });
});
