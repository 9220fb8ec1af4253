/**
 * Import benchmark: `npm run bench:import [-- --mb 200] [--single 50,250,1000,2500] [--corpus DIR] [--skip-corpus]
 * [--index-up-to 250] [--follow-open]`.
 * Cases: a synthetic Claude Code corpus (default ~200 MB, ~2000 nodes per session) and single generated
 * transcripts of the --single sizes (MB). Each case runs in a child process, which measures in the same run:
 *   - the raw anchor: read 1 MiB chunks, split lines, JSON.parse each line, store nothing;
 *   - Arbor's import: the service's import.run into a fresh data folder (parse, group, dedupe, store, link);
 *   - the background full-text indexing that follows, separately;
 *   - opening the whole session once indexed (its graph, then its newest nodes' details), in a phase of its own: the
 *     graph held on the serving thread is not the indexer's memory;
 *   - the anchor again (the faster reading is the one compared: the machine is shared);
 *   - appending the transcript's last 100 lines (held back when it was written) and importing again: once right
 *     after the import (the first append, while the full-text indexing runs and the import's WAL is still there)
 *     and once after the indexing (a steady append, the same lines with new ids).
 * Memory is measured from outside: this process samples the child's /proc/<pid>/status (VmRSS every 20 ms,
 * whatever the child's event loop is doing), beside the kernel's own peak (VmHWM) the child reads at the end of
 * each phase, and what the peak was made of (RssAnon: heaps; RssFile: mapped files; RssShmem). Disk: the child's
 * /proc/self/io write_bytes per phase, and the store's size, as ratios to the input.
 * Targets: import MB/s ≥ 0.5 × the anchor's and flat as the file grows; peak RSS ≤ 500 MB; an append of 100
 * lines ≤ 50 ms; bytes written ≤ 3× the input.
 * Responsiveness: each child serves its store on 127.0.0.1 as `arbor serve` does (the same web host), and this
 * process, over the WebSocket, asks `nodes.get` / `nodes.details` for nodes of the transcript's first lines every
 * 50 ms while the import runs; their latency (p50/p99) is printed beside the same requests to the idle server
 * before the import. The first answer that finds such a node is the time to first look.
 * --corpus DIR keeps the generated transcripts there and reuses them on the next run (default: a temp folder,
 * removed at the end; single transcripts of 1000 MB or more are always kept, in tmpdir()/arbor-bench-import-inputs).
 * Full-text indexing is measured for inputs up to --index-up-to MB (default 250; it takes minutes per GB). Wall-clock rates are what the targets are about; CPU-time rates are printed too because a
 * busy machine distorts wall-clock figures.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { writeSyntheticCorpus } from '../../electron/demo/synthetic';
import { startWebHost } from '../../electron/host/web-host';
import { createArborService } from '../../electron/service/arbor-service';
import type { ImportProgress, ImportReport, SessionGraph } from '../../shared/model';
import { chunkOfPage, decodeSessionGraphChunk, graphPagesFor, type SessionGraphPage } from '../../shared/session-graph-chunks';
import { decodeSessionGraph, isEncodedSessionGraph } from '../../shared/session-graph-wire';
import type { ServerMessage } from '../../shared/wire';
import { argValue } from './bench-args';
import { freshLines } from './fresh-lines';
import { rawParse } from './raw-parse';
import { APPENDED_LINES, writeSingleTranscript } from './synthetic-transcript';
import { codexTurns, writeCodexRollout } from './codex-rollout-file';

const MiB = 1024 * 1024;
/** Appends made while the full-text indexing runs, this far apart. */
const APPENDS_DURING_INDEXING = 3;
const APPEND_EVERY_MS = 1500;

/** Where generated single transcripts of 1000 MB or more are kept between runs. */
const BIG_INPUTS = join(tmpdir(), 'arbor-bench-import-inputs');

const mb = (bytes: number): string => (bytes / MiB).toFixed(1);
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');

// ---------------------------------------------------------------- child: one case, in its own process

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
  readonly indexSeconds: number | null;
  readonly indexWritten: number;
  readonly storeAfterIndex: { db: number; wal: number };
  readonly appendMs: number | null;
  readonly appendNodes: number | null;
  /** The first append, right after the import: the indexing of what it stored has just begun in the write worker. */
  readonly firstAppendMs: number | null;
  readonly firstAppendNodes: number | null;
  /** Appends of 100 lines made while the indexing ran (each after APPEND_EVERY_MS), ms each. */
  readonly duringIndexMs: readonly number[];
  /** The anchor for the append: reading and JSON.parse of the same appended lines, storing nothing. */
  readonly appendRawMs: number | null;
  readonly peakRss: number;
  /** The child's event-loop delay during the import (ms): a request waits at least this long behind its thread. */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number };
}

