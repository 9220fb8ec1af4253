/**
 * Import benchmark: `npm run bench:import [-- --mb 200] [--single 50,250,1000] [--corpus DIR] [--skip-corpus]`.
 * Cases: a synthetic Claude Code corpus (default ~200 MB, ~2000 nodes per session) and single generated
 * transcripts of the --single sizes (MB). Each case runs in a child process, which measures in the same run:
 *   - the raw anchor: read 1 MiB chunks, split lines, JSON.parse each line, store nothing;
 *   - Arbor's import: the service's import.run into a fresh data folder (parse, group, dedupe, store, link);
 *   - the background full-text indexing that follows, separately;
 *   - the anchor again (the faster reading is the one compared: the machine is shared);
 *   - appending the transcript's last 100 lines (held back when it was written) and importing again.
 * Memory is measured from outside: this process samples the child's /proc/<pid>/status (VmRSS every 20 ms,
 * whatever the child's event loop is doing), beside the kernel's own peak (VmHWM) the child reads at the end of
 * each phase. Disk: the child's /proc/self/io write_bytes per phase, and the store's size, as ratios to the input.
 * Targets: import MB/s ≥ 0.5 × the anchor's and flat as the file grows; peak RSS ≤ 500 MB; an append of 100
 * lines ≤ 50 ms; bytes written ≤ 3× the input.
 * --corpus DIR keeps the generated transcripts there and reuses them on the next run (default: a temp folder,
 * removed at the end). Wall-clock rates are what the targets are about; CPU-time rates are printed too because a
 * busy machine distorts wall-clock figures.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, open, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticSessionLines, writeSyntheticCorpus } from '../../electron/demo/synthetic';
import { createArborService } from '../../electron/service/arbor-service';
import { argValue } from './bench-args';

const MiB = 1024 * 1024;
const APPENDED_LINES = 100;
/** Bytes per node of the generator's sessions, to size a single transcript (measured: ~2.9 KB). */
const BYTES_PER_NODE = 2900;

const mb = (bytes: number): string => (bytes / MiB).toFixed(1);
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');

// ---------------------------------------------------------------- child: one case, in its own process

/** The anchor: what merely reading and parsing every line costs. */
async function rawParse(files: readonly string[]): Promise<{ lines: number; bytes: number }> {
  const buffer = Buffer.allocUnsafe(MiB);
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    const handle = await open(file, 'r');
    try {
      let carry: Buffer = Buffer.alloc(0);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, MiB, null);
        if (bytesRead === 0) break;
        bytes += bytesRead;
        const chunk = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
        let start = 0;
        for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
          if (end > start) {
            JSON.parse(chunk.toString('utf8', start, end));
            lines++;
          }
          start = end + 1;
        }
        carry = Buffer.from(chunk.subarray(start));
      }
      if (carry.length > 0) {
        JSON.parse(carry.toString('utf8'));
        lines++;
      }
    } finally {
      await handle.close();
    }
  }
  return { lines, bytes };
}

function procField(file: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) : 0;
}
const writtenBytes = (): number => procField('/proc/self/io', 'write_bytes');
const kernelPeakRss = (): number => procField('/proc/self/status', 'VmHWM') * 1024;

/** The store's bytes: the database file and, apart, its write-ahead log (folded back into it when closed). */
async function storeBytes(dir: string): Promise<{ db: number; wal: number }> {
  const sizes = { db: 0, wal: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.includes('.sqlite')) continue;
    const size = (await stat(join(dir, entry.name))).size;
    if (entry.name.endsWith('-wal')) sizes.wal += size;
    else sizes.db += size;
  }
  return sizes;
}

interface ChildReport {
  readonly rawSeconds: number;
  readonly rawCpu: number;
  readonly rawAgainSeconds: number;
  readonly rawAgainCpu: number;
  readonly bytes: number;
  readonly lines: number;
  readonly importSeconds: number;
  readonly importCpu: number;
  readonly nodes: number;
  readonly sessions: number;
  readonly problems: number;
  readonly importWritten: number;
  readonly importPeakRss: number;
  readonly storeAfterImport: { db: number; wal: number };
  readonly indexSeconds: number;
  readonly indexWritten: number;
  readonly storeAfterIndex: { db: number; wal: number };
  readonly appendMs: number | null;
  readonly appendNodes: number | null;
  readonly peakRss: number;
}

