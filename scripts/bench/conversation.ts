/**
 * `npx tsx scripts/bench/conversation.ts` (after `npm run build`): the conversation view on one 50k-node
 * branch in Chromium against `arbor serve`. Opens the session at a node deep in the branch (through the
 * page's #session=…&node=… link) and measures the time to the selected row on screen and to its content,
 * then scrolls the transcript programmatically and counts frames.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** Scrolls the transcript by `step` px a frame for `frames` frames; returns each frame's duration. */
const SCROLL_SCRIPT = `(async ([frames, step]) => {
  const scroller = document.querySelector('.conversation__scroll');
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

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

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
          await page.addInitScript(`localStorage.setItem('arbor.conversation.v1', JSON.stringify({ mode: '${mode}', share: 0.5 })); ${MARKS_SCRIPT}`);
          const link = `${url}#session=${sessionId}&node=${deepPrompt}`;
          const start = performance.now();
          await page.goto(link);
          const selected = page.locator('[data-testid="conversation-row"][data-selected="true"]');
          await selected.waitFor({ state: 'visible', timeout: 60_000 });
          await selected.locator('.conv-row__body').waitFor({ state: 'visible', timeout: 60_000 });
          const total = performance.now() - start;
          const marks = (await page.evaluate(`Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))`)) as Record<string, number>;
          const received = marks['arbor:graph:received'];
          const row = marks['conv:selected-row'];
          const content = marks['conv:selected-content'];
          const rows = await page.locator('[data-testid="conversation-row"]').count();
          const index = await selected.evaluate((el) => el.parentElement?.getAttribute('data-index'));
          console.log(
            `${mode}: selected row ${index} on screen ${total.toFixed(0)} ms after navigation` +
              (received !== undefined && row !== undefined ? ` (graph received → row ${(row - received).toFixed(0)} ms, → its content ${((content ?? row) - received).toFixed(0)} ms)` : '') +
              `; rows mounted ${rows}`,
          );
          for (const step of [60, 400]) {
            const times = (await page.evaluate(`${SCROLL_SCRIPT}([240, ${step}])`)) as number[];
            const mean = times.reduce((a, b) => a + b, 0) / times.length;
            console.log(
              `  scroll ${step} px/frame × ${times.length}: mean frame ${mean.toFixed(1)} ms (${(1000 / mean).toFixed(0)} fps), p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms, frames > 33 ms: ${times.filter((t) => t > 33).length}`,
            );
          }
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
