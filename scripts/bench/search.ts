/**
 * Search benchmark: `npm run bench:search [-- --messages 1000000 --dir /tmp/x --rounds 200 --data /tmp/x/data-v17]`.
 * Writes about `messages` synthetic Claude Code messages with electron/demo's generator (streamed, in parts,
 * until there are enough), imports them into a store and lets the background indexer finish: both are kept in
 * `--dir` (default: a folder in the temp dir named after the size), so a second run reuses them.
 * Then, in-process through the service's `search.query` (top 50, with its bounded count), it measures p50/p99
 * latency for a rare word, common words, one-, two- and three-letter prefixes (the first keystrokes of
 * search-as-you-type), a two-word phrase and filtered queries, each printed beside `grep -F` over the same
 * transcript files in the same run (first 50 matching lines: `grep -rF -m 50 … | head -n 50`), as a ratio.
 * `--data` names a store folder made by an older schema (a copy: it is migrated in place on open, without
 * re-reading the transcripts) instead of `data-v<schema>` in `--dir`, which a missing store would be rebuilt as.
 * Targets: p50 ≤ 5 ms, p99 ≤ 50 ms. Also prints the store's size beside the transcripts' (target ≤ 1.3×).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchFilters } from '../../shared/model';
import { writeSyntheticCorpus } from '../../electron/demo/synthetic';
import { MIGRATIONS } from '../../electron/db/migrations';
import { storeSpace } from '../../electron/db/store-space';
import { createArborService } from '../../electron/service/arbor-service';
import { argValue } from './bench-args';

const MiB = 1024 * 1024;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');

interface CorpusPart {
  readonly dir: string;
  readonly bytes: number;
  readonly nodes: number;
}

/** Parts of about the missing number of messages each, until the corpus holds at least `messages`. */
async function ensureCorpus(root: string, messages: number): Promise<CorpusPart[]> {
  const markerFile = join(root, 'corpus.json');
  const parts: CorpusPart[] = existsSync(markerFile) ? (JSON.parse(readFileSync(markerFile, 'utf8')) as CorpusPart[]) : [];
  let nodes = parts.reduce((sum, part) => sum + part.nodes, 0);
  let bytesPerNode = nodes > 0 ? parts.reduce((sum, part) => sum + part.bytes, 0) / nodes : 2800;
  while (nodes < messages) {
    const dir = join(root, 'projects', `part-${parts.length}`);
    const started = performance.now();
    // A little over the estimate: the generator stops on bytes, and sessions vary.
    const totalBytes = Math.max(1, messages - nodes) * bytesPerNode * 1.03;
    const corpus = await writeSyntheticCorpus(dir, { totalBytes, nodesPerSession: 2000, seed: 42 + parts.length });
    parts.push({ dir, bytes: corpus.bytes, nodes: corpus.nodes });
    writeFileSync(markerFile, JSON.stringify(parts));
    nodes += corpus.nodes;
    bytesPerNode = corpus.bytes / Math.max(1, corpus.nodes);
    console.log(`corpus part ${parts.length - 1}: ${corpus.nodes} messages, ${(corpus.bytes / MiB).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return parts;
}

function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return bytes;
}

/** Bytes this process made the kernel write to storage so far (its WAL and checkpoints included). */
function writtenBytes(): number {
  const io = existsSync('/proc/self/io') ? readFileSync('/proc/self/io', 'utf8') : '';
  return Number(/^write_bytes: (\d+)$/m.exec(io)?.[1] ?? Number.NaN);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

/** The anchor: grep's first 50 matching lines over the same files (median of `runs`). */
function grepFirst50(needle: string, dirs: readonly string[], runs: number): number {
  const times: number[] = [];
  const quoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    spawnSync('sh', ['-c', `grep -rF -m 50 -- ${quoted(needle)} ${dirs.map(quoted).join(' ')} | head -n 50 > /dev/null`]);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

function daysBefore(iso: string, days: number): string {
  return new Date(Date.parse(iso) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The store's bytes per table and index (dbstat), each beside the transcripts' size. */
function printStoreSpace(path: string, corpusBytes: number): void {
  if (!existsSync(path)) return;
  const space = storeSpace(path);
  const total = space.reduce((sum, entry) => sum + entry.bytes, 0);
  console.log(`store pages by table and index (${(total / MiB).toFixed(0)} MB):`);
  for (const entry of space.filter((item) => item.bytes >= MiB)) {
    console.log(`  ${entry.name.padEnd(28)} ${(entry.bytes / MiB).toFixed(1).padStart(8)} MB  ${((100 * entry.bytes) / total).toFixed(1).padStart(5)}%  ${(entry.bytes / corpusBytes).toFixed(3)}× the transcripts`);
  }
}

interface Case {
  readonly name: string;
  /** Typed queries, cycled through (so no one query's pages stay hot). */
  readonly queries: readonly string[];
  readonly filters?: SearchFilters;
  /** What grep looks for (the same text; a filter has no grep equivalent). */
  readonly grep: string;
}

async function main(): Promise<void> {
  const messages = Number(argValue('--messages') ?? 1_000_000);
  const rounds = Number(argValue('--rounds') ?? 200);
  if (!Number.isFinite(messages) || messages <= 0) throw new Error('--messages needs a positive number');
  const root = argValue('--dir') ?? join(tmpdir(), `arbor-bench-search-${messages}`);
  mkdirSync(root, { recursive: true });
  console.log(`bench:search in ${root} (kept for the next run; delete it to start over); load average ${load()}`);
  const parts = await ensureCorpus(root, messages);
  const corpusBytes = parts.reduce((sum, part) => sum + part.bytes, 0);
  const corpusNodes = parts.reduce((sum, part) => sum + part.nodes, 0);
  const projects = join(root, 'projects');

  // One store per schema: a store of an older one would be migrated (and re-indexed) rather than measured.
  const schema = MIGRATIONS.at(-1)?.version ?? 0;
  const givenData = argValue('--data');
  if (givenData !== undefined && !existsSync(join(givenData, 'arbor.sqlite'))) throw new Error(`--data ${givenData} holds no arbor.sqlite`);
  const dataDir = givenData ?? join(root, `data-v${schema}`);
  const opening = performance.now();
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: root, env: {} });
  try {
    console.log(`store opened (migrated to schema ${schema} where older) in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
    const readyFile = join(root, `store-v${schema}.json`);
    if (givenData === undefined && !existsSync(readyFile)) {
      let started = performance.now();
      const written = writtenBytes();
      const report = await service.api['import.run']({ paths: [projects] });
      const importSeconds = (performance.now() - started) / 1000;
      const importWritten = writtenBytes() - written;
      started = performance.now();
      await service.idle();
      const indexSeconds = (performance.now() - started) / 1000;
      const indexWritten = writtenBytes() - written - importWritten;
      console.log(`store built: ${report.sessions.length} sessions, import ${importSeconds.toFixed(0)} s, full-text indexing ${indexSeconds.toFixed(0)} s (load ${load()})`);
      // The kernel's count for the whole process (the write worker is one of its threads), not the event loop's.
      console.log(
        `bytes written: import ${(importWritten / corpusBytes).toFixed(2)}× the transcripts, full-text indexing and merging ${(indexWritten / corpusBytes).toFixed(2)}× (/proc/${process.pid}/io write_bytes)`,
      );
      writeFileSync(readyFile, JSON.stringify({ importSeconds, indexSeconds }));
    } else {
      const started = performance.now();
      await service.idle();
      // A store from before migration 039 indexes its rows again here (their kind×project token), then merges.
      console.log(`background work (indexing, the facet rewrite, merging, compaction) settled in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`);
    }
    const storeBytes = folderBytes(dataDir);
    console.log(
      `corpus: ${corpusNodes} messages, ${(corpusBytes / MiB).toFixed(0)} MB of transcripts; store open ${(storeBytes / MiB).toFixed(0)} MB (its WAL included) = ${(storeBytes / corpusBytes).toFixed(2)}× the transcripts`,
    );

    const sessions = (await service.api['sessions.list']({ limit: 1 })).sessions;
    const oneSession = sessions[0]?.id;
    const newest = sessions[0]?.updatedAt ?? new Date().toISOString();
    const cases: Case[] = [
      { name: 'rare word', queries: ['flushStatus', 'migrationSchema99', 'zebra'], grep: 'flushStatus' },
      { name: 'common word', queries: ['session', 'cursor', 'buffer', 'the', 'query', 'result'], grep: 'session' },
      { name: 'one-letter prefix', queries: 'abcdefghilmnoprstuw'.split(''), grep: 's' },
      { name: 'two-letter prefix', queries: ['se', 'cu', 'bu', 'th', 'qu', 're', 'in', 'st'], grep: 'se' },
      // Three letters and more are looked up by their two-letter prefix since migration 043 (rare ones under it too).
      { name: 'three-letter prefix', queries: ['ses', 'cur', 'buf', 'the', 'que', 'res', 'fil', 'flu', 'mig', 'zeb'], grep: 'ses' },
      { name: 'two-word phrase', queries: ['"cursor handling"', '"the buffer"', '"session is"'], grep: 'cursor handling' },
      { name: 'filtered: prompts in a project', queries: ['session', 'cur', 'b'], filters: { kinds: ['user'], projects: ['/home/dev/projects/notes-app'] }, grep: 'session' },
      ...(oneSession === undefined ? [] : [{ name: 'filtered: one session, replies', queries: ['session', 'c', 'buffer'], filters: { sessionIds: [oneSession], kinds: ['assistant' as const] }, grep: 'session' }]),
      // The agent filter: the main agent's prompts (every synthetic node is the main agent's: its facet is on every row).
      { name: "filtered: main agent's prompts", queries: ['session', 'cur', 'b'], filters: { agent: 'main', kinds: ['user'] }, grep: 'session' },
      // The three days before the newest message: a slice of the store, wherever the generator put it in time.
      { name: 'filtered: a date range', queries: ['session', 'cu'], filters: { from: daysBefore(newest, 3), to: daysBefore(newest, -1) }, grep: 'session' },
    ];

    console.log(`\nround of ${rounds} searches per case (top 50 + bounded count); load average ${load()}`);
    for (const testCase of cases) {
      for (const query of testCase.queries) await service.api['search.query']({ query, limit: 50, filters: testCase.filters }); // warm
      const times: number[] = [];
      // CPU time of the process per search beside its wall time: on a shared machine the wall time is mostly
      // waiting for a core (grep's anchor slows alike), the CPU time is what the search itself costs.
      const cpuTimes: number[] = [];
      let hits = 0;
      let total = '';
      for (let i = 0; i < rounds; i++) {
        const query = testCase.queries[i % testCase.queries.length] ?? '';
        const started = performance.now();
        const cpu = process.cpuUsage();
        const result = await service.api['search.query']({ query, limit: 50, filters: testCase.filters });
        const used = process.cpuUsage(cpu);
        times.push(performance.now() - started);
        cpuTimes.push((used.user + used.system) / 1000);
        if (i < testCase.queries.length) {
          hits += result.hits.length;
          total += `${i === 0 ? '' : ', '}${query}: ${result.total}${result.totalCapped ? '+' : ''}`;
        }
      }
      times.sort((a, b) => a - b);
      cpuTimes.sort((a, b) => a - b);
      const p50 = percentile(times, 0.5);
      const p99 = percentile(times, 0.99);
      const grep = grepFirst50(testCase.grep, [projects], 3);
      const verdict = p50 <= 5 && p99 <= 50 ? 'OK' : 'MISSED';
      console.log(
        `${testCase.name.padEnd(32)} p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  (CPU p50 ${percentile(cpuTimes, 0.5).toFixed(2)} ms  p99 ${percentile(cpuTimes, 0.99).toFixed(2)} ms)  | grep -F "${testCase.grep}" first 50: ${grep.toFixed(1)} ms  | ratio p50/grep ${(p50 / grep).toFixed(3)}  ${verdict}  (${hits > 0 ? 'hits' : 'NO HITS'}; totals ${total})`,
      );
    }
    console.log(`load average at the end: ${load()}`);
  } finally {
    await service.close();
  }
  // Closed, the WAL is folded back: the store is what stays on disk.
  const closedBytes = folderBytes(dataDir);
  console.log(
    `store closed: ${(closedBytes / MiB).toFixed(0)} MB for ${(corpusBytes / MiB).toFixed(0)} MB of transcripts = ${(closedBytes / corpusBytes).toFixed(2)}× (target ≤ 1.3×)`,
  );
  printStoreSpace(join(dataDir, 'arbor.sqlite'), corpusBytes);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