async function child(): Promise<void> {
  const projects = argValue('--projects')!;
  const files = argValue('--files')!.split('\n');
  const tail = argValue('--tail');
  const appendTo = argValue('--append-to');
  const dataDir = await mkdtemp(join(tmpdir(), 'arbor-bench-import-data-'));
  const phase = (name: string): void => void process.stdout.write(`phase ${name}\n`);
  try {
    await rawParse(files); // warm the page cache so both measurements read from memory
    phase('raw');
    let started = performance.now();
    let cpu = process.cpuUsage();
    const raw = await rawParse(files);
    const rawSeconds = (performance.now() - started) / 1000;
    const rawCpu = cpuSeconds(process.cpuUsage(cpu));

    const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
    try {
      phase('import');
      let written = writtenBytes();
      started = performance.now();
      cpu = process.cpuUsage();
      const report = await service.api['import.run']({ paths: [projects] });
      const importSeconds = (performance.now() - started) / 1000;
      const importCpu = cpuSeconds(process.cpuUsage(cpu));
      const importWritten = writtenBytes() - written;
      const importPeakRss = kernelPeakRss();
      const storeAfterImport = await storeBytes(dataDir);

      phase('index');
      written = writtenBytes();
      started = performance.now();
      await service.idle();
      const indexSeconds = (performance.now() - started) / 1000;
      const indexWritten = writtenBytes() - written;
      const storeAfterIndex = await storeBytes(dataDir);

      // The anchor again, after: on a loaded machine one short reading can land in a quiet or a busy moment.
      phase('raw-again');
      started = performance.now();
      cpu = process.cpuUsage();
      await rawParse(files);
      const rawAgainSeconds = (performance.now() - started) / 1000;
      const rawAgainCpu = cpuSeconds(process.cpuUsage(cpu));

      let appendMs: number | null = null;
      let appendNodes: number | null = null;
      if (tail !== undefined && appendTo !== undefined) {
        phase('append');
        const size = (await stat(appendTo)).size;
        await appendFile(appendTo, readFileSync(tail));
        try {
          started = performance.now();
          const appended = await service.api['import.run']({ paths: [projects] });
          appendMs = performance.now() - started;
          appendNodes = appended.sessions.reduce((sum, session) => sum + session.nodes, 0);
          await service.idle();
        } finally {
          await truncate(appendTo, size); // the transcript is reused by the next run
        }
      }
      const result: ChildReport = {
        rawSeconds, rawCpu, rawAgainSeconds, rawAgainCpu, bytes: raw.bytes, lines: raw.lines, importSeconds, importCpu,
        nodes: report.sessions.reduce((sum, session) => sum + session.nodes, 0), sessions: report.sessions.length,
        problems: report.problems.length, importWritten, importPeakRss, storeAfterImport, indexSeconds, indexWritten,
        storeAfterIndex, appendMs, appendNodes, peakRss: kernelPeakRss(),
      };
      process.stdout.write(`result ${JSON.stringify(result)}\n`);
    } finally {
      await service.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- parent: inputs, child runs, sampling

/** One generated session written as a Claude Code transcript, its last lines held back in `<file>.tail`. */
async function writeSingleTranscript(projects: string, targetMb: number): Promise<{ file: string; tail: string }> {
  const dir = join(projects, '-home-dev-projects-big');
  const file = join(dir, `single-${targetMb}mb.jsonl`);
  const tail = `${file}.tail`;
  if (existsSync(file) && existsSync(tail)) return { file, tail };
  await mkdir(dir, { recursive: true });
  const stream = createWriteStream(file);
  const held: string[] = [];
  let chunk = '';
  const nodes = Math.ceil((targetMb * MiB) / BYTES_PER_NODE);
  for (const line of syntheticSessionLines(nodes, { seed: 7, sessionId: `single-${targetMb}mb` })) {
    held.push(line);
    if (held.length <= APPENDED_LINES) continue;
    chunk += `${held.shift()!}\n`;
    if (chunk.length >= 256 * 1024) {
      if (!stream.write(chunk)) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end(chunk);
  await once(stream, 'finish');
  await writeFile(tail, held.map((line) => `${line}\n`).join(''));
  return { file, tail };
}

interface Sampled {
  readonly report: ChildReport;
  /** Max VmRSS seen by this process's sampler per child phase. */
  readonly sampledPeak: ReadonlyMap<string, number>;
}

async function runChild(args: readonly string[]): Promise<Sampled> {
  const proc = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--child', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sampledPeak = new Map<string, number>();
  let phase = 'start';
  let report: ChildReport | null = null;
  let pending = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (data: string) => {
    pending += data;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.startsWith('phase ')) phase = line.slice(6);
      else if (line.startsWith('result ')) report = JSON.parse(line.slice(7)) as ChildReport;
      else console.log(`  [child] ${line}`);
    }
  });
  const sample = (): void => {
    try {
      const rss = procField(`/proc/${proc.pid}/status`, 'VmRSS') * 1024;
      sampledPeak.set(phase, Math.max(sampledPeak.get(phase) ?? 0, rss));
    } catch {
      // the child has exited
    }
  };
  const timer = setInterval(sample, 20);
  const [code] = (await once(proc, 'exit')) as [number | null];
  clearInterval(timer);
  if (code !== 0 || report === null) throw new Error(`bench child failed (exit ${code})`);
  return { report, sampledPeak };
}

function printCase(name: string, inputBytes: number, { report: r, sampledPeak }: Sampled): void {
  // The slower of the two anchor readings (before and after the import) is the one load hit harder.
  const rawRate = r.bytes / MiB / Math.min(r.rawSeconds, r.rawAgainSeconds);
  const importRate = inputBytes / MiB / r.importSeconds;
  const ratio = importRate / rawRate;
  const importRss = sampledPeak.get('import') ?? 0;
  const overall = Math.max(...sampledPeak.values());
  console.log(`== ${name}: ${mb(inputBytes)} MB, ${r.lines} lines; load average ${load()}`);
  console.log(
    `  raw anchor: ${rawRate.toFixed(1)} MB/s, the faster of ${(r.bytes / MiB / r.rawSeconds).toFixed(1)} before and ${(r.bytes / MiB / r.rawAgainSeconds).toFixed(1)} after the import (cpu ${(r.bytes / MiB / Math.min(r.rawCpu, r.rawAgainCpu)).toFixed(1)} MB/cpu-s)`,
  );
  console.log(
    `  arbor import: ${r.sessions} sessions, ${r.nodes} nodes, ${r.problems} problems in ${r.importSeconds.toFixed(2)} s = ${importRate.toFixed(1)} MB/s; ` +
      `ratio to raw ${ratio.toFixed(2)} (target >= 0.5) ${ratio >= 0.5 ? 'OK' : 'MISSED'}; cpu ratio ${(Math.min(r.rawCpu, r.rawAgainCpu) / r.importCpu).toFixed(2)}`,
  );
  console.log(
    `  peak RSS during import: ${mb(importRss)} MB sampled from outside (VmRSS /20 ms), kernel VmHWM ${mb(r.importPeakRss)} MB (target <= 500) ${Math.max(importRss, r.importPeakRss) <= 500 * MiB ? 'OK' : 'MISSED'}`,
  );
  console.log(`  peak RSS whole child (incl. indexing and append): sampled ${mb(overall)} MB, VmHWM ${mb(r.peakRss)} MB`);
  console.log(
    `  written during import: ${mb(r.importWritten)} MB = ${(r.importWritten / inputBytes).toFixed(2)}x input (target <= 3); during indexing ${mb(r.indexWritten)} MB = ${(r.indexWritten / inputBytes).toFixed(2)}x`,
  );
  console.log(
    `  store file: ${mb(r.storeAfterImport.db)} MB after import = ${(r.storeAfterImport.db / inputBytes).toFixed(2)}x input (WAL beside it ${mb(r.storeAfterImport.wal)} MB), ` +
      `${mb(r.storeAfterIndex.db)} MB indexed = ${(r.storeAfterIndex.db / inputBytes).toFixed(2)}x (WAL ${mb(r.storeAfterIndex.wal)} MB); full-text indexing ${r.indexSeconds.toFixed(2)} s`,
  );
  if (r.appendMs !== null) {
    console.log(
      `  append ${APPENDED_LINES} lines (${r.appendNodes} nodes) and re-import: ${r.appendMs.toFixed(1)} ms in-process (target <= 50) ${r.appendMs <= 50 ? 'OK' : 'MISSED'}; the full import took ${(r.importSeconds * 1000).toFixed(0)} ms`,
    );
  }
}

async function parent(): Promise<void> {
  const corpusMb = Number(argValue('--mb') ?? 200);
  const singles = (argValue('--single') ?? '50,250,1000').split(',').filter(Boolean).map(Number);
  if (!Number.isFinite(corpusMb) || corpusMb <= 0 || singles.some((size) => !Number.isFinite(size) || size <= 0)) {
    throw new Error('--mb and --single need positive numbers');
  }
  const keep = argValue('--corpus');
  const root = keep ?? (await mkdtemp(join(tmpdir(), 'arbor-bench-import-')));
  console.log(`inputs in ${root}${keep ? ' (kept for the next run)' : ''}; load average ${load()}`);
  try {
    if (!process.argv.includes('--skip-corpus')) {
      const projects = join(root, `corpus-${corpusMb}mb`);
      const listing = join(root, `corpus-${corpusMb}mb.files`);
      let files: string[];
      if (existsSync(listing)) files = readFileSync(listing, 'utf8').split('\n').filter(Boolean);
      else {
        await rm(projects, { recursive: true, force: true });
        files = (await writeSyntheticCorpus(projects, { totalBytes: corpusMb * MiB, nodesPerSession: 2000, seed: 42 })).files;
        await writeFile(listing, files.join('\n'));
      }
      let bytes = 0;
      for (const file of files) bytes += (await stat(file)).size;
      printCase(`corpus (${files.length} files)`, bytes, await runChild(['--projects', projects, '--files', files.join('\n')]));
    }
    for (const size of singles) {
      const projects = join(root, `single-${size}mb`);
      const { file, tail } = await writeSingleTranscript(projects, size);
      const bytes = (await stat(file)).size;
      printCase(`one transcript`, bytes, await runChild(['--projects', projects, '--files', file, '--tail', tail, '--append-to', file]));
    }
  } finally {
    if (!keep) await rm(root, { recursive: true, force: true });
  }
}

(process.argv.includes('--child') ? child() : parent()).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