async function child(): Promise<void> {
  const projects = argValue('--projects')!;
  const files = argValue('--files')!.split('\n');
  const tail = argValue('--tail');
  const appendTo = argValue('--append-to');
  const index = !process.argv.includes('--skip-index');
  const dataDir = await mkdtemp(join(tmpdir(), 'arbor-bench-import-data-'));
  const phase = (name: string): void => void process.stdout.write(`phase ${name}\n`);
  const parentSays = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  // The transcript is reused by the next run: what the appends added is cut off again at the end.
  const appendedTo = appendTo === undefined ? 0 : (await stat(appendTo)).size;
  try {
    await rawParse(files); // warm the page cache so both measurements read from memory
    phase('raw');
    let started = performance.now();
    let cpu = process.cpuUsage();
    const raw = await rawParse(files);
    const rawSeconds = (performance.now() - started) / 1000;
    const rawCpu = cpuSeconds(process.cpuUsage(cpu));

    const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
    const host = await startWebHost({ service, rendererDir: dataDir });
    try {
      process.stdout.write(`serve ${host.url}\n`);
      phase('probe-idle');
      await parentSays.next(); // the parent has measured the idle server
      phase('import');
      let written = writtenBytes();
      started = performance.now();
      cpu = process.cpuUsage();
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const report = await service.api['import.run']({ paths: [projects] });
      loop.disable();
      const loopDelay = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
      const importSeconds = (performance.now() - started) / 1000;
      const importCpu = cpuSeconds(process.cpuUsage(cpu));
      const importWritten = writtenBytes() - written;
      const importPeakRss = kernelPeakRss();
      const storeAfterImport = await storeBytes(dataDir);

      // The first append: the transcript goes on right after the import, as a live session's does.
      let firstAppendMs: number | null = null;
      let firstAppendNodes: number | null = null;
      if (tail !== undefined && appendTo !== undefined) {
        const lines = readFileSync(tail);
        await rawParse([tail]);
        phase('first-append');
        await appendFile(appendTo, lines);
        started = performance.now();
        const appended = await service.api['import.run']({ paths: [projects] });
        firstAppendMs = performance.now() - started;
        firstAppendNodes = appended.sessions.reduce((sum, session) => sum + session.nodes, 0);
      }

      phase('index');
      written = writtenBytes();
      started = performance.now();
      // Appends while the indexing runs, as a live session's lines come: past each run's small first chunk, each
      // arrives during a whole one (it waited for all of it: ~1.3 s of CPU for 4 MB of text).
      const duringIndexMs: number[] = [];
      if (index && tail !== undefined && appendTo !== undefined) {
        let finished = false;
        const indexing = service.idle().then(() => {
          finished = true;
        });
        const lines = readFileSync(tail, 'utf8');
        for (let round = 0; round < APPENDS_DURING_INDEXING && !finished; round++) {
          await sleep(APPEND_EVERY_MS);
          if (finished) break;
          await appendFile(appendTo, freshLines(lines));
          const appendStarted = performance.now();
          await service.api['import.run']({ paths: [projects] });
          duringIndexMs.push(performance.now() - appendStarted);
        }
        await indexing;
      }
      if (index) await service.idle();
      const indexSeconds = index ? (performance.now() - started) / 1000 : null;
      const indexWritten = writtenBytes() - written;
      const storeAfterIndex = await storeBytes(dataDir);

      // The parent opens the whole session (its graph, then its newest nodes), as a user would once it is in.
      phase('open');
      await parentSays.next();

      // The anchor again, after: on a loaded machine one short reading can land in a quiet or a busy moment.
      phase('raw-again');
      started = performance.now();
      cpu = process.cpuUsage();
      await rawParse(files);
      const rawAgainSeconds = (performance.now() - started) / 1000;
      const rawAgainCpu = cpuSeconds(process.cpuUsage(cpu));
  
      let appendMs: number | null = null;
      let appendNodes: number | null = null;
      let appendRawMs: number | null = null;
      if (tail !== undefined && appendTo !== undefined) {
        await rawParse([tail]);
        started = performance.now();
        await rawParse([tail]);
        appendRawMs = performance.now() - started;
        phase('append');
        // The held-back lines again with new ids: 100 more lines of the session, not copies of stored ones.
        await appendFile(appendTo, freshLines(readFileSync(tail, 'utf8')));
        started = performance.now();
        const appended = await service.api['import.run']({ paths: [projects] });
        appendMs = performance.now() - started;
        appendNodes = appended.sessions.reduce((sum, session) => sum + session.nodes, 0);
        if (index) await service.idle();
      }
      const result: ChildReport = {
        rawSeconds, rawCpu, rawAgainSeconds, rawAgainCpu, bytes: raw.bytes, lines: raw.lines, importSeconds, importCpu,
        nodes: report.sessions.reduce((sum, session) => sum + session.nodes, 0), sessions: report.sessions.length,
        problems: report.problems.length, importWritten, importPeakRss, storeAfterImport, indexSeconds, indexWritten,
        storeAfterIndex, appendMs, appendNodes, firstAppendMs, firstAppendNodes, duringIndexMs, appendRawMs, peakRss: kernelPeakRss(), loopDelay,
      };
      process.stdout.write(`result ${JSON.stringify(result)}\n`);
    } finally {
      await host.close();
      await service.close();
    }
  } finally {
    if (appendTo !== undefined) await truncate(appendTo, appendedTo);
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- parent: inputs, child runs, sampling

/** Request latencies (ms) of one stretch of probing, and when a probed node was first found. */
interface Probed {
  readonly latencies: number[];
  /** Seconds from the stretch's start until nodes.get first found one of the probed nodes (null: never). */
  readonly firstFound: number | null;
  /** Seconds from the stretch's start until sessions.list first listed a session (null: never). */
  readonly firstListed: number | null;
  /**
   * Seconds from the stretch's start until a session could be opened as the app opens it: listed, its graph
   * read (`sessions.graph`), and its newest turns' details read (`nodes.details` of the graph's last nodes).
   */
  readonly firstLook: number | null;
  /** Seconds from the stretch's start until the import said it was reading the file (its first bytes read). */
  readonly reachedFile: number | null;
}

interface RssParts {
  readonly anon: number;
  readonly file: number;
  readonly shmem: number;
}

interface Sampled {
  readonly report: ChildReport;
  /** Max VmRSS seen by this process's sampler per child phase. */
  readonly sampledPeak: ReadonlyMap<string, number>;
  /** At each phase's peak: how much of VmRSS was the heaps (RssAnon), mapped files (RssFile) and shared memory (RssShmem). */
  readonly peakParts: ReadonlyMap<string, RssParts>;
  readonly idle: Probed;
  /** Opening the whole session (graph, then its newest nodes' details) once indexing is done, in a phase of its own. */
  readonly opened: {
    readonly ms: number;
    readonly nodes: number;
    /** Opened as the renderer does first (graph pages, then states), before the whole graph. */
    readonly app: { readonly ms: number; readonly statesMs: number } | null;
  } | null;
  readonly during: Probed;
  /** The same requests while the full-text indexing after the import runs (in the write worker). */
  readonly duringIndex: Probed | null;
  /**
   * This process's own event-loop delay while the child imports (ms): the anchor for the child's. This one does
   * little (the probe, the sampler), so what it waits is what the machine's load makes any thread wait.
   */
  readonly anchorLoop: { readonly p99: number; readonly max: number };
}

/** The uuids of a transcript's first lines: nodes its first batch stores, asked for while it imports. */
async function firstNodeIds(file: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const lines = createInterface({ input: createReadStream(file, { end: 8 * MiB }) });
  for await (const line of lines) {
    const uuid = /"uuid":"([^"]+)"/.exec(line)?.[1];
    if (uuid !== undefined) ids.push(uuid);
    if (ids.length >= count) break;
  }
  lines.close();
  return ids.slice(Math.floor(ids.length / 2)); // from the middle of the first batch on: not only its first line
}

