/**
 * Where a big import's CPU goes, per thread: `tsx scripts/bench/import-cpu.ts --transcript FILE [--rounds 2]
 * [--service]`, FILE inside a projects folder (`<projects>/<project>/<session>.jsonl`, as bench:import writes them:
 * `--single 250 --corpus DIR` keeps one). Each round imports the projects folder into a fresh store, in this thread
 * (importSessions with the parse worker, as the write worker runs it) or, with `--service`, through the service's
 * import.run (its write worker, as bench:import runs it, without the web host and its probes), and prints the
 * process's CPU time (all threads) per MB beside the raw anchor measured in the same round (read 1 MiB chunks,
 * split lines, JSON.parse each), their ratio, the load average, and each thread's CPU time (/proc/self/task: the
 * import's two threads, V8's platform threads for GC and compiling, libuv's). Its CPU profile, every thread's:
 * `node --cpu-prof --cpu-prof-dir=DIR --import tsx scripts/bench/import-cpu.ts ...` (the workers inherit the flag).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openSessionStore } from '../../electron/db/session-store';
import { createArborService } from '../../electron/service/arbor-service';
import { importSessions } from '../../electron/service/import-sessions';
import { transcriptReader } from '../../electron/service/transcript-reader';
import { startParseWorker, WRITE_WORKER_TURN_MS } from '../../electron/importers/worker/parse-worker';
import { argValue } from './bench-args';
import { rawParse } from './raw-parse';

const MiB = 1024 * 1024;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** CPU ms of each of this process's threads so far (Linux: /proc/self/task), by thread id, with its name. */
function threadCpu(): Map<string, { name: string; ms: number }> {
  const threads = new Map<string, { name: string; ms: number }>();
  if (!existsSync('/proc/self/task')) return threads;
  const tick = 1000 / 100; // USER_HZ
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, { name, ms: (Number(fields[11]) + Number(fields[12])) * tick });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** The CPU each thread used between `before` and its last reading in `seen`, the busiest first (Linux names them all "node"). */
function threadCpuSince(before: Map<string, { name: string; ms: number }>, seen: Map<string, { name: string; ms: number }>): string {
  const used: [string, number][] = [];
  for (const [tid, now] of seen) {
    const ms = now.ms - (before.get(tid)?.ms ?? 0);
    if (ms > 0) used.push([tid === String(process.pid) ? 'main' : tid, ms]);
  }
  return used.sort((a, b) => b[1] - a[1]).map(([tid, ms]) => `${tid} ${ms.toFixed(0)}`).join(', ');
}


async function main(): Promise<void> {
  const transcript = argValue('--transcript');
  if (transcript === undefined) throw new Error('--transcript FILE is needed');
  const rounds = Number(argValue('--rounds') ?? 2);
  const viaService = process.argv.includes('--service');
  const mb = statSync(transcript).size / MiB;
  const reader = { ...transcriptReader, startWorker: () => startParseWorker({ turnBudgetMs: WRITE_WORKER_TURN_MS }) };
  await rawParse([transcript]); // page cache
  for (let round = 1; round <= rounds; round++) {
    let cpu = process.cpuUsage();
    await rawParse([transcript]);
    const anchor = cpuMs(process.cpuUsage(cpu)) / mb;
    const work = mkdtempSync(join(tmpdir(), 'cpu-import-'));
    // --service: the service's import.run, as the bench runs it (its write worker, with the workers' heap limits).
    const service = viaService ? await createArborService({ dataDir: work, host: 'cli', version: 'bench', homeDir: work, env: {} }) : null;
    const store = viaService ? null : openSessionStore(join(work, 'arbor.sqlite'));
    try {
      const loadBefore = load();
      const threadsBefore = threadCpu();
      // Read every 50 ms: the parse worker's thread is gone by the end.
      const seen = new Map(threadsBefore);
      const sampler = setInterval(() => {
        for (const [tid, now] of threadCpu()) seen.set(tid, now);
      }, 50);
      cpu = process.cpuUsage();
      const started = performance.now();
      const projects = dirname(dirname(transcript));
      const outcome = store !== null
        ? await importSessions(store, reader, [projects], { jobId: `round-${round}` })
        : await service!.api['import.run']({ paths: [projects] });
      clearInterval(sampler);
      for (const [tid, now] of threadCpu()) seen.set(tid, now);
      const seconds = (performance.now() - started) / 1000;
      const used = cpuMs(process.cpuUsage(cpu)) / mb;
      const nodes = outcome.sessions.reduce((sum, session) => sum + session.nodes, 0);
      console.log(
        `round ${round}: ${mb.toFixed(1)} MB, ${nodes} nodes, ${seconds.toFixed(1)} s wall; import ${used.toFixed(1)} cpu-ms/MB (all threads), anchor ${anchor.toFixed(1)} cpu-ms/MB, cpu ratio ${(anchor / used).toFixed(3)}; load ${loadBefore} → ${load()}`,
      );
      console.log(`  cpu-ms per thread: ${threadCpuSince(threadsBefore, seen)}`);
    } finally {
      store?.close();
      await service?.close();
      rmSync(work, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
