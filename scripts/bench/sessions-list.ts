/**
 * Sessions-list benchmark: `npx tsx scripts/bench/sessions-list.ts [-- --sessions 20000 --dir /tmp/x --rounds 20]`.
 * Writes `sessions` small Claude Code transcripts with electron/demo's TranscriptBuilder (a prompt, an answer, a
 * second prompt re-asked from the first, spread over 40 projects; every tenth an orphan subagent file with no
 * session file of its own), imports them into a store kept in `--dir` (default: a folder in the temp dir named
 * after the size, reused by the next run), then times the service's `sessions.list` (every row, as the renderer
 * asks at start) beside the bare `SELECT id FROM sessions` on the same store in the same run, as a ratio.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random } from '../../shared/random';
import { encodeProjectDir } from '../../electron/demo/synthetic';
import { TranscriptBuilder } from '../../electron/demo/transcript-builder';
import { openDatabase } from '../../electron/db/database';
import { STORE_FILE } from '../../electron/service/service-core';
import { createArborService } from '../../electron/service/arbor-service';
import { argValue } from './bench-args';

const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');
const USAGE = { input_tokens: 3, cache_creation_input_tokens: 200, cache_read_input_tokens: 9000, output_tokens: 120 };

function writeCorpus(projects: string, sessions: number): void {
  const random = new Random(17);
  const start = new Date('2026-01-01T00:00:00Z').getTime();
  for (let index = 0; index < sessions; index++) {
    const cwd = `/home/dev/projects/app-${index % 40}`;
    const sessionId = random.uuid();
    const orphan = index % 10 === 9;
    const agentId = orphan ? random.base62(16) : undefined;
    const scope = { sessionId, cwd, version: '2.1.39', gitBranch: 'main', slug: `session-${index}`, ...(agentId ? { agentId } : {}) };
    const builder = new TranscriptBuilder(scope, random, new Date(start + index * 60_000));
    const first = builder.userPrompt(`Fix the flaky test number ${index} in the ingest pipeline`);
    builder.advance(2000);
    builder.assistant([{ type: 'text', text: `Looked at test ${index}: the clock was not injected.` }], 'claude-opus-4-6', USAGE, 'end_turn');
    builder.advance(2000);
    builder.parentNextOn(first);
    builder.userPrompt(`Try again for ${index}, without touching the clock`);
    const dir = join(projects, encodeProjectDir(cwd), ...(orphan ? [sessionId, 'subagents'] : []));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, orphan ? `agent-${agentId}.jsonl` : `${sessionId}.jsonl`), builder.take().join('\n') + '\n');
  }
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const sessions = Number(argValue('--sessions') ?? 20_000);
  const rounds = Number(argValue('--rounds') ?? 20);
  const root = argValue('--dir') ?? join(tmpdir(), `arbor-bench-sessions-list-${sessions}`);
  mkdirSync(root, { recursive: true });
  console.log(`bench:sessions-list in ${root} (kept for the next run; delete it to start over); load average ${load()}`);
  const projects = join(root, 'projects');
  const dataDir = join(root, 'data');
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: root, env: {} });
  try {
    if (!existsSync(join(root, 'store.json'))) {
      let started = performance.now();
      writeCorpus(projects, sessions);
      console.log(`corpus: ${sessions} transcripts written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      started = performance.now();
      const report = await service.api['import.run']({ paths: [projects] });
      console.log(`store built: ${report.sessions.length} sessions in ${((performance.now() - started) / 1000).toFixed(0)} s (load ${load()})`);
      writeFileSync(join(root, 'store.json'), JSON.stringify({ sessions }));
    }
    await service.idle();

    const handles = openDatabase(join(dataDir, STORE_FILE));
    const bare = handles.read.prepare<[], { id: string }>('SELECT id FROM sessions');
    const listTimes: number[] = [];
    const bareTimes: number[] = [];
    let rows = 0;
    for (let round = 0; round < rounds + 2; round++) {
      let started = performance.now();
      rows = bare.all().length;
      const bareMs = performance.now() - started;
      started = performance.now();
      const listed = await service.api['sessions.list']({});
      const listMs = performance.now() - started;
      if (round < 2) continue; // warm-up: statement caches, page cache
      bareTimes.push(bareMs);
      listTimes.push(listMs);
      if (listed.sessions.length === 0) throw new Error('sessions.list returned no rows');
    }
    handles.close();
    const list = median(listTimes);
    const anchor = median(bareTimes);
    const orphans = (await service.api['sessions.list']({})).sessions.filter((session) => session.orphanSubagent).length;
    console.log(`sessions: ${rows} stored, ${orphans} listed as orphan subagents`);
    console.log(
      `sessions.list (all rows, median of ${rounds}): ${list.toFixed(1)} ms; bare SELECT id FROM sessions ${anchor.toFixed(1)} ms; ratio ${(list / anchor).toFixed(1)}× (load ${load()})`,
    );
  } finally {
    await service.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