/** A client of the child's web host, as the renderer is of `arbor serve`: one request at a time, timed. */
class ServeClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (message: ServerMessage & { t: 'res' }) => void>();
  /** Hears each sessions.changed event (the app's renderer reloads the open session's graph on it). */
  onSessionsChanged: ((sessionIds: readonly string[]) => void) | null = null;
  /** When an import.progress event first named a file being read (performance.now()), null before. */
  reachedFileAt: number | null = null;
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.t === 'evt' && message.event === 'sessions.changed') this.onSessionsChanged?.((message.payload as { sessionIds: string[] }).sessionIds);
      if (message.t === 'evt' && message.event === 'import.progress') {
        const progress = message.payload as ImportProgress;
        if (this.reachedFileAt === null && progress.currentFile !== null && progress.bytesDone > 0) this.reachedFileAt = performance.now();
      }
      if (message.t !== 'res') return;
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
  }
  static async connect(url: string): Promise<ServeClient> {
    const page = new URL(url);
    // A graph answer may be large; a payload over ws's default would kill the bench rather than time the call.
    const socket = new WebSocket(`ws://${page.host}/ws${page.search}`, { origin: page.origin, maxPayload: 2 ** 31 });
    socket.on('error', (error) => console.log(`  [probe] socket error: ${error.message}`));
    await once(socket, 'open');
    return new ServeClient(socket);
  }
  /** The answer's latency in ms and whether it succeeded. */
  async call(method: string, params: unknown): Promise<{ ms: number; ok: boolean; result: unknown }> {
    const id = this.nextId++;
    const started = performance.now();
    const answer = new Promise<ServerMessage & { t: 'res' }>((resolve) => this.waiting.set(id, resolve));
    this.socket.send(JSON.stringify({ t: 'req', id, method, params }));
    const message = await answer;
    return { ms: performance.now() - started, ok: message.ok, result: message.ok ? message.result : null };
  }
  /** Sends a request without waiting; the returned function cancels it as the renderer does ({t:'cancel'}). */
  fire(method: string, params: unknown, onDone: (ms: number) => void): () => void {
    const id = this.nextId++;
    const started = performance.now();
    this.waiting.set(id, () => onDone(performance.now() - started));
    this.socket.send(JSON.stringify({ t: 'req', id, method, params }));
    return () => {
      if (this.waiting.delete(id)) this.socket.send(JSON.stringify({ t: 'cancel', id }));
    };
  }
  close(): void {
    this.socket.close();
  }
}

/**
 * --follow-open: while the import runs, keeps the first listed session open as the app's renderer does: on
 * every sessions.changed that names it, its graph is asked again (`sessions.graph`) and the previous ask
 * cancelled (app-start.ts, selection-slice.ts), so the probe's clicks compete with those reloads.
 */
