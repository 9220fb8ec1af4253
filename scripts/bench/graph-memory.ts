/**
 * Memory of opening a big session: `tsx scripts/bench/graph-memory.ts [--mb 239] [--data DIR] [--window N|all] [--states] [--pages-only] [--same-process]`.
 * One generated Claude Code transcript of --mb MB (one session) is imported into a store (kept in --data DIR
 * when given, and reused by the next run with the same DIR: before/after a change open the same store). Then
 * a child process serves the store as `arbor serve` does (the same web host), and this process, over the
 * WebSocket, opens the session as the renderer does (page 0, then a window of --window pages, default
 * PAGES_IN_FLIGHT; `--window all` is the renderer before issue 12), then asks every `sessions.graphPage` at once (a client that floods the host), then, with
 * --states, asks `sessions.states`, then asks its whole graph in one `sessions.graph` answer (what a session
 * with Arbor's nodes, the export and the ledger read) twice, then waits. Each step is a phase of its own.
 * --pages-only: the whole-graph phases are left out.
 * --arbor-nodes: the session holds nodes Arbor added (a fork, a manual snapshot and a merge, recorded into a copy
 * of the store, DIR/data-MB-arbor): its pages are the stored chunks plus one of Arbor's nodes (arbor-node-pages.ts);
 * before that, page 0 was the whole graph.
 * --same-process: the serving process imports the transcript itself first, then is opened (as bench:import's
 * open phase: what the import and its indexing left in the heap is there too).
 * Memory is measured from outside: this process samples the child's /proc/<pid>/status (VmRSS every 20 ms,
 * whatever the child's event loop is doing) and reads its VmHWM at the end of each phase. Target: peak RSS
 * ≤ 500 MB. Anchor, measured in the same run by this process: JSON.parse of the whole answer's text and
 * JSON.stringify of the graph it decodes to (their time and size).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { FIRST_PAGE } from '../../electron/db/session-queries';
import { openSessionStore } from '../../electron/db/session-store';
import { syntheticSessionLines } from '../../electron/demo/synthetic';
import { startWebHost } from '../../electron/host/web-host';
import { createArborService } from '../../electron/service/arbor-service';
import type { SessionGraph } from '../../shared/model';
import { chunkOfPage, graphPagesFor, PAGES_IN_FLIGHT, type SessionGraphPage } from '../../shared/session-graph-chunks';
import { decodeSessionGraph, isEncodedSessionGraph } from '../../shared/session-graph-wire';
import type { ServerMessage } from '../../shared/wire';
import { argValue } from './bench-args';

const MiB = 1024 * 1024;
/** Bytes per node of the generator's sessions, to size the transcript (as bench:import sizes its singles). */
const BYTES_PER_NODE = 2900;
const mb = (bytes: number): string => (bytes / MiB).toFixed(1);
const load = (): string => loadavg().map((value) => value.toFixed(1)).join(' ');

// ---------------------------------------------------------------- children

