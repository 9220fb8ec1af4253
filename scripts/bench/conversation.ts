/**
 * `npx tsx scripts/bench/conversation.ts` (after `npm run build`): the conversation view on one 50k-node
 * branch in Chromium against `arbor serve`. Opens the session at a node deep in the branch (through the
 * page's #session=…&node=… link) and measures the time to the selected row on screen and to its content,
 * then scrolls the transcript programmatically and counts frames, then clicks nodes in the graph and times
 * the transcript following. Every figure is printed beside an anchor measured in the same run on the same
 * page: a bare WebSocket round trip of the same details for the open, a plain scrolling div with the same
 * number of mounted rows for the frame rate, and the same clicks with the conversation hidden for a click.
 *
 * ARBOR_BENCH_PROFILE=<dir>: also writes a CPU profile of each phase (open, scroll, click) there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Random } from '../../shared/random';
import { DemoSession } from '../../electron/demo/demo-session';
import { TranscriptBuilder } from '../../electron/demo/transcript-builder';
import { launchChromium, startServe } from './serve-chromium';

const repoRoot = resolve(__dirname, '../..');
const NODES = Number(process.env.ARBOR_BENCH_NODES ?? 50_000);

/** One long branch (no rewinds): prompts, thinking, a Read, a Bash run with coloured output, a reply. */
function linearSession(nodes: number, sessionId: string, cwd: string): { lines: string[]; deepPrompt: string } {
  const random = new Random(11);
  const builder = new TranscriptBuilder({ sessionId, cwd, version: '2.1.39', gitBranch: 'main', slug: 'long-quiet-river' }, random, new Date(Date.UTC(2026, 0, 5, 9)));
  const files = new Map([['src/a.ts', 'export const a = 1;\nexport function twice(n: number): number {\n  return n * 2;\n}\n']]);
  const agent = new DemoSession(builder, files, random, 'claude-opus-4-6');
  const lines: string[] = [];
  let deepPrompt = '';
  for (let turn = 0; builder.nodeCount < nodes; turn++) {
    const prompt = agent.prompt(`Turn ${turn}: run the tests and tell me what failed.`, 1);
    if (builder.nodeCount < nodes * 0.8) deepPrompt = prompt;
    agent.step({ thinking: `Turn ${turn}: the tests first, then the source if anything fails.`, text: 'Running the tests.' }, [
      agent.bash('npm test', 'Run the tests', `\u001b[32m✓\u001b[0m 41 passed\n\u001b[31m✗\u001b[0m 1 failed: twice(${turn})`),
    ]);
    agent.step({ text: 'Reading the function under test.' }, [agent.read('src/a.ts')]);
    agent.reply(`Turn ${turn}: one test failed; \`twice\` is fine, the test expects the wrong value.`);
    lines.push(...builder.take());
  }
  return { lines, deepPrompt };
}

/** Marks when the selected row, and its loaded content, first enter the DOM. */
const MARKS_SCRIPT = `(() => {
  const marks = [['conv:selected-row', '[data-testid="conversation-row"][data-selected="true"]'], ['conv:selected-content', '[data-testid="conversation-row"][data-selected="true"] .conv-row__body']];
  const observer = new MutationObserver(() => {
    for (const [name, selector] of marks) if (performance.getEntriesByName(name).length === 0 && document.querySelector(selector)) performance.mark(name);
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})();`;

/**
 * Scrolls `selector` by `step` px a frame for `frames` frames; returns each frame's duration. A wheel event
 * first, as a person's scrolling always starts with one (it ends the view's keeping the selected row in view).
 */
const SCROLL_SCRIPT = `(async ([selector, frames, step]) => {
  const scroller = document.querySelector(selector);
  scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: step, bubbles: true }));
  const times = [];
  let last = performance.now();
  for (let i = 0; i < frames; i++) {
    scroller.scrollTop += step;
    await new Promise((done) => requestAnimationFrame(done));
    const now = performance.now();
    times.push(now - last);
    last = now;
  }
  return times;
})`;

/**
 * The frame-rate anchor: a plain div over the conversation, as tall as its rows, that keeps as many plain
 * rows mounted as the conversation does (moved and retitled on scroll, no React), scrolled the same way.
 */