function followOpen(client: ServeClient): { stop: () => { reloads: number; answered: number[] } } {
  let open: string | null = null;
  let cancel: (() => void) | null = null;
  let reloads = 0;
  const answered: number[] = [];
  client.onSessionsChanged = (sessionIds) => {
    void (async () => {
      if (open === null) {
        const list = await client.call('sessions.list', {});
        open = list.ok ? ((list.result as { sessions: { id: string }[] }).sessions[0]?.id ?? null) : null;
      }
      if (open === null || !sessionIds.includes(open)) return;
      cancel?.();
      reloads++;
      cancel = client.fire('sessions.graph', { sessionId: open }, (ms) => {
        cancel = null;
        answered.push(ms);
      });
    })();
  };
  return {
    stop: () => {
      client.onSessionsChanged = null;
      cancel?.();
      return { reloads, answered };
    },
  };
}

/** Turns of the probe that try to open a session (at 50 ms and more a turn: the first seconds of the import). */
const OPEN_TRIES = 200;
/** How many of the newest nodes the first look reads (about a screenful of the conversation view). */
const NEWEST_TURNS = 8;

/** Opens the first listed session as the app does; its graph's node count once its newest turns' details were read, else 0. */
async function openNewest(client: ServeClient): Promise<number> {
  const list = await client.call('sessions.list', {});
  const first = list.ok ? (list.result as { sessions: { id: string }[] }).sessions[0] : undefined;
  if (first === undefined) return 0;
  const graph = await client.call('sessions.graph', { sessionId: first.id });
  if (!graph.ok) return 0;
  const nodes = (isEncodedSessionGraph(graph.result) ? decodeSessionGraph(graph.result) : (graph.result as SessionGraph)).nodes;
  if (nodes.length === 0) return 0;
  const newest = nodes.slice(-NEWEST_TURNS).map((node) => node.id);
  const details = await client.call('nodes.details', { nodeIds: newest });
  return details.ok && (details.result as { details: unknown[] }).details.length === newest.length ? nodes.length : 0;
}

/**
 * Opens the first listed session as the app's renderer does (session-graph-pages.ts): every `sessions.graphPage`
 * at once (the stored chunks, sent as stored), then `sessions.states` and the newest nodes' details. Its node count
 * and how long the states took; null when it could not open it.
 */
async function openAsApp(client: ServeClient): Promise<{ nodes: number; statesMs: number } | null> {
  const list = await client.call('sessions.list', {});
  const first = list.ok ? (list.result as { sessions: { id: string; nodeCount: number }[] }).sessions[0] : undefined;
  if (first === undefined) return null;
  const pages = await Promise.all(
    Array.from({ length: graphPagesFor(first.nodeCount) }, (_, page) => client.call('sessions.graphPage', { sessionId: first.id, page })),
  );
  if (!pages.every((page) => page.ok)) return null;
  const start = pages[0]!.result as SessionGraphPage;
  let last = pages.at(-1)!.result as SessionGraphPage;
  // The last page, when asked before page 0 had written the session's short rest, is asked again.
  if (start.graph === undefined && (last.page !== start.pages - 1 || (last.chunk === '' && last.chunkValue === undefined))) {
    const again = await client.call('sessions.graphPage', { sessionId: first.id, page: start.pages - 1 });
    if (!again.ok) return null;
    last = again.result as SessionGraphPage;
  }
  // A page 0 that carries the whole graph (Arbor's nodes joined the stored ones) is that graph.
  const nodes =
    start.graph !== undefined
      ? (isEncodedSessionGraph(start.graph) ? decodeSessionGraph(start.graph) : (start.graph as SessionGraph)).nodes
      : last.chunk === '' && last.chunkValue === undefined
        ? []
        : decodeSessionGraphChunk(first.id, chunkOfPage(last));
  const states = await client.call('sessions.states', { sessionId: first.id });
  if (!states.ok || nodes.length === 0) return null;
  const details = await client.call('nodes.details', { nodeIds: nodes.slice(-NEWEST_TURNS).map((node) => node.id) });
  return details.ok ? { nodes: first.nodeCount, statesMs: states.ms } : null;
}

/**
 * nodes.get and nodes.details (alternately), every 50 ms while `go()` holds, at most `max` requests. Until a
 * session has been opened (openNewest), each turn also tries to open one; those calls are not in the latencies.
 */
async function probe(client: ServeClient, ids: readonly string[], go: () => boolean, max: number, open = true): Promise<Probed> {
  const latencies: number[] = [];
  const started = performance.now();
  let firstFound: number | null = null;
  let firstListed: number | null = null;
  let firstLook: number | null = null;
  for (let turn = 0; turn < max && go(); turn++) {
    const id = ids[turn % ids.length]!;
    const answer = turn % 2 === 0 ? await client.call('nodes.get', { nodeId: id }) : await client.call('nodes.details', { nodeIds: ids.slice(0, 8) });
    latencies.push(answer.ms);
    const found = turn % 2 === 0 ? answer.ok : answer.ok && ((answer.result as { details: unknown[] }).details.length > 0);
    if (found && firstFound === null) firstFound = (performance.now() - started) / 1000;
    if (firstListed === null && turn % 4 === 1) {
      const list = await client.call('sessions.list', {});
      if (list.ok && (list.result as { total: number }).total > 0) firstListed = (performance.now() - started) / 1000;
    }
    // A few tries only: a look that keeps failing would read an ever larger graph every turn.
    if (open && firstLook === null && turn < OPEN_TRIES && (await openNewest(client)) > 0) firstLook = (performance.now() - started) / 1000;
    await sleep(50);
  }
  const reachedFile = client.reachedFileAt === null || client.reachedFileAt < started ? null : (client.reachedFileAt - started) / 1000;
  return { latencies, firstFound, firstListed, firstLook, reachedFile };
}

