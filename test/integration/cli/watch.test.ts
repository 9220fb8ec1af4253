/**
 * `arbor watch` in-process: it catches up, then prints one line per session change as a transcript grows,
 * and stops cleanly (exit 0) when interrupted.
 */
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliIO } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/main';
import { hookSocketPath } from '../../../electron/hooks/hook-socket';
import { createArborService } from '../../../electron/service/arbor-service';
import { jsonl, prompt, reply, writeTranscript } from '../service/claude-lines';

const SESSION = 'da7a0000-0000-4000-8000-0000000000aa';
let root: string;
let home: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-watch-'));
  home = join(root, 'home');
  writeTranscript(join(home, '.claude/projects/-repo', `${SESSION}.jsonl`), [prompt('u1', null, 'Watch me', SESSION, 0)]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('prints a line per session change until Ctrl-C', { timeout: 20_000 }, async () => {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), stdin: new PassThrough(), cwd: root, env: {}, interactive: false };
  const controller = new AbortController();
  const exit = runCli(['--data-dir', join(root, 'data'), 'watch', '--json'], io, {
    createService: createArborService,
    homeDir: home,
    platform: 'linux',
    signal: controller.signal,
  });
  await until(() => stderr.includes('Watching'), 10_000);
  expect(stderr).toMatch(/1 session caught up/);
  // It takes the data folder's hook captures while it runs, and says so.
  expect(stderr).toContain('Hook snapshots (`arbor snapshot --hook`) are taken here.');
  if (process.platform !== 'win32') expect(existsSync(hookSocketPath(join(root, 'data')))).toBe(true);
  expect(stdout).toBe('');

  const appendedAt = performance.now();
  appendFileSync(join(home, '.claude/projects/-repo', `${SESSION}.jsonl`), jsonl([reply('a1', 'u1', 'Seen', SESSION, 1), reply('a2', 'a1', 'Again', SESSION, 2)]));
  await until(() => stdout.includes('\n'), 5000);
  console.log(`arbor watch: change printed ${(performance.now() - appendedAt).toFixed(0)} ms after the append`);
  const change = JSON.parse(stdout.split('\n')[0]!) as { sessionId: string; nodeCount: number; added: number | null };
  expect(change).toMatchObject({ sessionId: SESSION, nodeCount: 3, added: 2 });

  controller.abort();
  expect(await exit).toBe(0);
  if (process.platform !== 'win32') expect(existsSync(hookSocketPath(join(root, 'data')))).toBe(false);
});

it('is bad usage with an unknown option', async () => {
  const io: CliIO = { stdout: () => undefined, stderr: () => undefined, stdin: new PassThrough(), cwd: root, env: {}, interactive: false };
  expect(await runCli(['--data-dir', join(root, 'data'), 'watch', '--nope'], io, { createService: createArborService, homeDir: home })).toBe(2);
});
