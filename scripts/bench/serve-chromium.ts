/** What the browser benches share: `arbor serve` on a data folder, and Debian's Chromium with the flags this machine needs. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Browser } from 'playwright-core';

/** Starts `arbor serve` on a free port; resolves with its URL (token included) once it prints it. */
export async function startServe(cli: string, dataDir: string): Promise<{ url: string; server: ChildProcessWithoutNullStreams }> {
  const server = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, '--port', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /https?:\/\/\S+/.exec(out);
      if (match) done(match[0]);
    });
    server.on('exit', (code) => fail(new Error(`arbor serve exited with ${code}`)));
    setTimeout(() => fail(new Error('arbor serve printed no address in 30 s')), 30_000);
  });
  return { url, server };
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}