async function runChild(args: readonly string[], probeIds: readonly string[]): Promise<Sampled> {
  const proc = spawn(process.execPath, [...process.execArgv, process.argv[1]!, '--child', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const sampledPeak = new Map<string, number>();
  const peakParts = new Map<string, RssParts>();
  let phase = 'start';
  let report: ChildReport | null = null;
  let pending = '';
  let client: Promise<ServeClient> | null = null;
  let idle: Promise<Probed> | null = null;
  let during: Promise<Probed> | null = null;
  let duringIndex: Promise<Probed> | null = null;
  let opened: Promise<Sampled['opened']> = Promise.resolve(null);
  const anchor = monitorEventLoopDelay({ resolution: 10 });
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (data: string) => {
    pending += data;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.startsWith('serve ')) client = ServeClient.connect(line.slice(6));
      else if (line.startsWith('phase ')) {
        phase = line.slice(6);
        if (phase === 'probe-idle' && client !== null) {
          const connected = client as Promise<ServeClient>;
          idle = connected.then(async (c) => {
            const probed = await probe(c, probeIds, () => true, 60);
            proc.stdin.write('go\n');
            return probed;
          });
        } else if (phase === 'import' && client !== null) {
          anchor.enable();
          during = (client as Promise<ServeClient>).then(async (c) => {
            const follower = process.argv.includes('--follow-open') ? followOpen(c) : null;
            const probed = await probe(c, probeIds, () => phase === 'import', 100_000);
            const followed = follower?.stop();
            if (followed !== undefined) {
              console.log(
                `  [follow-open] the open session's graph asked again ${followed.reloads} times during the import (${followed.answered.length} answered before the next ask, ` +
                  `p50 ${percentile(followed.answered, 50).toFixed(0)} ms, max ${followed.answered.length > 0 ? Math.max(...followed.answered).toFixed(0) : '-'} ms)`,
              );
            }
            return probed;
          });
        } else if (phase === 'index' && client !== null) {
          anchor.disable();
          // Not opened here: opening the whole session holds its graph on the serving thread, which the open phase
          // measures apart; here it would be counted as the indexer's memory.
          duringIndex = (client as Promise<ServeClient>).then((c) => probe(c, probeIds, () => phase === 'index', 100_000, false));
        } else if (phase === 'open' && client !== null) {
          opened = (client as Promise<ServeClient>).then(async (c) => {
            // As the renderer opens it first (pages, then states), then its whole graph in one answer, as the
            // bench's first look and the export do: each sampled under a phase of its own.
            let started = performance.now();
            const asApp = await openAsApp(c);
            const appMs = performance.now() - started;
            phase = 'open-whole';
            started = performance.now();
            const nodes = await openNewest(c);
            const ms = performance.now() - started;
            proc.stdin.end('go\n'); // the child's stdin holds it open until ended
            return nodes > 0 ? { ms, nodes, app: asApp === null ? null : { ...asApp, ms: appMs } } : null;
          });
        }
      } else if (line.startsWith('result ')) {
        report = JSON.parse(line.slice(7)) as ChildReport;
        // The child's web host closes once its sockets have.
        void (client as Promise<ServeClient> | null)?.then((c) => c.close());
      } else console.log(`  [child] ${line}`);
    }
  });
  const sample = (): void => {
    try {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      const bytes = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
      const rss = bytes('VmRSS');
      if (rss <= (sampledPeak.get(phase) ?? 0)) return;
      sampledPeak.set(phase, rss);
      peakParts.set(phase, { anon: bytes('RssAnon'), file: bytes('RssFile'), shmem: bytes('RssShmem') });
    } catch {
      // the child has exited
    }
  };
  const timer = setInterval(sample, 20);
  const [code] = (await once(proc, 'exit')) as [number | null];
  clearInterval(timer);
  if (code !== 0 || report === null || idle === null || during === null) throw new Error(`bench child failed (exit ${code})`);
  const probedIdle = await (idle as Promise<Probed>);
  const probedDuring = await (during as Promise<Probed>);
  const probedIndex = duringIndex === null ? null : await (duringIndex as Promise<Probed>);
  anchor.disable();
  const anchorLoop = { p99: anchor.percentile(99) / 1e6, max: anchor.max / 1e6 };
  return { report, sampledPeak, peakParts, opened: await opened, idle: probedIdle, during: probedDuring, duringIndex: probedIndex, anchorLoop };
}

const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** One line of the table the bench ends with: every target of one case, read off one row. */
interface SweepRow {
  readonly name: string;
  readonly inputBytes: number;
  readonly sampled: Sampled;
  readonly load: string;
}