/** Imports the projects folder into the data folder and waits for its full-text indexing (the open child must not index). */
async function importChild(projects: string, dataDir: string): Promise<void> {
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
  try {
    const started = performance.now();
    const report = await service.api['import.run']({ paths: [projects] });
    const imported = (performance.now() - started) / 1000;
    await service.idle();
    const nodes = report.sessions.reduce((sum, session) => sum + session.nodes, 0);
    process.stdout.write(`imported ${nodes} nodes in ${imported.toFixed(1)} s, indexed by ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    await service.close();
  }
}

/**
 * Serves the store; each line on stdin is the parent moving to its next phase; the end of stdin closes it.
 * With `projects`, it first imports them itself into a fresh store (the import's and indexing's own memory
 * in the same process, as bench:import opens the session it imported).
 */
async function openChild(dataDir: string, projects?: string): Promise<void> {
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: dataDir, env: {} });
  const host = await startWebHost({ service, rendererDir: dataDir });
  try {
    if (projects !== undefined) {
      await service.api['import.run']({ paths: [projects] });
      await service.idle();
    }
    process.stdout.write(`serve ${host.url}\n`);
    for await (const _line of createInterface({ input: process.stdin }));
  } finally {
    await host.close();
    await service.close();
  }
}

// ---------------------------------------------------------------- parent

class Client {
  private nextId = 1;
  private readonly waiting = new Map<number, (text: string) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = String(data);
      // The id is near the start of every answer: the big ones are parsed (and timed) by the caller.
      const id = Number(/"id":(\d+)/.exec(text.slice(0, 200))?.[1]);
      this.waiting.get(id)?.(text);
      this.waiting.delete(id);
    });
  }
  static async connect(url: string): Promise<Client> {
    const page = new URL(url);
    const socket = new WebSocket(`ws://${page.host}/ws${page.search}`, { origin: page.origin, maxPayload: 2 ** 31 });
    await once(socket, 'open');
    return new Client(socket);
  }
  /** The answer's text (parsed by the caller). */
  callText(method: string, params: unknown): Promise<string> {
    const id = this.nextId++;
    const answer = new Promise<string>((resolve) => this.waiting.set(id, resolve));
    this.socket.send(JSON.stringify({ t: 'req', id, method, params }));
    return answer;
  }
  async call(method: string, params: unknown): Promise<unknown> {
    const message = JSON.parse(await this.callText(method, params)) as ServerMessage & { t: 'res' };
    if (!message.ok) throw new Error(`${method} failed: ${JSON.stringify(message.error)}`);
    return message.result;
  }
  close(): void {
    this.socket.close();
  }
}

interface Phase {
  readonly name: string;
  readonly ms: number;
  readonly sampled: number;
  readonly hwm: number;
  readonly anon: number;
  readonly note: string;
}

function status(pid: number): { rss: number; hwm: number; anon: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon') };
}

async function writeTranscript(projects: string, targetMb: number): Promise<string> {
  const dir = join(projects, '-home-dev-projects-big');
  const file = join(dir, `single-${targetMb}mb.jsonl`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const stream = createWriteStream(file);
  let chunk = '';
  for (const line of syntheticSessionLines(Math.ceil((targetMb * MiB) / BYTES_PER_NODE), { seed: 7, sessionId: `single-${targetMb}mb` })) {
    chunk += `${line}\n`;
    if (chunk.length >= 256 * 1024) {
      if (!stream.write(chunk)) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end(chunk);
  await once(stream, 'finish');
  return file;
}

/**
 * A copy of the store with Arbor's nodes in its biggest session: a fork, a manual snapshot and a merge of the
 * two, each beside a transcript step (a workspace branch point each), as made in the app.
 */
async function withArborNodes(dataDir: string): Promise<string> {
  const copy = `${dataDir}-arbor`;
  // The copy carries the store's own `done`: its own mark says Arbor's nodes are in.
  if (existsSync(join(copy, 'arbor-nodes'))) return copy;
  await rm(copy, { recursive: true, force: true });
  await cp(dataDir, copy, { recursive: true });
  const store = openSessionStore(join(copy, 'arbor.sqlite'));
  try {
    const session = store.listSessions({}).sessions.reduce((biggest, other) => (other.nodeCount > biggest.nodeCount ? other : biggest));
    const nodes = store.getSessionNodesPage(session.id, FIRST_PAGE, 400).nodes;
    const record = (id: string, parentId: string, extra: object = {}) =>
      store.recordSnapshot({ id, nodeId: `snapshot-${id}`, sessionId: session.id, parentId, dir: '/home/dev/projects/big', treeOid: 'a'.repeat(40), commitOid: null, files: 3, createdAt: '2026-03-01T12:00:00.000Z', ...extra });
    record('bench-fork', nodes[100]!.id, { kind: 'fork' });
    record('bench-snapshot', nodes[200]!.id);
    record('bench-merge', nodes[300]!.id, { kind: 'merge', secondParentId: 'snapshot-bench-fork' });
  } finally {
    store.close();
  }
  await mkdir(join(copy, 'arbor-nodes'));
  return copy;
}

function run(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

async function parent(): Promise<void> {
  const targetMb = Number(argValue('--mb') ?? '239');
  const windowArg = argValue('--window') ?? String(PAGES_IN_FLIGHT);
  const kept = argValue('--data');
  const root = kept ?? (await mkdtemp(join(tmpdir(), 'arbor-bench-graphmem-')));
  const projects = join(root, `projects-${targetMb}`);
  const dataDir = join(root, `data-${targetMb}`);
  try {
    const file = await writeTranscript(projects, targetMb);
    const inputBytes = (await stat(file)).size;
    if (!existsSync(join(dataDir, 'done'))) {
      await rm(dataDir, { recursive: true, force: true });
      await mkdir(dataDir, { recursive: true });
      const importer = run(['--import', projects, dataDir]);
      importer.stdout!.pipe(process.stdout);
      const [code] = (await once(importer, 'exit')) as [number | null];
      if (code !== 0) throw new Error(`import child failed (exit ${code})`);
      await mkdir(join(dataDir, 'done'));
    }
    const arborNodes = process.argv.includes('--arbor-nodes');
    const served = arborNodes ? await withArborNodes(dataDir) : dataDir;
    console.log(`graph memory: ${mb(inputBytes)} MB transcript${arborNodes ? ', with Arbor nodes' : ''}, load ${load()}`);

    // --same-process: the serving process imports the transcript itself first (into a store of its own).
    const fresh = process.argv.includes('--same-process') ? join(root, `fresh-${targetMb}-${process.pid}`) : null;
    if (fresh !== null) await mkdir(fresh, { recursive: true });
    const server = run(fresh === null ? ['--open', served] : ['--open', fresh, projects]);
    const url = await new Promise<string>((resolve, reject) => {
      // With --same-process the URL comes once the import and its indexing are done.
      let pending = '';
      server.stdout!.setEncoding('utf8');
      server.stdout!.on('data', (data: string) => {
        pending += data;
        const match = /^serve (\S+)$/m.exec(pending);
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`open child exited (${code})`)));
    });
    const pid = server.pid!;
    let peak = 0;
    let peakAnon = 0;
    const timer = setInterval(() => {
      try {
        const now = status(pid);
        if (now.rss > peak) [peak, peakAnon] = [now.rss, now.anon];
      } catch {
        // exited
      }
    }, 20);
    const client = await Client.connect(url);
    const phases: Phase[] = [];
    const phase = async (name: string, work: () => Promise<string>): Promise<void> => {
      peak = 0;
      const started = performance.now();
      const note = await work();
      const ms = performance.now() - started;
      await sleep(40); // the sampler's last turn
      const after = status(pid);
      phases.push({ name, ms, sampled: peak, hwm: after.hwm, anon: peakAnon, note });
      server.stdin!.write(`${name}\n`);
      console.log(`  ${name.padEnd(12)} ${ms.toFixed(0).padStart(7)} ms  peak RSS ${mb(peak).padStart(7)} MB sampled (anon ${mb(peakAnon)}), VmHWM ${mb(after.hwm)} MB  load ${load()}  ${note}`);
    };

    const list = (await client.call('sessions.list', {})) as { sessions: { id: string; nodeCount: number }[] };
    // The biggest session (a store given with --data may hold others beside it).
    const session = list.sessions.reduce((biggest, other) => (other.nodeCount > biggest.nodeCount ? other : biggest));
    await phase('idle', async () => {
      await sleep(1000);
      return `${session.nodeCount} nodes`;
    });
    await phase('pages', async () => {
      // As the renderer asks them (session-graph-pages.ts): page 0 alone, then the rest with at most --window
      // pages asked and not yet taken ('all': every one at once, as the renderer did before issue 12).
      const total = graphPagesFor(session.nodeCount);
      const window = windowArg === 'all' ? total : Number(windowArg);
      const started = performance.now();
      const first = (await client.call('sessions.graphPage', { sessionId: session.id, page: 0 })) as SessionGraphPage;
      const firstMs = performance.now() - started;
      // An Arbor-node session before arbor-node-pages.ts: page 0 was the whole graph.
      if (first.graph !== undefined) {
        const graph = isEncodedSessionGraph(first.graph) ? decodeSessionGraph(first.graph) : (first.graph as SessionGraph);
        return `page 0 whole (${graph.nodes.length} nodes) in ${firstMs.toFixed(0)} ms`;
      }
      let nodes = chunkOfPage(first).ids.length;
      const asked: Promise<unknown>[] = [];
      const take = (page: number): Promise<unknown> => {
        for (let next = asked.length + 1; next < Math.min(first.pages, page + window); next++) asked.push(client.call('sessions.graphPage', { sessionId: session.id, page: next }));
        return asked[page - 1]!;
      };
      for (let page = 1; page < first.pages; page++) nodes += chunkOfPage((await take(page)) as SessionGraphPage).ids.length;
      const allMs = performance.now() - started;
      return `${first.pages} pages (window ${windowArg}), ${nodes} nodes; page 0 in ${firstMs.toFixed(0)} ms, all pages in ${allMs.toFixed(0)} ms`;
    });
    await phase('pages-flood', async () => {
      // A client that asks every page at once (the renderer before issue 12 asked 22 of 23 together): what
      // the serving side holds must not follow the session's size either.
      const started = performance.now();
      let firstMs = 0;
      const pages = await Promise.all(
        Array.from({ length: graphPagesFor(session.nodeCount) }, async (_, page) => {
          const answer = await client.call('sessions.graphPage', { sessionId: session.id, page });
          if (page === 0) firstMs = performance.now() - started;
          return answer;
        }),
      );
      const nodes = (pages as SessionGraphPage[]).reduce((sum, page) => sum + (page.chunk === '' && page.chunkValue === undefined ? 0 : chunkOfPage(page).ids.length), 0);
      return `${pages.length} pages, ${nodes} nodes; page 0 in ${firstMs.toFixed(0)} ms`;
    });
    if (process.argv.includes('--states')) {
      await phase('states', async () => {
        const states = (await client.call('sessions.states', { sessionId: session.id })) as { known: Record<string, unknown> };
        return `${Object.keys(states.known).length} states`;
      });
    }
    let anchor = '';
    for (const name of process.argv.includes('--pages-only') ? [] : ['whole', 'whole-again']) {
      await phase(name, async () => {
        const text = await client.callText('sessions.graph', { sessionId: session.id });
        if (name !== 'whole') return `${mb(text.length)} MB answer`;
        let started = performance.now();
        const message = JSON.parse(text) as ServerMessage & { t: 'res'; ok: true; result: unknown };
        const parseMs = performance.now() - started;
        const graph = isEncodedSessionGraph(message.result) ? decodeSessionGraph(message.result) : (message.result as SessionGraph);
        started = performance.now();
        const plain = JSON.stringify(graph);
        const stringifyMs = performance.now() - started;
        anchor = `anchor (this process): JSON.parse of the ${mb(text.length)} MB answer ${parseMs.toFixed(0)} ms; JSON.stringify of its ${graph.nodes.length} decoded nodes ${stringifyMs.toFixed(0)} ms, ${mb(plain.length)} MB`;
        return `${graph.nodes.length} nodes, ${mb(text.length)} MB answer`;
      });
    }
    await phase('settled', async () => {
      await sleep(3000);
      return 'after 3 s';
    });
    clearInterval(timer);
    client.close();
    server.stdin!.end();
    await once(server, 'exit');
    if (fresh !== null) await rm(fresh, { recursive: true, force: true });
    console.log(`  ${anchor}`);
    // With --same-process VmHWM includes the import's own peak; the phases' sampled peaks are the opening's.
    const worst = Math.max(...phases.map((p) => (fresh === null ? Math.max(p.sampled, p.hwm) : p.sampled)));
    console.log(
      `  peak RSS of the serving process while opening ${mb(worst)} MB (target <= 500) ${worst <= 500 * MiB ? 'OK' : 'MISSED'}` +
        (fresh === null ? '' : `; VmHWM incl. its own import and indexing ${mb(phases.at(-1)!.hwm)} MB`),
    );
  } finally {
    if (kept === undefined) await rm(root, { recursive: true, force: true });
  }
}

const main = process.argv[2] === '--import' ? importChild(process.argv[3]!, process.argv[4]!) : process.argv[2] === '--open' ? openChild(process.argv[3]!, process.argv[4]) : parent();
main.catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
