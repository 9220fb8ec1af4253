// TEMPORARY profiling script (graph-load helper); delete before handing back.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const repoRoot = resolve(__dirname, '../..');
const dataDir = '/tmp/gprof/work/data';
async function main() {
  const cli = join(repoRoot, 'bin/arbor.cjs');
  const server = spawn(process.execPath, [...(process.env.NODE_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/gprof/nodeprof'] : []), cli, 'serve', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done) => {
    let out = '';
    server.stdout.on('data', (c: Buffer) => { out += c.toString(); const m = /https?:\/\/\S+/.exec(out); if (m) done(m[0]); });
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const frames: string[] = [];
  let t0 = 0;
  cdp.on('Network.webSocketFrameSent', (e: any) => frames.push(`${(performance.now() - t0).toFixed(0)} sent ${e.response.payloadData.slice(0, 90)}`));
  cdp.on('Network.webSocketFrameReceived', (e: any) => frames.push(`${(performance.now() - t0).toFixed(0)} recv ${e.response.payloadData.length} ${e.response.payloadData.slice(0, 60)}`));
  page.on('console', (m) => frames.push(`${(performance.now() - t0).toFixed(0)} console ${m.text()}`));
  const profile = process.argv.includes('--profile');
  for (let attempt = 0; attempt < 3; attempt++) {
    frames.length = 0;
    if (profile && attempt === 2) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
    t0 = performance.now();
    await page.goto(url);
    const row = page.getByTestId('session-row').first();
    await row.waitFor({ timeout: 30_000 });
    const rowAt = performance.now() - t0;
    await row.click();
    await page.getByTestId('graph').waitFor({ timeout: 30_000 });
    const graphAt = performance.now() - t0;
    const node = page.locator('[data-testid="graph-node"][data-node-id]').nth(1);
    await node.waitFor({ state: 'visible', timeout: 30_000 });
    const visAt = performance.now() - t0;
    await node.click();
    await page.locator('[data-testid="graph-node"][data-selected="true"]').waitFor({ state: 'visible', timeout: 30_000 });
    const selAt = performance.now() - t0;
    const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name}@${m.startTime.toFixed(0)}`).join(' '));
    console.log(`attempt ${attempt}: row ${rowAt.toFixed(0)} graph ${graphAt.toFixed(0)} visible ${visAt.toFixed(0)} selected ${selAt.toFixed(0)} | from row: ${(selAt - rowAt).toFixed(0)}`);
    console.log('  marks: ' + marks);
    console.log('  ' + frames.join('\n  '));
    if (profile && attempt === 2) {
      const { profile: p } = (await cdp.send('Profiler.stop')) as any;
      writeFileSync('/tmp/gprof/renderer.cpuprofile', JSON.stringify(p));
      const self = new Map<string, number>();
      const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
      const dt = p.timeDeltas as number[];
      p.samples.forEach((id: number, i: number) => {
        const n = byId.get(id); const cf = n.callFrame;
        const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      });
      console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${v.toFixed(1)} ms ${k}`).join('\n'));
    }
  }
  await browser.close();
  server.kill('SIGTERM');
}
void main();
