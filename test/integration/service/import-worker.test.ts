/**
 * The parse worker path stores exactly what the in-thread path stores (every row of every table, the
 * problems reported, the search index built afterwards), on synthetic sessions, hand-made awkward lines and
 * the public corpus; a worker that dies part-way hands the rest back to the in-thread parse.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/db/database';
import { openSessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { deriveSearchText } from '../../../electron/importers/search-text';
import { ParseWorkerFailedError, startParseWorker, type ParseWorker, type ParseWorkerOptions } from '../../../electron/importers/worker/parse-worker';
import { transcriptReader } from '../../../electron/service/arbor-service';
import type { ParseSink } from '../../../electron/importers/transcript';
import { importSessions, type ImportOutcome, type TranscriptReader } from '../../../electron/service/import-sessions';
import { CancelledError } from '../../../shared/errors';
import { prompt, reply, toolCall, toolResult } from './claude-lines';
import { RolloutBuilder, type HistoryMode } from '../../../electron/demo/codex-rollout';

const corpus = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
/** Every table the import writes, with an order that makes the dump deterministic. */
const TABLES: Record<string, string> = {
  sessions: 'id',
  session_aliases: 'alias',
  files: 'id',
  nodes: 'seq',
  edges: 'node_seq, kind, other_id',
  tool_calls: 'node_seq, ordinal',
  tool_results: 'tool_use_id',
  agent_spawns: 'agent_id',
  records: 'id',
  raw_blocks: 'id',
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-import-worker-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A reader whose worker has already loaded, so it parses every file (not just those after start-up). */
async function readerWithWorker(options: ParseWorkerOptions = {}): Promise<{ reader: TranscriptReader; worker: ParseWorker }> {
  const worker = startParseWorker(options);
  expect(await worker.ready).toBe(true);
  return { reader: { ...transcriptReader, startWorker: () => worker }, worker };
}

interface Imported {
  readonly outcome: ImportOutcome;
  readonly rows: Record<string, unknown[]>;
  readonly hits: Record<string, string[]>;
}

async function importInto(name: string, reader: TranscriptReader, paths: string[], workerFromBytes: number, queries: string[]): Promise<Imported> {
  const path = join(root, `${name}.sqlite`);
  const store = openSessionStore(path);
  let outcome: ImportOutcome;
  const hits: Record<string, string[]> = {};
  try {
    outcome = await importSessions(store, reader, paths, { jobId: name, workerFromBytes });
    while (store.indexNextChunk(500, deriveSearchText) > 0);
    for (const query of queries) hits[query] = store.search(query, 1000).map((hit) => hit.nodeId).sort();
  } finally {
    store.close();
  }
  const db = openDatabase(path);
  try {
    const rows: Record<string, unknown[]> = {};
    for (const [table, order] of Object.entries(TABLES)) rows[table] = db.read.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
    return { outcome, rows, hits };
  } finally {
    db.close();
  }
}

function rowText(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer'
      ? Buffer.from((value as { data: number[] }).data).toString('hex')
      : value,
  );
}

/**
 * The write worker's pace (stores for up to 100 ms a turn) and the pace of a thread that answers requests (one
 * batch a turn): batches arrive cut differently, the rows (and the blocks of raw lines) must not differ.
 */
const WORKERS: Record<string, ParseWorkerOptions> = {
  worker: { turnBudgetMs: 100 },
  'worker-one-batch-a-turn': {},
};

async function expectSamePaths(paths: string[], queries: string[], workers = Object.keys(WORKERS)): Promise<Imported> {
  const inThread = await importInto('in-thread', transcriptReader, paths, Number.POSITIVE_INFINITY, queries);
  for (const name of workers) {
    const options = WORKERS[name] ?? {};
    const { reader } = await readerWithWorker(options);
    const inWorker = await importInto(name, reader, paths, 0, queries);
    expect(inWorker.outcome).toEqual(inThread.outcome);
    for (const table of Object.keys(TABLES)) {
      // Rows as JSON lines (blobs as hex): a deep comparison of thousands of rows with blobs is slow.
      const worker = (inWorker.rows[table] ?? []).map(rowText);
      const thread = (inThread.rows[table] ?? []).map(rowText);
      expect(worker.length, `${name} ${table}`).toBe(thread.length);
      const differs = worker.findIndex((row, index) => row !== thread[index]);
      expect(differs === -1 ? null : [worker[differs], thread[differs]], `${name} ${table}`).toBeNull();
    }
    expect(inWorker.hits).toEqual(inThread.hits);
  }
  return inThread;
}