const RAW_SCROLLER_SCRIPT = `(([count]) => {
  const over = document.querySelector('.conversation__scroll');
  const box = over.getBoundingClientRect();
  const scroller = document.createElement('div');
  scroller.id = 'bench-raw-scroller';
  Object.assign(scroller.style, { position: 'fixed', left: box.left + 'px', top: box.top + 'px', width: box.width + 'px', height: box.height + 'px', overflow: 'auto', background: 'Canvas', zIndex: 1000 });
  const inner = document.createElement('div');
  const height = over.firstElementChild.offsetHeight;
  Object.assign(inner.style, { position: 'relative', height: height + 'px' });
  scroller.appendChild(inner);
  const rows = [];
  const pitch = Math.ceil(box.height / count) + 40;
  for (let i = 0; i < count; i++) {
    const row = document.createElement('div');
    Object.assign(row.style, { position: 'absolute', left: 0, right: 0, top: 0, padding: '8px 12px', borderBottom: '1px solid GrayText' });
    inner.appendChild(row);
    rows.push(row);
  }
  const place = () => {
    const first = Math.floor(scroller.scrollTop / pitch);
    rows.forEach((row, i) => {
      const at = first + i;
      row.style.transform = 'translateY(' + at * pitch + 'px)';
      row.textContent = 'Row ' + at + ': Running the tests. \\u2713 41 passed, \\u2717 1 failed: twice(' + at + ')';
    });
  };
  scroller.addEventListener('scroll', place, { passive: true });
  place();
  document.body.appendChild(scroller);
})`;

/**
 * Click on a graph node → the inspector shows it, the graph marks it and (with `conversation`) the
 * transcript's row for it is current, and a frame is painted (checked each frame). The nodes clicked are
 * ones the graph shows on screen that have a row of their own in the transcript, other than the selected.
 */
const CLICK_RUN = `async ({ index, conversation, ids }) => {
  const rows = new Set(ids);
  const nodes = [...document.querySelectorAll('[data-testid="graph-node"][data-node-id]')].filter((n) => {
    const box = n.getBoundingClientRect();
    return box.width > 0 && box.top > 0 && box.bottom < innerHeight && rows.has(n.getAttribute('data-node-id')) && n.getAttribute('data-selected') !== 'true';
  });
  if (nodes.length === 0) throw new Error('no graph node on screen with a row of its own');
  const node = nodes[index % nodes.length];
  const id = node.getAttribute('data-node-id');
  const inspector = document.querySelector('[data-testid="inspector"]');
  const done = () =>
    (!inspector || inspector.textContent.includes(id)) &&
    document.querySelector('[data-testid="graph-node"][data-node-id="' + id + '"][data-selected="true"]') !== null &&
    (!conversation || document.querySelector('[data-testid="conversation"] [data-node-id="' + id + '"][aria-current]') !== null);
  const start = performance.now();
  node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
  await new Promise((resolve) => {
    const check = () => (done() ? resolve() : requestAnimationFrame(check));
    check();
  });
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  return performance.now() - start;
}`;

