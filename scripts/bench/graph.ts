/**
 * `npm run bench:graph`: the session graph's layout against d3-hierarchy's tree() on the same trees
 * (target: ≤ 1.5× d3's time), and the time to a first interactive graph in Chromium for a 10k-node
 * session (target ≤ 1 s): session opened → graph nodes visible and a click selects a node.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hierarchy, tree as d3tree } from 'd3-hierarchy';
import { buildVisibleGraph, agentFoldId, runFoldId } from '../../shared/graph/folds';
import type { Forest } from '../../shared/graph/forest';
import { layoutLanes } from '../../shared/graph/lane-layout';
import { buildSessionStructure } from '../../shared/graph/session-structure';
import type { NodeKind, NodeSummary } from '../../shared/model';
import { mulberry32 } from '../../shared/random';

const repoRoot = resolve(__dirname, '../..');

/** Deterministic PRNG (mulberry32) with the helpers the session generator uses. */
function random(seed: number) {
  const next = mulberry32(seed);
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), chance: (p: number) => next() < p };
}

/**
 * A session shaped like a real one: turns of prompt → (thinking, text, tool calls with progress and hook
 * lines, parallel calls threaded the old way) → answer; ~6% of prompts rewind; some calls spawn subagents;
 * one compaction.
 */
export function syntheticGraph(count: number, seed: number): NodeSummary[] {
  const rnd = random(seed);
  const nodes: NodeSummary[] = [];
  let clock = Date.UTC(2026, 0, 5, 9);
  const add = (kind: NodeKind, parentId: string | null, extra: Partial<NodeSummary> = {}): string => {
    clock += rnd.int(200, 5000);
    const id = `node-${nodes.length}`;
    nodes.push({
      id, sessionId: 'bench', sourceId: id, parentSourceId: parentId, parentId, extraEdges: [], kind,
      timestamp: new Date(clock).toISOString(), label: `${kind} ${nodes.length}`,
      toolCalls: kind === 'tool_call' ? [{ id: `tu-${id}`, name: ['Read', 'Edit', 'Bash', 'Grep'][rnd.int(0, 3)]!, outcome: 'ok' }] : [],
      sidechain: false, agentId: null, model: null, ...extra,
    });
    return id;
  };
  const toolSteps = (from: string, steps: number, sidechain: boolean): string => {
    let last = from;
    for (let s = 0; s < steps && nodes.length < count; s++) {
      if (rnd.chance(0.5)) last = add('thinking', last, { sidechain });
      const parallel = rnd.chance(0.2) ? rnd.int(2, 3) : 1;
      const calls: string[] = [];
      for (let p = 0; p < parallel; p++) {
        last = add('tool_call', last, { sidechain });
        calls.push(last);
      }
      for (const call of calls) {
        add('progress', call, { sidechain }); // a hook line hanging off the call
        last = add(rnd.chance(0.05) ? 'error' : 'tool_result', parallel > 1 && call !== calls.at(-1) ? call : last, { sidechain });
      }
      if (!sidechain && rnd.chance(0.03)) {
        const spawn = add('tool_call', last);
        const agent = add('user', null, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: spawn }] });
        toolSteps(agent, rnd.int(3, 30), true);
        last = add('tool_result', spawn);
      }
    }
    return last;
  };
  let last = add('user', null);
  let previousPromptParent: string | null = null;
  let compacted = false;
  while (nodes.length < count) {
    const rewind: boolean = previousPromptParent !== null && rnd.chance(0.06);
    const parent: string | null = rewind ? previousPromptParent : last;
    previousPromptParent = parent;
    const prompt = add('user', parent);
    last = add('assistant', toolSteps(prompt, rnd.int(2, 12), false));
    if (!compacted && nodes.length > count * 0.5) {
      compacted = true;
      last = add('compaction', null, { extraEdges: [{ kind: 'logical', nodeId: last }] });
    }
  }
  return nodes;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(runs: number, work: () => void): number {
  for (let k = 0; k < 2; k++) work(); // warm up the JIT
  const samples: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** The same forest as a d3 hierarchy (a virtual root joins several roots). */
function toHierarchy(forest: Forest) {
  const children = (i: number): number[] => {
    const list = i < 0 ? forest.roots : forest.children.subarray(forest.childStart[i]!, forest.childStart[i + 1]!);
    return Array.from(list);
  };
  return hierarchy<number>(forest.roots.length === 1 ? forest.roots[0]! : -1, children);
}

function benchLayout(size: number): { ours: number; d3: number; visible: number; folded: number; structure: number } {
  const nodes = syntheticGraph(size, size);
  const structureMs = time(5, () => buildSessionStructure(nodes));
  const structure = buildSessionStructure(nodes);
  const everything = new Set<string>();
  for (let r = 0; r < structure.runStart.length; r++) everything.add(runFoldId(nodes[structure.runStart[r]!]!.id));
  for (let i = 0; i < nodes.length; i++) if (structure.agentRoot[i] === 1) everything.add(agentFoldId(nodes[i]!.id));
  const full = buildVisibleGraph(structure, everything);
  const folded = buildVisibleGraph(structure, new Set());
  const root = toHierarchy(full.forest);
  const layout = d3tree<number>().nodeSize([1, 1]);
  const runs = size >= 50_000 ? 7 : 15;
  const d3 = time(runs, () => layout(root));
  const ours = time(runs, () => layoutLanes(full.forest));
  return { ours, d3, visible: full.count, folded: folded.count, structure: structureMs };
}

const DOM_MARKS_SCRIPT = `(() => {
  const wanted = { 'dom:graph': '[data-testid="graph"]', 'dom:first-node': '[data-testid="graph-node"]' };
  const observer = new MutationObserver(() => {
    for (const [name, selector] of Object.entries(wanted)) {
      if (performance.getEntriesByName(name).length === 0 && document.querySelector(selector)) performance.mark(name);
    }
  });
  observer.observe(document, { subtree: true, childList: true });
})()`;

const READ_MARKS_SCRIPT = `Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]))`;

/** The time between consecutive stages of opening the session, as the page's own clock saw them. */
function stageBreakdown(marks: Record<string, number>): string {
  const stages: readonly (readonly [string, string])[] = [
    ['arbor:graph:sent', 'request'],
    ['arbor:graph:received', 'server + transfer'],
    ['arbor:graph:decoded', 'parse + decode'],
    ['arbor:graph:stored', 'store'],
    ['dom:graph', 'render'],
    ['dom:first-node', 'layout + mount'],
  ];
  const parts: string[] = [];
  for (let k = 1; k < stages.length; k++) {
    const from = marks[stages[k - 1]![0]];
    const to = marks[stages[k]![0]];
    parts.push(`${stages[k]![1]} ${from === undefined || to === undefined ? '?' : (to - from).toFixed(0)}`);
  }
  return parts.join(', ');
}

async function benchBrowser(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'arbor-bench-graph-'));
  try {
    const { syntheticSessionLines } = await import('../../electron/demo/synthetic');
    const project = join(work, 'projects', '-home-dev-bench');
    mkdirSync(project, { recursive: true });
    const sessionId = '0b7c1d2e-0000-4000-8000-000000010000';
    writeFileSync(join(project, `${sessionId}.jsonl`), [...syntheticSessionLines(10_000, { seed: 10, sessionId })].join('\n') + '\n');
    const dataDir = join(work, 'data');
    const cli = join(repoRoot, 'bin/arbor.cjs');
    execFileSync(process.execPath, [cli, 'import', join(work, 'projects'), '--data-dir', dataDir], { stdio: 'pipe' });
    const server = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
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
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        // Marks when the graph's container and its first node enter the DOM, next to the app's own
        // arbor:graph:* marks (renderer/src/client/graph-timing.ts), for the per-stage breakdown below.
        await page.addInitScript(DOM_MARKS_SCRIPT);
        await page.goto(url);
        const row = page.getByTestId('session-row').first();
        await row.waitFor({ timeout: 30_000 });
        const results: number[] = [];
        const breakdown: string[] = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          if (attempt > 0) {
            await page.goto(url);
            await row.waitFor({ timeout: 30_000 });
          }
          const start = performance.now();
          await row.click();
          await page.getByTestId('graph').waitFor({ timeout: 30_000 });
          const container = performance.now() - start;
          const node = page.locator('[data-testid="graph-node"][data-node-id]').nth(1);
          await node.waitFor({ state: 'visible', timeout: 30_000 });
          const visible = performance.now() - start;
          await node.click();
          await page.locator('[data-testid="graph-node"][data-selected="true"]').waitFor({ state: 'visible', timeout: 30_000 });
          results.push(performance.now() - start);
          const stages = stageBreakdown((await page.evaluate(READ_MARKS_SCRIPT)) as Record<string, number>);
          breakdown.push(`graph loaded ${container.toFixed(0)} ms, nodes visible ${visible.toFixed(0)} ms | in page: ${stages}`);
        }
        console.log(`  ${breakdown.join('\n  ')}`);
        const mounted = await page.locator('.react-flow__node').count();
        const shot = process.env.ARBOR_BENCH_SCREENSHOT;
        if (shot) await page.screenshot({ path: shot });
        return `first interactive graph, 10k-node session: ${results.map((ms) => ms.toFixed(0)).join(' / ')} ms (median ${median(results).toFixed(0)} ms, target ≤ 1000); mounted nodes ${mounted}`;
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

async function main(): Promise<void> {
  console.log('layout: ours (lane layout) vs d3-hierarchy tree() on the same fully expanded tree (median ms)');
  for (const size of [1_000, 10_000, 50_000]) {
    const r = benchLayout(size);
    console.log(
      `  ${String(size).padStart(6)} nodes: ours ${r.ours.toFixed(2)} ms, d3 ${r.d3.toFixed(2)} ms, ratio ${(r.ours / r.d3).toFixed(2)} (target ≤ 1.5)` +
        ` | structure ${r.structure.toFixed(1)} ms | visible folded ${r.folded} of ${r.visible}`,
    );
  }
  if (process.argv.includes('--no-browser')) return;
  try {
    console.log(await benchBrowser());
  } catch (error) {
    console.log(`browser part not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
