/**
 * Where an append's import spends its time on a big session (issue 12): `tsx scripts/bench/append-profile.ts
 * --transcript FILE [--work DIR] [--rounds 3] [--profile out.cpuprofile]`.
 * The transcript (e.g. the bench's 1 GB one) is copied into DIR once and imported into DIR's store once; each
 * round then appends the transcript's held-back tail (`FILE.tail`) with fresh ids, so it is 100 new lines every
 * time, and imports it in this thread (importSessions, as the write worker runs it), timed, beside the raw
 * read+parse of the same lines. `--profile` writes the CPU profile of the last round's import and prints the
 * functions with the most self and total time. The work folder is kept: later runs append to the same store.
 * `--codex-mb N` instead of --transcript: a generated Codex rollout of N MB (codex-rollout-file.ts), each round
 * appending 100 more lines of it (whole turns).
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { openSessionStore } from '../../electron/db/session-store';
import { importSessions } from '../../electron/service/import-sessions';
import { transcriptReader } from '../../electron/service/transcript-reader';
import { argValue } from './bench-args';
import { codexTurns, writeCodexRollout } from './codex-rollout-file';
import { freshLines } from './fresh-lines';
import { RolloutBuilder } from '../../electron/demo/codex-rollout';

const CODEX_ID = '019e0000-0000-7000-8000-00000000a9e1';

const transcript = argValue('--transcript');
const codexMb = argValue('--codex-mb');
if (transcript === undefined && codexMb === undefined) throw new Error('--transcript FILE (with FILE.tail beside it) or --codex-mb N is needed');
const work = argValue('--work') ?? join(tmpdir(), 'arbor-append-profile');
const rounds = Number(argValue('--rounds') ?? 3);
const profileOut = argValue('--profile');
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');

function rawParseMs(text: string): number {
  const started = performance.now();
  for (const line of text.split('\n')) if (line.length > 0) JSON.parse(line);
  return performance.now() - started;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function summarize(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((sample, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let id: number | undefined = sample, first = true; id !== undefined; id = parent.get(id), first = false) {
      const frame = byId.get(id)!.callFrame;
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/wt-[^/]*\//, '')}:${frame.lineNumber + 1}`;
      if (first) self.set(name, (self.get(name) ?? 0) + ms);
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + ms);
      seen.add(name);
    }
  });
  const top = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
  console.log('  self time:');
  for (const [name, ms] of top(self, 25)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
  console.log('  total time (electron/ only):');
  for (const [name, ms] of top(new Map([...total].filter(([name]) => name.includes('electron/'))), 40)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
}

async function main(): Promise<void> {
  const projects = join(work, 'projects');
  const folder = join(projects, '-home-dev-projects-big');
  const copy = join(folder, codexMb === undefined ? 'session.jsonl' : `rollout-2026-11-30T09-00-00-${CODEX_ID}.jsonl`);
  const storeFile = join(work, 'arbor.sqlite');
  mkdirSync(folder, { recursive: true });
  const fresh = !existsSync(storeFile);
  // Codex: the builder of the rollout written (or, on a later run, one going on from a turn far past it: its lines are new).
  let codex: RolloutBuilder | null = null;
  let turn = 1_000_000 + Math.floor(Date.now() / 1000) * 10;
  if (codexMb !== undefined) codex = fresh ? await writeCodexRollout(copy, { id: CODEX_ID, cwd: '/work/app' }, Number(codexMb) * 1024 * 1024) : new RolloutBuilder({ id: CODEX_ID, cwd: '/work/app' });
  if (codex !== null && !fresh) codex.drain();
  const tail = codex === null ? readFileSync(`${transcript}.tail`, 'utf8') : '';
  if (fresh && codex === null) copyFileSync(transcript!, copy);
  const store = openSessionStore(storeFile);
  try {
    if (fresh) {
      const started = performance.now();
      await importSessions(store, transcriptReader, [projects], { jobId: 'first' });
      console.log(`first import ${((performance.now() - started) / 1000).toFixed(1)} s; load ${load()}`);
    }
    const inspector = new Session();
    inspector.connect();
    for (let round = 1; round <= rounds; round++) {
      const wal = existsSync(`${storeFile}-wal`) ? statSync(`${storeFile}-wal`).size : 0;
      let lines: string;
      if (codex === null) lines = freshLines(tail);
      else {
        const taken = codexTurns(codex, turn, 100);
        turn += taken.length; // more turns than it took: the next round's are new
        lines = taken.map((line) => `${line}\n`).join('');
      }
      const rawMs = rawParseMs(lines);
      appendFileSync(copy, lines);
      const profiling = profileOut !== undefined && round === rounds;
      if (profiling) {
        await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
        await inspector.post('Profiler.enable');
        await inspector.post('Profiler.start');
      }
      const cpu = process.cpuUsage();
      const started = performance.now();
      const outcome = await importSessions(store, transcriptReader, [projects], { jobId: `append-${round}` });
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const nodes = outcome.sessions.reduce((sum, session) => sum + session.nodes, 0);
      console.log(
        `round ${round}: ${nodes} nodes in ${ms.toFixed(1)} ms (cpu ${((used.user + used.system) / 1000).toFixed(1)} ms); raw parse of the lines ${rawMs.toFixed(2)} ms; WAL before it ${(wal / 1024 / 1024).toFixed(1)} MB; load ${load()}`,
      );
      if (profiling) {
        const { profile } = await inspector.post('Profiler.stop');
        writeFileSync(profileOut!, JSON.stringify(profile));
        summarize(profile as unknown as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] });
      }
    }
    inspector.disconnect();
  } finally {
    store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
