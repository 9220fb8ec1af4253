/**
 * Import benchmark: `npm run bench:import [-- --mb N]`.
 * Writes a synthetic Claude Code corpus (default ~200 MB, ~2000 nodes per session) to a temp folder, then
 * measures in the same run:
 *   - the raw anchor: read 1 MiB chunks, split lines, JSON.parse each line, store nothing;
 *   - Arbor's import: the service's import.run into a fresh data folder (parse, group, dedupe, store, link);
 *   - the background full-text indexing that follows, separately;
 *   - as a diagnostic, the Claude Code parser alone (no store).
 * Targets: Arbor's MB/s ≥ 0.5 × the anchor's; peak RSS < 500 MB.
 * Wall-clock rates are what the targets are about; CPU-time rates are printed too because a busy machine
 * (other processes on the same cores) distorts wall-clock figures.
 * RSS is reported two ways: sampled every 20 ms during the import (process.memoryUsage().rss, the figure
 * checked against the target), and process.resourceUsage().maxRSS (the whole process's lifetime peak).
 */
import { open, rm, mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticCorpus } from '../../electron/demo/synthetic';
import { discoverClaudeTranscripts, parseClaudeTranscript } from '../../electron/importers/claude-code';
import { createArborService } from '../../electron/service/arbor-service';

const MiB = 1024 * 1024;

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

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

function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

const mb = (bytes: number): string => (bytes / MiB).toFixed(1);
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

async function main(): Promise<void> {
  const targetMb = Number(argValue('--mb') ?? 200);
  if (!Number.isFinite(targetMb) || targetMb <= 0) throw new Error('--mb needs a positive number');
  const root = await mkdtemp(join(tmpdir(), 'arbor-bench-import-'));
  try {
    const projectsDir = join(root, 'projects');
    let started = performance.now();
    const corpus = await writeSyntheticCorpus(projectsDir, { totalBytes: targetMb * MiB, nodesPerSession: 2000, seed: 42 });
    console.log(`corpus: ${mb(corpus.bytes)} MB, ${corpus.files.length} files, ${corpus.nodes} nodes (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

    await rawParse(corpus.files); // warm the page cache so both measurements read from memory
    started = performance.now();
    let cpu = process.cpuUsage();
    const raw = await rawParse(corpus.files);
    const rawSeconds = (performance.now() - started) / 1000;
    const rawCpu = cpuSeconds(process.cpuUsage(cpu));
    const rawRate = raw.bytes / MiB / rawSeconds;
    console.log(
      `raw anchor: ${raw.lines} lines in ${rawSeconds.toFixed(2)} s = ${rawRate.toFixed(1)} MB/s (cpu ${rawCpu.toFixed(2)} s = ${(raw.bytes / MiB / rawCpu).toFixed(1)} MB/cpu-s)`,
    );

    // Diagnostic: the Claude Code parser alone (no store), to show where the import's time goes.
    const { files: transcripts } = await discoverClaudeTranscripts([projectsDir]);
    started = performance.now();
    cpu = process.cpuUsage();
    for (const file of transcripts) {
      await parseClaudeTranscript(file, { node() {}, record() {}, problem() {} }, { startOffset: 0, startLine: 1 });
    }
    const parseSeconds = (performance.now() - started) / 1000;
    const parseCpu = cpuSeconds(process.cpuUsage(cpu));
    console.log(
      `parser only (no store): ${parseSeconds.toFixed(2)} s = ${(corpus.bytes / MiB / parseSeconds).toFixed(1)} MB/s (cpu ${parseCpu.toFixed(2)} s)`,
    );

    const service = await createArborService({
      dataDir: join(root, 'data'),
      host: 'cli',
      version: 'bench',
      homeDir: root,
      env: {},
    });
    try {
      const rss = sampleRss();
      started = performance.now();
      cpu = process.cpuUsage();
      const report = await service.api['import.run']({ paths: [projectsDir] });
      const importSeconds = (performance.now() - started) / 1000;
      const importCpu = cpuSeconds(process.cpuUsage(cpu));
      const peakRss = rss.stop();
      const importRate = corpus.bytes / MiB / importSeconds;
      const nodes = report.sessions.reduce((sum, session) => sum + session.nodes, 0);
      console.log(
        `arbor import: ${report.sessions.length} sessions, ${nodes} nodes, ${report.problems.length} problems in ${importSeconds.toFixed(2)} s = ${importRate.toFixed(1)} MB/s (cpu ${importCpu.toFixed(2)} s = ${(corpus.bytes / MiB / importCpu).toFixed(1)} MB/cpu-s, all threads)`,
      );
      started = performance.now();
      await service.idle();
      const indexSeconds = (performance.now() - started) / 1000;
      console.log(`background full-text indexing: ${indexSeconds.toFixed(2)} s after import returned`);

      const ratio = importRate / rawRate;
      const maxRss = process.resourceUsage().maxRSS * 1024;
      console.log(`ratio arbor/raw (wall): ${ratio.toFixed(2)} (target >= 0.5) ${ratio >= 0.5 ? 'OK' : 'MISSED'}`);
      console.log(`ratio arbor/raw (cpu time, all threads): ${(rawCpu / importCpu).toFixed(2)}; load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
      console.log(`peak RSS during import (sampled every 20 ms): ${mb(peakRss)} MB (target < 500) ${peakRss < 500 * MiB ? 'OK' : 'MISSED'}`);
      console.log(`process maxRSS (resourceUsage, whole run incl. corpus writing): ${mb(maxRss)} MB`);
    } finally {
      await service.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