/** A bare round trip of `nodes.details` for `ids` on a WebSocket of its own, from the page. */
const BARE_DETAILS_SCRIPT = `(async ([ids]) => {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const socket = new WebSocket('ws://' + location.host + '/ws?token=' + encodeURIComponent(token));
  await new Promise((resolve) => (socket.onopen = resolve));
  const times = [];
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    socket.send(JSON.stringify({ t: 'req', id: k + 1, method: 'nodes.details', params: { nodeIds: ids } }));
    await new Promise((resolve) => (socket.onmessage = (event) => { JSON.parse(event.data); resolve(); }));
    times.push(performance.now() - start);
  }
  socket.close();
  return times.sort((a, b) => a - b)[1];
})`;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const median = (values: number[]) => percentile(values, 0.5);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Runs `phase` under the CPU profiler when ARBOR_BENCH_PROFILE is set. */
async function profiled<T>(cdp: CDPSession, name: string, phase: () => Promise<T>): Promise<T> {
  const dir = process.env.ARBOR_BENCH_PROFILE;
  if (!dir) return phase();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await phase();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

function frames(times: number[]): string {
  const m = mean(times);
  return `mean ${m.toFixed(1)} ms (${(1000 / m).toFixed(0)} fps), p95 ${percentile(times, 0.95).toFixed(1)} ms, > 33 ms: ${times.filter((t) => t > 33).length}`;
}

async function scrollFigures(page: Page, cdp: CDPSession, mode: string): Promise<void> {
  const mounted = await page.locator('.conversation__item').count();
  for (const step of [60, 400]) {
    const times = (await profiled(cdp, `${mode}-scroll-${step}`, () => page.evaluate(`${SCROLL_SCRIPT}(['.conversation__scroll', 240, ${step}])`))) as number[];
    await page.evaluate(`${RAW_SCROLLER_SCRIPT}([${mounted}])`);
    const raw = (await page.evaluate(`${SCROLL_SCRIPT}(['#bench-raw-scroller', 240, ${step}])`)) as number[];
    await page.evaluate(`document.getElementById('bench-raw-scroller').remove()`);
    console.log(`  scroll ${step} px/frame × ${times.length}: ${frames(times)} | anchor: a plain div with the same ${mounted} rows mounted, ${frames(raw)}; ratio ${(mean(times) / mean(raw)).toFixed(2)}`);
  }
}

async function clickFigures(page: Page, cdp: CDPSession): Promise<void> {
  const ids = (await page.evaluate(`[...document.querySelectorAll('[data-testid="conversation-row"]')].map((r) => r.getAttribute('data-node-id'))`)) as (string | null)[];
  const clicks = async (conversation: boolean): Promise<number[]> => {
    const out: number[] = [];
    for (let k = 0; k < 9; k++) out.push((await page.evaluate(`(${CLICK_RUN})(${JSON.stringify({ index: k + 1, conversation, ids })})`)) as number);
    return out;
  };
  const withConversation = await profiled(cdp, 'split-click', () => clicks(true));
  await page.getByRole('button', { name: 'Graph', exact: true }).click();
  await page.locator('[data-testid="conversation"]').waitFor({ state: 'detached' });
  const graphOnly = await clicks(false);
  await page.getByRole('button', { name: 'Both', exact: true }).click();
  await page.locator('[data-testid="conversation"]').waitFor();
  const a = median(withConversation);
  const b = median(graphOnly);
  console.log(
    `  click in the graph → inspector, graph and transcript updated and painted, ${NODES} nodes: median ${a.toFixed(1)} ms of ${withConversation.length}, max ${Math.max(...withConversation).toFixed(1)} ms` +
      ` | anchor: the same clicks with the conversation hidden ${b.toFixed(1)} ms; the transcript's part ${(a - b).toFixed(1)} ms, ratio ${(a / b).toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'arbor-bench-conversation-'));
  try {
    const sessionId = '0b7c1d2e-0000-4000-8000-000000050000';
    const project = join(work, 'projects', '-home-dev-bench');
    mkdirSync(project, { recursive: true });
    const { lines, deepPrompt } = linearSession(NODES, sessionId, '/home/dev/bench');
    writeFileSync(join(project, `${sessionId}.jsonl`), lines.join('\n') + '\n');
    const dataDir = join(work, 'data');
    const cli = join(repoRoot, 'bin/arbor.cjs');
    const importStart = performance.now();
    execFileSync(process.execPath, [cli, 'import', join(work, 'projects'), '--data-dir', dataDir], { stdio: 'pipe' });
    console.log(`imported ${lines.length} lines in ${(performance.now() - importStart).toFixed(0)} ms`);
    const { url, server } = await startServe(cli, dataDir);
    try {
      const browser = await launchChromium();
      try {
        for (const mode of ['conversation', 'split'] as const) {
          const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
          const cdp = await page.context().newCDPSession(page);
          await page.addInitScript(`localStorage.setItem('arbor.conversation.v1', JSON.stringify({ mode: '${mode}', share: 0.5 })); ${MARKS_SCRIPT}`);
          const link = `${url}#session=${sessionId}&node=${deepPrompt}`;
          const start = performance.now();
          const selected = page.locator('[data-testid="conversation-row"][data-selected="true"]');
          await profiled(cdp, `${mode}-open`, async () => {
            await page.goto(link);
            await selected.waitFor({ state: 'visible', timeout: 60_000 });
            await selected.locator('.conv-row__body').waitFor({ state: 'visible', timeout: 60_000 });
          });
          const total = performance.now() - start;
          const marks = (await page.evaluate(`Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))`)) as Record<string, number>;
          const received = marks['arbor:graph:received'];
          const row = marks['conv:selected-row'];
          const content = marks['conv:selected-content'];
          const ids = (await page.evaluate(`[...document.querySelectorAll('[data-testid="conversation-row"]')].map((r) => r.getAttribute('data-node-id'))`)) as (string | null)[];
          const index = await selected.locator('xpath=..').getAttribute('data-index');
          const bare = (await page.evaluate(`${BARE_DETAILS_SCRIPT}([${JSON.stringify(ids)}])`)) as number;
          console.log(
            `${mode}: selected row ${index} of a ${NODES}-node branch on screen ${total.toFixed(0)} ms after navigation` +
              (received !== undefined && row !== undefined
                ? `; graph received → row ${(row - received).toFixed(0)} ms, → its content ${((content ?? row) - received).toFixed(0)} ms` +
                  ` | anchor: a bare nodes.details round trip of the same ${ids.length} rows ${bare.toFixed(1)} ms; content − row ${((content ?? row) - row).toFixed(0)} ms, ratio ${(((content ?? row) - row) / bare).toFixed(2)}`
                : ''),
          );
          if (mode === 'split') await clickFigures(page, cdp);
          await scrollFigures(page, cdp, mode);
          if (process.env.ARBOR_BENCH_SCREENSHOT) await page.screenshot({ path: `${process.env.ARBOR_BENCH_SCREENSHOT}-${mode}.png` });
          await page.close();
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

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