function printCase(name: string, inputBytes: number, sampled: Sampled): SweepRow {
  const { report: r, sampledPeak, peakParts, opened, idle, during, duringIndex } = sampled;
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
      `ratio to raw ${ratio.toFixed(2)} (target >= 0.5) ${ratio >= 0.5 ? 'OK' : 'MISSED'}; cpu ratio ${(Math.min(r.rawCpu, r.rawAgainCpu) / r.importCpu).toFixed(2)} ` +
      `(the import's ${r.importCpu.toFixed(2)} cpu-s = ${((r.importCpu * 1000) / (inputBytes / MiB)).toFixed(1)} cpu-ms/MB in all its threads, against the anchor's ${((Math.min(r.rawCpu, r.rawAgainCpu) * 1000) / (r.bytes / MiB)).toFixed(1)})`,
  );
  console.log(
    `  peak RSS during import: ${mb(importRss)} MB sampled from outside (VmRSS /20 ms), kernel VmHWM ${mb(r.importPeakRss)} MB (target <= 500) ${Math.max(importRss, r.importPeakRss) <= 500 * MiB ? 'OK' : 'MISSED'}`,
  );
  console.log(`  peak RSS whole child (incl. indexing, opening and append): sampled ${mb(overall)} MB, VmHWM ${mb(r.peakRss)} MB`);
  const parts = [...peakParts].map(([name, p]) => `${name} ${mb(sampledPeak.get(name) ?? 0)} (anon ${mb(p.anon)}, file ${mb(p.file)}, shmem ${mb(p.shmem)})`);
  console.log(`  peak RSS per phase in MB, and its parts at that moment: ${parts.join('; ')}`);
  if (r.indexSeconds !== null) {
    const indexRss = sampledPeak.get('index') ?? 0;
    console.log(`  peak RSS during the full-text indexing: ${mb(indexRss)} MB sampled from outside (target <= 500) ${indexRss <= 500 * MiB ? 'OK' : 'MISSED'}`);
  }
  if (opened !== null) {
    const appRss = sampledPeak.get('open') ?? 0;
    const wholeRss = sampledPeak.get('open-whole') ?? 0;
    const app = opened.app;
    console.log(
      `  opening the session once indexed, as the renderer does (its ${opened.nodes} nodes in graph pages, sessions.states, its newest ${NEWEST_TURNS} nodes' details): ` +
        (app === null ? 'failed' : `${app.ms.toFixed(0)} ms (states ${app.statesMs.toFixed(0)} ms)`) +
        `, peak RSS ${mb(appRss)} MB (target <= 500) ${appRss <= 500 * MiB ? 'OK' : 'MISSED'}; then its whole graph in one sessions.graph answer ` +
        `(the first look's and the export's way): ${opened.ms.toFixed(0)} ms, peak RSS ${mb(wholeRss)} MB (target <= 500) ${wholeRss <= 500 * MiB ? 'OK' : 'MISSED'}; both sampled from outside`,
    );
  }
  console.log(
    `  written during import: ${mb(r.importWritten)} MB = ${(r.importWritten / inputBytes).toFixed(2)}x input (target <= 3); during indexing ${mb(r.indexWritten)} MB = ${(r.indexWritten / inputBytes).toFixed(2)}x`,
  );
  console.log(
    `  store file: ${mb(r.storeAfterImport.db)} MB after import = ${(r.storeAfterImport.db / inputBytes).toFixed(2)}x input (WAL beside it ${mb(r.storeAfterImport.wal)} MB), ` +
      (r.indexSeconds === null
        ? 'full-text indexing not measured (--index-up-to)'
        : `${mb(r.storeAfterIndex.db)} MB indexed = ${(r.storeAfterIndex.db / inputBytes).toFixed(2)}x (WAL ${mb(r.storeAfterIndex.wal)} MB); full-text indexing ${r.indexSeconds.toFixed(2)} s`),
  );
  const fmt = (values: readonly number[]): string =>
    `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} requests)`;
  const p99 = percentile(during.latencies, 99);
  console.log(
    `  responsiveness: nodes.get/nodes.details over the web host's WebSocket during the import ${fmt(during.latencies)}; ` +
      `idle server before it ${fmt(idle.latencies)}; p99 ratio ${(p99 / percentile(idle.latencies, 99)).toFixed(1)} (target p99 <= 100 ms) ${p99 <= 100 ? 'OK' : 'MISSED'}`,
  );
  if (r.indexSeconds !== null && duringIndex !== null && duringIndex.latencies.length > 0) {
    const indexP99 = percentile(duringIndex.latencies, 99);
    console.log(
      `  responsiveness during the full-text indexing after it: ${fmt(duringIndex.latencies)}; ` +
        `p99 ratio to idle ${(indexP99 / percentile(idle.latencies, 99)).toFixed(1)} (target p99 <= 100 ms) ${indexP99 <= 100 ? 'OK' : 'MISSED'}`,
    );
  }
  console.log(
    `  the serving thread's event-loop delay during the import: p50 ${r.loopDelay.p50.toFixed(1)} ms, p99 ${r.loopDelay.p99.toFixed(1)} ms, max ${r.loopDelay.max.toFixed(1)} ms; ` +
      `the bench's own (the machine's anchor) p99 ${sampled.anchorLoop.p99.toFixed(1)} ms, max ${sampled.anchorLoop.max.toFixed(1)} ms`,
  );
  const look = during.firstLook;
  const when = (seconds: number | null): string => (seconds === null ? 'never during the import' : `${seconds.toFixed(2)} s`);
  console.log(
    `  time to first look: listed ${when(during.firstListed)}, its first lines' nodes readable ${when(during.firstFound)}, ` +
      `opened (graph, then its newest ${NEWEST_TURNS} nodes' details) ${when(look)} after the import started; ` +
      `the import reached the file (first bytes read) at ${when(during.reachedFile)}, so opened ${when(lookAfterReach(during))} after it ` +
      `(target <= 1 s) ${lookAfterReach(during) !== null && lookAfterReach(during)! <= 1 ? 'OK' : 'MISSED'}; the import took ${r.importSeconds.toFixed(1)} s`,
  );
  if (r.firstAppendMs !== null) {
    console.log(
      `  first append right after the import, ${APPENDED_LINES} lines (${r.firstAppendNodes} nodes), while the indexing runs: ${r.firstAppendMs.toFixed(1)} ms in-process (target <= 50) ${r.firstAppendMs <= 50 ? 'OK' : 'MISSED'}`,
    );
  }
  if (r.duringIndexMs.length > 0) {
    const worst = Math.max(...r.duringIndexMs);
    console.log(
      `  appends of ${APPENDED_LINES} lines during the indexing, ${APPEND_EVERY_MS} ms apart (each arriving amid a whole chunk): ${r.duringIndexMs.map((ms) => ms.toFixed(0)).join(' / ')} ms in-process (target <= 50) ${worst <= 50 ? 'OK' : 'MISSED'}`,
    );
  }
  if (r.appendMs !== null) {
    console.log(
      `  steady append after the indexing, ${APPENDED_LINES} lines (${r.appendNodes} nodes) and re-import: ${r.appendMs.toFixed(1)} ms in-process (target <= 50) ${r.appendMs <= 50 ? 'OK' : 'MISSED'}; ` +
        `raw read+parse of the same lines ${r.appendRawMs?.toFixed(1) ?? '?'} ms, ratio ${r.appendRawMs ? (r.appendMs / r.appendRawMs).toFixed(1) : '?'}x; the full import took ${(r.importSeconds * 1000).toFixed(0)} ms`,
    );
  }  return { name, inputBytes, sampled, load: load() };
}