describe('the parse worker stores what the in-thread parse stores', () => {
  it('on synthetic sessions with subagents, big outputs and rewinds', async () => {
    const projects = join(root, 'projects');
    await writeSyntheticCorpus(projects, { totalBytes: 3 * 1024 * 1024, nodesPerSession: 400, seed: 7 });
    const imported = await expectSamePaths([projects], ['Read', 'error', 'test']);
    expect((imported.rows.nodes ?? []).length).toBeGreaterThan(500);
    expect(Object.values(imported.hits).some((ids) => ids.length > 0)).toBe(true);
  });

  it.each<HistoryMode>(['legacy', 'paginated'])(
    'on a %s Codex rollout longer than one read (the step held for its usage pointed into a buffer the batch before had transferred: "detached ArrayBuffer")',
    async (mode) => {
      const folder = join(root, 'codex');
      mkdirSync(folder, { recursive: true });
      const id = '019e0000-0000-7000-8000-00000000c0de';
      const builder = new RolloutBuilder({ id, cwd: '/work/app', mode });
      for (let turn = 0; turn < 400; turn++) {
        builder
          .user(`Turn ${turn}: fix module ${turn % 13}`)
          .reasoning(`Look at module ${turn % 13} first.`)
          .command(`npm test -- module-${turn % 13}`, { exitCode: turn % 5 === 0 ? 1 : 0, output: `line ${turn} of the output `.repeat(320) })
          .agent(`Turn ${turn} done.`)
          .complete();
      }
      const text = builder.text();
      expect(Buffer.byteLength(text)).toBeGreaterThan(3 * 1024 * 1024); // three reads of the line reader's 1 MiB
      writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`), text);
      const imported = await expectSamePaths([folder], ['module', 'output']);
      expect(imported.outcome.problems).toEqual([]);
      expect((imported.rows.nodes ?? []).length).toBeGreaterThan(1000);
    },
  );

  it('on awkward lines: bad JSON, records, a BOM, CRLF, an unterminated last line, a huge line', async () => {
    const folder = join(root, 'p');
    mkdirSync(folder, { recursive: true });
    const a = join(folder, 'S1.jsonl');
    const lines = [
      prompt('u1', null, 'find the needle'),
      toolCall('c1', 'u1', 'toolu_1', 'Bash', { command: 'grep needle -r .' }),
      toolResult('r1', 'c1', 'toolu_1', 'haystack\nneedle found'),
      { type: 'summary', summary: 'Needle hunt', leafUuid: 'r1' },
      reply('a1', 'r1', `big ${'x'.repeat(300_000)} tail`),
    ];
    writeFileSync(a, `\ufeff${lines.map((line) => JSON.stringify(line)).join('\r\n')}\n{"broken": \n[1,2]\n`);
    appendFileSync(a, JSON.stringify(reply('a2', 'a1', 'no newline at the end')));
    writeFileSync(join(folder, 'S2.jsonl'), `${JSON.stringify(prompt('u9', null, 'second session', 'S2'))}\n`);
    const imported = await expectSamePaths([folder], ['needle', 'tail', 'second']);
    expect(imported.outcome.problems.length).toBeGreaterThanOrEqual(2);
    expect(imported.hits.needle).toEqual(['c1', 'r1', 'u1']);
  });

  it.skipIf(!existsSync(corpus))('on the public Claude Code corpus', async () => {
    // Two imports, not three: on a loaded machine three of the corpus outlast the test's minute.
    const imported = await expectSamePaths([corpus], ['error', 'function'], ['worker-one-batch-a-turn']);
    expect((imported.rows.nodes ?? []).length).toBeGreaterThan(1000);
  });
});

describe('how the parse worker paces what it delivers', () => {
  /** In how many turns of the event loop a file's batches, all arrived before it is asked for, are stored. */
  async function turnsToStore(options: ParseWorkerOptions): Promise<{ batches: number; turns: number }> {
    const projects = join(root, 'paced');
    if (!existsSync(projects)) await writeSyntheticCorpus(projects, { totalBytes: 6 * 1024 * 1024, nodesPerSession: 3000, seed: 5 });
    const { files } = await transcriptReader.discover([projects], {});
    const file = [...files].sort((a, b) => b.size - a.size)[0]!;
    let endArrived: () => void = () => {};
    const arrived = new Promise<void>((done) => (endArrived = done));
    const worker = startParseWorker({ ...options, onEndArrived: () => endArrived() });
    try {
      expect(await worker.ready).toBe(true);
      worker.start([{ file, startOffset: 0, startLine: 1 }]);
      await arrived; // every batch has arrived (the worker reads ahead; the file's end comes after its batches)
      let turn = 0;
      let ticking = true;
      const tick = (): void => {
        turn++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const turns = new Set<number>();
      let batches = 0;
      await worker.next({ node: () => turns.add(turn), record: () => turns.add(turn), problem: () => {} }, () => batches++, undefined);
      ticking = false;
      return { batches, turns: turns.size };
    } finally {
      await worker.close();
    }
  }

  it('stores what has arrived at once in the write worker, which answers no request (it waited a turn for each batch)', async () => {
    const paced = await turnsToStore({});
    expect(paced.batches).toBeGreaterThan(3);
    expect(paced.turns).toBeGreaterThanOrEqual(paced.batches);
    // A budget no batch reaches here, so what has arrived is stored in one turn whatever the machine's load.
    const unpaced = await turnsToStore({ turnBudgetMs: 60_000 });
    expect(unpaced.batches).toBe(paced.batches);
    expect(unpaced.turns).toBeLessThan(unpaced.batches);
  });
});

describe('the parse worker, when things go wrong', () => {
  it('hands the rest back to the in-thread parse when it dies mid-import', async () => {
    const folder = join(root, 'p');
    for (let index = 0; index < 4; index++) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, `S${index}.jsonl`),
        [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`), reply(`a${index}`, `u${index}`, 'ok', `S${index}`)].map((line) => `${JSON.stringify(line)}\n`).join(''),
      );
    }
    const { worker } = await readerWithWorker();
    let files = 0;
    const dying: ParseWorker = {
      ...worker,
      next: async (sink, onBytes, signal) => {
        if (++files === 2) {
          await worker.close();
          throw new ParseWorkerFailedError(new Error('simulated crash'));
        }
        return worker.next(sink, onBytes, signal);
      },
    };
    const store = openSessionStore(join(root, 'arbor.sqlite'));
    try {
      const outcome = await importSessions(store, { ...transcriptReader, startWorker: () => dying }, [folder], { jobId: 'j', workerFromBytes: 0 });
      expect(outcome.problems).toEqual([]);
      expect(outcome.sessions.map((session) => [session.id, session.nodes]).sort()).toEqual([
        ['S0', 2], ['S1', 2], ['S2', 2], ['S3', 2],
      ]);
    } finally {
      store.close();
    }
  });

  it('stops with CancelledError when the import is cancelled while the worker delivers a file', async () => {
    const projects = join(root, 'projects');
    await writeSyntheticCorpus(projects, { totalBytes: 2 * 1024 * 1024, nodesPerSession: 200, seed: 3 });
    const { worker } = await readerWithWorker();
    const controller = new AbortController();
    let files = 0;
    const cancelling: ParseWorker = {
      ...worker,
      next: (sink, onBytes, signal) => {
        if (++files < 2) return worker.next(sink, onBytes, signal);
        // Cancelled mid-file, once the second file's first node has arrived.
        const node: ParseSink['node'] = (parsed) => (sink.node(parsed), controller.abort());
        return worker.next({ ...sink, node }, onBytes, signal);
      },
    };
    const store = openSessionStore(join(root, 'arbor.sqlite'));
    try {
      const importing = importSessions(store, { ...transcriptReader, startWorker: () => cancelling }, [projects], {
        jobId: 'j',
        workerFromBytes: 0,
        signal: controller.signal,
      });
      await expect(importing).rejects.toBeInstanceOf(CancelledError);
      // The first file was stored and linked; nothing after the cancelled one was read.
      const stored = store.listSessions({});
      expect(stored.total).toBe(1);
      expect(stored.sessions[0]?.nodeCount).toBeGreaterThan(100);
      expect(files).toBe(2);
    } finally {
      store.close();
    }
  });
});
