/**
 * `sessions.states` benchmark: `tsx scripts/bench/states.ts [--mb 239] [--dir DIR] [--store NAME] [--cpu-prof DIR]`.
 * One generated Claude Code transcript of about --mb MB (bench:import's generator: edits, Write, Bash, file-history
 * backups), imported once into DIR/NAME (kept: the next run with the same --dir and --store measures the same
 * store, so a store made by an older build can be measured by a newer one). Then, in a child process of its own:
 *   - the anchor: the same transcript's lines read and JSON.parse'd (scripts/bench/raw-parse.ts), storing nothing;
 *   - `sessions.states` for the session on a freshly opened service, as the renderer asks for it (wall, CPU);
 *   - the anchor again (the faster of the two is printed: the machine is shared).
 * Memory is read from outside: this process samples the child's /proc/<pid>/status (VmRSS every 20 ms) and prints the
 * peak during the states beside the RSS the child had just before them. The load average is printed with each figure.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createArborService } from '../../electron/service/arbor-service';
import { argValue } from './bench-args';
import { rawParse } from './raw-parse';
import { writeSingleTranscript } from './synthetic-transcript';

const MiB = 1024 * 1024;
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');
const rssOf = (pid: number): number => {
  try {
    const match = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // the child has ended
  }
};

interface StatesReport {
  readonly nodes: number;
  readonly known: Record<string, number>;
  readonly statesMs: number;
  readonly statesCpu: number;
  readonly rawMs: number;
  readonly rawCpu: number;
  readonly rawBytes: number;
}

async function importInto(dataDir: string, projects: string): Promise<void> {
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
  try {
    const report = await service.api['import.run']({ paths: [projects] });
    await service.idle();
    process.stdout.write(`imported ${report.sessions.reduce((sum, session) => sum + session.nodes, 0)} nodes\n`);
  } finally {
    await service.close();
  }
}

async function child(): Promise<void> {
  const dataDir = argValue('--data')!;
  const file = argValue('--file')!;
  await rawParse([file]); // warm the page cache
  const anchor = async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { bytes } = await rawParse([file]);
    return { ms: performance.now() - started, cpu: cpuSeconds(process.cpuUsage(cpu)), bytes };
  };
  const before = await anchor();
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
  try {
    await service.idle();
    const list = await service.api['sessions.list']({});
    const session = list.sessions[0];
    if (session === undefined) throw new Error('no session in the store');
    process.stdout.write('phase states\n');
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { known } = await service.api['sessions.states']({ sessionId: session.id });
    const statesMs = performance.now() - started;
    const statesCpu = cpuSeconds(process.cpuUsage(cpu));
    process.stdout.write('phase after\n');
    const after = await anchor();
    const raw = before.ms <= after.ms ? before : after;
    const counts: Record<string, number> = {};
    for (const state of Object.values(known)) counts[state] = (counts[state] ?? 0) + 1;
    const report: StatesReport = { nodes: session.nodeCount, known: counts, statesMs, statesCpu, rawMs: raw.ms, rawCpu: raw.cpu, rawBytes: raw.bytes };
    process.stdout.write(`result ${JSON.stringify(report)}\n`);
  } finally {
    await service.close();
  }
}

async function parent(): Promise<void> {
  const mb = Number(argValue('--mb') ?? '239');
  const dir = argValue('--dir') ?? (await mkdtemp(join(tmpdir(), 'arbor-bench-states-')));
  const storeName = argValue('--store') ?? 'store';
  const profile = argValue('--cpu-prof');
  const projects = join(dir, 'projects');
  const { file } = await writeSingleTranscript(projects, mb);
  const dataDir = join(dir, storeName);
  if (!existsSync(dataDir)) {
    await mkdir(dataDir, { recursive: true });
    const started = performance.now();
    await importInto(dataDir, projects);
    process.stdout.write(`import into ${dataDir}: ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})\n`);
  }
  const args = [...process.execArgv, ...(profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`]), process.argv[1]!, '--child', '--data', dataDir, '--file', file];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let phase = 'open';
  let rssBefore = 0;
  let peak = 0;
  const sampler = setInterval(() => {
    const rss = rssOf(proc.pid!);
    if (phase === 'open') rssBefore = rss;
    else if (phase === 'states') peak = Math.max(peak, rss);
  }, 20);
  let report: StatesReport | undefined;
  let loadAtStates = '';
  for await (const line of createInterface({ input: proc.stdout! })) {
    if (line.startsWith('phase ')) {
      phase = line.slice(6);
      if (phase === 'states') loadAtStates = load();
    } else if (line.startsWith('result ')) report = JSON.parse(line.slice(7)) as StatesReport;
    else process.stdout.write(`${line}\n`);
  }
  clearInterval(sampler);
  if (report === undefined) throw new Error('the child gave no result');
  const rawRate = report.rawBytes / MiB / (report.rawCpu || 1e-9);
  process.stdout.write(
    `sessions.states, ${(report.rawBytes / MiB).toFixed(1)} MiB transcript, ${report.nodes} nodes (load ${loadAtStates} at the start, ${load()} at the end)\n` +
      `  states: ${report.statesMs.toFixed(0)} ms wall, ${(report.statesCpu * 1000).toFixed(0)} cpu-ms; known ${JSON.stringify(report.known)}\n` +
      `  anchor (raw JSON.parse of the same lines): ${report.rawMs.toFixed(0)} ms wall, ${(report.rawCpu * 1000).toFixed(0)} cpu-ms (${rawRate.toFixed(0)} MiB/cpu-s)\n` +
      `  states / anchor CPU: ${(report.statesCpu / (report.rawCpu || 1e-9)).toFixed(2)}x\n` +
      `  RSS (sampled outside): ${(rssBefore / MiB).toFixed(1)} MB opened, peak ${(peak / MiB).toFixed(1)} MB during the states\n`,
  );
  if (argValue('--dir') === undefined) await rm(dir, { recursive: true, force: true });
}

void (process.argv.includes('--child') ? child() : parent());
