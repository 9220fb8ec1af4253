/**
 * `tsx scripts/bench/graph-profile.ts [--sizes 10000,100000] [--keep DIR]`: where the time from a session row
 * clicked to the first interactive view goes, per thread. Opens generated sessions in Chromium against
 * `arbor serve` (as `npm run bench:graph` does) under a Chrome trace with V8's sampling profiler on, then
 * prints each thread's busiest functions between the click and the selected node (the page's main thread,
 * the layout worker). Serve an unminified renderer for readable names: build one with minify off and set
 * ARBOR_RENDERER_DIR to it. `--keep DIR` writes each trace there (open it in DevTools' Performance panel).
 * It prints figures; it is not a test.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { launchChromium, startServe } from './serve-chromium';

const repoRoot = resolve(__dirname, '../..');

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly id?: string;
  readonly cat?: string;
  readonly args?: Record<string, unknown>;
}

interface ProfileNode {
  readonly id: number;
  readonly parent?: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
}

/** Self time per function on each profiled thread, within [from, to] (trace µs). */
function selfTimes(events: readonly TraceEvent[], from: number, to: number): Map<string, Map<string, number>> {
  const threadNames = new Map<string, string>();
  for (const event of events) if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, String((event.args as { name?: string }).name));
  const profiles = new Map<string, { thread: string; nodes: Map<number, ProfileNode>; time: number }>();
  const out = new Map<string, Map<string, number>>();
  for (const event of events) {
    if (event.name === 'Profile' && event.id !== undefined) {
      const start = (event.args as { data?: { startTime?: number } }).data?.startTime ?? event.ts;
      profiles.set(`${event.pid}:${event.id}`, { thread: threadNames.get(`${event.pid}:${event.tid}`) ?? `${event.pid}:${event.tid}`, nodes: new Map(), time: start });
    }
  }
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.id === undefined) continue;
    const profile = profiles.get(`${event.pid}:${event.id}`);
    if (!profile) continue;
    const data = (event.args as { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } }).data;
    for (const node of data?.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    let table = out.get(profile.thread);
    if (!table) out.set(profile.thread, (table = new Map()));
    for (let k = 0; k < samples.length; k++) {
      profile.time += deltas[k] ?? 0;
      // Each sample stands for the interval up to the next one; the next delta is that interval.
      const span = deltas[k + 1] ?? 0;
      if (profile.time < from || profile.time > to) continue;
      const node = profile.nodes.get(samples[k]!);
      if (!node) continue;
      const frame = node.callFrame;
      const where = !frame.url ? '' : ` ${basename(frame.url)}:${frame.lineNumber + 1}`;
      const key = `${frame.functionName || '(anonymous)'}${where}`;
      table.set(key, (table.get(key) ?? 0) + span);
    }
  }
  return out;
}

function writeSession(dir: string, sessionId: string, size: number, lines: (size: number, options: { seed: number; sessionId: string; startTime?: Date }) => Iterable<string>, startTime?: Date): void {
  mkdirSync(dir, { recursive: true });
  const out = openSync(join(dir, `${sessionId}.jsonl`), 'w');
  try {
    for (const line of lines(size, { seed: size / 1000, sessionId, ...(startTime ? { startTime } : {}) })) writeSync(out, line + '\n');
  } finally {
    closeSync(out);
  }
}

const READ_MARKS = `Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]))`;

async function main(): Promise<void> {
  const sizesArg = process.argv[process.argv.indexOf('--sizes') + 1];
  const sizes = process.argv.includes('--sizes') && sizesArg ? sizesArg.split(',').map(Number) : [10_000, 100_000];
  const keep = process.argv.includes('--keep') ? process.argv[process.argv.indexOf('--keep') + 1] : undefined;
  const work = mkdtempSync(join(tmpdir(), 'arbor-graph-profile-'));
  try {
    const { syntheticSessionLines } = await import('../../electron/demo/synthetic');
    const projects = join(work, 'projects');
    const ids = new Map<number, string>();
    for (const size of sizes) {
      const id = `0b7c1d2e-0000-4000-8000-${String(size).padStart(12, '0')}`;
      ids.set(size, id);
      writeSession(join(projects, `-home-dev-profile-${size}`), id, size, syntheticSessionLines);
    }
    // A small newer session, so the app's own open on start is not one of the measured ones.
    writeSession(join(projects, '-home-dev-profile-newer'), '0b7c1d2e-0000-4000-8000-000000000042', 40, syntheticSessionLines, new Date(Date.UTC(2027, 0, 1)));
    const dataDir = join(work, 'data');
    const cli = join(repoRoot, 'bin/arbor.cjs');
    execFileSync(process.execPath, [cli, 'import', projects, '--data-dir', dataDir], { stdio: 'pipe' });
    const { url, server } = await startServe(cli, dataDir);
    try {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        for (const size of sizes) {
          await page.goto(url, { timeout: 180_000 });
          const row = page.locator(`[data-testid="session-row"][data-session-id="${ids.get(size)}"]`);
          await row.waitFor({ timeout: 180_000 });
          await page.waitForTimeout(1500); // the app's own open on start settles
          await page.evaluate('performance.clearMarks()');
          await browser.startTracing(page, { categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'v8'] });
          const clickedAt = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
          await row.click();
          const node = page.locator('[data-testid="graph-node"][data-node-id]').nth(1);
          await node.waitFor({ state: 'visible', timeout: 120_000 });
          await node.click();
          await page.locator('[data-testid="graph-node"][data-selected="true"]').waitFor({ state: 'visible', timeout: 30_000 });
          const doneAt = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
          const marks = (await page.evaluate(READ_MARKS)) as Record<string, number>;
          const trace = await browser.stopTracing();
          if (keep) {
            mkdirSync(keep, { recursive: true });
            writeFileSync(join(keep, `open-${size}.json`), trace);
          }
          const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
          // Trace timestamps are µs on the same monotonic clock as the page's; find the click by the first user-timing mark's offset.
          const sent = events.find((event) => event.name === 'arbor:graph:sent');
          const offset = sent && marks['arbor:graph:sent'] !== undefined ? sent.ts - marks['arbor:graph:sent'] * 1000 : NaN;
          const timeOrigin = (await page.evaluate('performance.timeOrigin')) as number;
          const from = Number.isFinite(offset) ? offset + (clickedAt - timeOrigin) * 1000 : 0;
          const to = Number.isFinite(offset) ? offset + (doneAt - timeOrigin) * 1000 : Infinity;
          console.log(`\n${size / 1000}k nodes: click → selected ${(doneAt - clickedAt).toFixed(0)} ms; marks (ms after the click): ${Object.entries(marks)
            .filter(([name]) => name.startsWith('arbor:'))
            .sort((a, b) => a[1] - b[1])
            .map(([name, at]) => `${name.replace('arbor:', '')} ${(at - (clickedAt - timeOrigin)).toFixed(0)}`)
            .join(', ')}`);
          for (const [thread, table] of selfTimes(events, from, to)) {
            const rows = [...table].sort((a, b) => b[1] - a[1]);
            const total = rows.reduce((sum, [, us]) => sum + us, 0);
            const busy = rows.filter(([name]) => !name.startsWith('(idle)')).reduce((sum, [, us]) => sum + us, 0);
            if (busy < 5_000) continue;
            console.log(`  ${thread}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms sampled`);
            for (const [name, us] of rows.filter(([key]) => !key.startsWith('(idle)')).slice(0, 22)) console.log(`    ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`);
          }
        }
      } finally {
        await browser.close();
      }
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) void main();