/** Seconds from the import reaching the file until its session was opened (the "time to first look"). */
const lookAfterReach = (probed: Probed): number | null =>
  probed.firstLook === null || probed.reachedFile === null ? null : Math.max(0, probed.firstLook - probed.reachedFile);

/** The sweep in one table: whether MB/s is flat, and every target, read off one row per case. */
function printTable(rows: readonly SweepRow[]): void {
  const header = ['case', 'MB', 'MB/s', 'x raw', 'cpu x', 'RSS MB out/HWM', 'req p50/p99 ms', 'idle p50/p99', 'loop p99/max', 'anchor p99/max', 'look s start/reach', 'append ms first/steady', 'load'];
  const body = rows.map(({ name, inputBytes, sampled: { report: r, sampledPeak, idle, during, anchorLoop }, load: loadThen }) => {
    const rawRate = r.bytes / MiB / Math.min(r.rawSeconds, r.rawAgainSeconds);
    const importRate = inputBytes / MiB / r.importSeconds;
    const pair = (values: readonly number[]): string => `${percentile(values, 50).toFixed(0)}/${percentile(values, 99).toFixed(0)}`;
    return [
      name,
      mb(inputBytes),
      importRate.toFixed(1),
      (importRate / rawRate).toFixed(2),
      (Math.min(r.rawCpu, r.rawAgainCpu) / r.importCpu).toFixed(2),
      `${mb(sampledPeak.get('import') ?? 0)}/${mb(r.importPeakRss)}`,
      pair(during.latencies),
      pair(idle.latencies),
      `${r.loopDelay.p99.toFixed(0)}/${r.loopDelay.max.toFixed(0)}`,
      `${anchorLoop.p99.toFixed(0)}/${anchorLoop.max.toFixed(0)}`,
      `${during.firstLook === null ? 'never' : during.firstLook.toFixed(2)}/${lookAfterReach(during)?.toFixed(2) ?? 'never'}`,
      r.appendMs === null ? '-' : `${r.firstAppendMs?.toFixed(0) ?? '-'}/${r.appendMs.toFixed(0)}`,
      loadThen,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
  console.log('\n== sweep (targets: x raw >= 0.5 and flat; RSS <= 500 MB; req p99 <= 100 ms; first look (from reaching the file) <= 1 s; append <= 50 ms)');
  console.log(line(header));
  for (const row of body) console.log(line(row));
}

async function parent(): Promise<void> {
  const corpusMb = Number(argValue('--mb') ?? 200);
  const singles = (argValue('--single') ?? '50,250,1000,2500').split(',').filter(Boolean).map(Number);
  const indexUpTo = Number(argValue('--index-up-to') ?? 250);
  if (!Number.isFinite(corpusMb) || corpusMb <= 0 || singles.some((size) => !Number.isFinite(size) || size <= 0)) {
    throw new Error('--mb and --single need positive numbers');
  }
  const keep = argValue('--corpus');
  const root = keep ?? (await mkdtemp(join(tmpdir(), 'arbor-bench-import-')));
  console.log(`inputs in ${root}${keep ? ' (kept for the next run)' : ''}; load average ${load()}`);
  const rows: SweepRow[] = [];
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
      // The first session file in the order the import takes them (main transcripts by path, subagents after).
      const first = [...files].filter((file) => !file.includes('/subagents/')).sort()[0]!;
      const probeIds = await firstNodeIds(first, 400);
      const skipIndex = corpusMb > indexUpTo ? ['--skip-index'] : [];
      rows.push(printCase(`corpus (${files.length} files)`, bytes, await runChild(['--projects', projects, '--files', files.join('\n'), ...skipIndex], probeIds)));
    }
    for (const size of singles) {
      // Big inputs take minutes to write: kept between runs, whatever --corpus says.
      const projects = join(size >= 1000 && !keep ? BIG_INPUTS : root, `single-${size}mb`);
      const { file, tail } = await writeSingleTranscript(projects, size);
      const bytes = (await stat(file)).size;
      const skipIndex = size > indexUpTo ? ['--skip-index'] : [];
      const args = ['--projects', projects, '--files', file, '--tail', tail, '--append-to', file, ...skipIndex];
      rows.push(printCase(`one transcript`, bytes, await runChild(args, await firstNodeIds(file, 400))));
    }
    printTable(rows);
  } finally {
    if (!keep) await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- Codex: one generated rollout, both history modes

/**
 * The Codex import rate beside the raw anchor on the same file, in the same run: a generated rollout of
 * --codex-mb MB (default 200) in each history mode, imported into a fresh data folder by the service, then
 * APPENDED_LINES more lines (whole turns) appended and imported again (issue 12: an append costs what it appends).
 * `--codex-only` runs just this; `--skip-codex` leaves it out.
 */
async function codexImportRate(): Promise<void> {
  const targetMb = Number(argValue('--codex-mb') ?? 200);
  const root = await mkdtemp(join(tmpdir(), 'arbor-bench-codex-'));
  try {
    for (const mode of ['legacy', 'paginated'] as const) {
      const id = mode === 'legacy' ? '019e0000-0000-7000-8000-00000000be01' : '019e0000-0000-7000-8000-00000000be02';
      const folder = join(root, mode);
      await mkdir(folder, { recursive: true });
      const file = join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`);
      const builder = await writeCodexRollout(file, { id, cwd: '/work/app', mode }, targetMb * MiB);
      const bytes = (await stat(file)).size;
      const before = await timed(() => rawParse([file]));
      const dataDir = join(root, `data-${mode}`);
      const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
      let imported: { seconds: number; cpu: number; value: ImportReport };
      let appended: { seconds: number; cpu: number; value: ImportReport };
      let appendedLines: string[];
      try {
        imported = await timed(() => service.api['import.run']({ paths: [folder] }));
        // An append of APPENDED_LINES lines (whole turns, the rollout going on), imported again.
        appendedLines = codexTurns(builder, 1_000_000, APPENDED_LINES);
        await appendFile(file, appendedLines.map((line) => `${line}\n`).join(''));
        appended = await timed(() => service.api['import.run']({ paths: [folder] }));
      } finally {
        await service.close();
      }
      const after = await timed(() => rawParse([file]));
      const raw = Math.min(before.seconds, after.seconds);
      const importRate = bytes / MiB / imported.seconds;
      const rawRate = bytes / MiB / raw;
      console.log(`\nCodex rollout, ${mode} history (${mb(bytes)} MB, ${before.value.lines} lines; load average ${load()})`);
      const nodes = imported.value.sessions.reduce((sum, session) => sum + session.nodes, 0);
      if (nodes === 0) throw new Error(`the Codex rollout imported no node: ${JSON.stringify(imported.value.problems.slice(0, 3))}`);
      console.log(`  import: ${importRate.toFixed(1)} MB/s (${imported.seconds.toFixed(2)} s, ${nodes} nodes; this thread's cpu ${(bytes / MiB / imported.cpu).toFixed(1)} MB/cpu-s, the write worker's not counted)`);
      console.log(`  raw anchor: ${rawRate.toFixed(1)} MB/s, the faster of ${(bytes / MiB / before.seconds).toFixed(1)} before and ${(bytes / MiB / after.seconds).toFixed(1)} after the import`);
      console.log(`  import / raw: ${(importRate / rawRate).toFixed(2)}`);
      const appendNodes = appended.value.sessions.reduce((sum, session) => sum + session.nodes, 0);
      console.log(
        `  append ${appendedLines.length} lines (${appendNodes} nodes) and re-import: ${(appended.seconds * 1000).toFixed(1)} ms in-process (cpu ${(appended.cpu * 1000).toFixed(1)} ms on this thread; target <= 50) ` +
          `${appended.seconds * 1000 <= 50 ? 'OK' : 'MISSED'}; the full import took ${(imported.seconds * 1000).toFixed(0)} ms; load average ${load()}`,
      );
      await rm(file, { force: true });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; cpu: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await run();
  return { seconds: (performance.now() - start) / 1000, cpu: cpuSeconds(process.cpuUsage(cpu)), value };
}

const entry = process.argv.includes('--child') ? child() : process.argv.includes('--codex-only') ? codexImportRate() : parent().then(() => (process.argv.includes('--skip-codex') ? undefined : codexImportRate()));
entry.catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
