/**
 * A Codex rollout that grew since the last import is read from where that import ended, with what its parser
 * kept there (migration 040, issue 12): re-reading the whole rollout for every append made an append cost the
 * session's size. The rows after the append equal a fresh import of the whole file, in-thread and through the
 * parse worker, and a rollout rewritten meanwhile is read from its start.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/db/database';
import { openSessionStore } from '../../../electron/db/session-store';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { startParseWorker } from '../../../electron/importers/worker/parse-worker';
import { importSessions, type TranscriptReader } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-codex-append-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000b7';

/** Rows of every table the import writes; raw lines aside (an append stores them as read, compacted later). */
const DUMPS: Record<string, string> = {
  sessions: 'SELECT * FROM sessions ORDER BY id',
  files: 'SELECT id, path, format, size, mtime_ms, end_offset, end_line, session_id, parse_state, parse_state_offset FROM files ORDER BY id',
  nodes: 'SELECT seq, id, session_id, file_id, line, offset, parent_source_id, parent_id, kind, timestamp, label, sidechain, agent_id, model, spawned_agent_id, raw_bytes, text FROM nodes ORDER BY seq',
  edges: 'SELECT * FROM edges ORDER BY node_seq, kind, other_id',
  tool_calls: 'SELECT * FROM tool_calls ORDER BY node_seq, ordinal',
  tool_results: 'SELECT * FROM tool_results ORDER BY tool_use_id',
  records: 'SELECT id, file_id, line, offset, type, ref_source_id FROM records ORDER BY id',
  node_usage: 'SELECT * FROM node_usage ORDER BY node_seq',
};

function dump(storePath: string): Record<string, string[]> {
  const db = openDatabase(storePath);
  try {
    return Object.fromEntries(Object.entries(DUMPS).map(([table, sql]) => [table, db.read.prepare(sql).all().map((row) => JSON.stringify(row))]));
  } finally {
    db.close();
  }
}

/** The reader, counting the bytes each parse read (from where it started). */
function countingReader(base: TranscriptReader, reads: number[]): TranscriptReader {
  return {
    ...base,
    parse: (file, sink, options) => {
      reads.push(0);
      const at = reads.length - 1;
      return base.parse(file, sink, { ...options, onBytes: (bytes) => ((reads[at] = bytes), options.onBytes?.(bytes)) });
    },
  };
}

function rollout(turns: number, from = 0, builder = new RolloutBuilder({ id: ID, cwd: '/work/app' })): RolloutBuilder {
  for (let turn = from; turn < from + turns; turn++) {
    builder
      .user(`Turn ${turn}: fix module ${turn % 7}`)
      .command(`npm test -- module-${turn % 7}`, { exitCode: turn % 3 === 0 ? 1 : 0, output: `output of turn ${turn}\n`.repeat(30) })
      .patch(`src/module-${turn % 7}.ts`, `old ${turn}`, `new ${turn}`, turn % 4 !== 0)
      .agent(`Turn ${turn} done.`)
      .complete();
  }
  return builder;
}

it.each(['in-thread', 'worker'] as const)('a grown Codex rollout imports only its new lines (%s) and stores what a fresh import of the whole file stores', async (path) => {
  const folder = join(root, 'sessions');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl`);
  const builder = rollout(120);
  // The last turn's call is answered in the appended part.
  const open = builder.nextCallId();
  builder.emit('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm run build' }), call_id: open });
  const before = builder.drain().map((line) => `${line}\n`).join('');
  writeFileSync(file, before);
  const grownPath = join(root, 'grown.sqlite');
  const store = openSessionStore(grownPath);
  const reads: number[] = [];
  try {
    await importSessions(store, countingReader(transcriptReader, reads), [folder], { jobId: 'first', workerFromBytes: Number.POSITIVE_INFINITY });
    builder.emit('response_item', { type: 'function_call_output', call_id: open, output: 'Process exited with code 0\nOutput:\nbuilt' });
    const appended = rollout(3, 120, builder).drain().map((line) => `${line}\n`).join('');
    appendFileSync(file, appended);
    const worker = path === 'worker' ? startParseWorker() : null;
    if (worker !== null) expect(await worker.ready).toBe(true);
    const reader: TranscriptReader = worker === null ? transcriptReader : { ...transcriptReader, startWorker: () => worker };
    const outcome = await importSessions(store, countingReader(reader, reads), [folder], { jobId: 'append', workerFromBytes: path === 'worker' ? 0 : Number.POSITIVE_INFINITY });
    expect(outcome.problems).toEqual([]);
    expect(outcome.sessions.map((session) => session.nodes)).toEqual([expect.any(Number)]);
    expect(outcome.sessions[0]!.nodes).toBeGreaterThan(10);
    // The worker reads its jobs itself (this reader's parse is not called); in-thread, only the appended bytes.
    if (path === 'in-thread') expect(reads.at(-1)).toBe(Buffer.byteLength(appended));
    const result = store.handles.read.prepare<[string], { is_error: number | null }>('SELECT is_error FROM tool_results WHERE tool_use_id = ?').get(open);
    expect(result).toEqual({ is_error: 0 });
  } finally {
    store.close();
  }
  const freshPath = join(root, 'fresh.sqlite');
  const fresh = openSessionStore(freshPath);
  try {
    await importSessions(fresh, transcriptReader, [folder], { jobId: 'whole', workerFromBytes: Number.POSITIVE_INFINITY });
  } finally {
    fresh.close();
  }
  const grown = dump(grownPath);
  const whole = dump(freshPath);
  for (const table of Object.keys(DUMPS)) {
    expect(grown[table]!.length, table).toBe(whole[table]!.length);
    const differs = grown[table]!.findIndex((row, index) => row !== whole[table]![index]);
    expect(differs === -1 ? null : [grown[table]![differs], whole[table]![differs]], table).toBeNull();
  }
});

it('a Codex rollout rewritten since the last import (its first lines changed) is read from its start', async () => {
  const folder = join(root, 'sessions');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl`);
  writeFileSync(file, rollout(20).text());
  const store = openSessionStore(join(root, 'arbor.sqlite'));
  const reads: number[] = [];
  try {
    await importSessions(store, countingReader(transcriptReader, reads), [folder], { jobId: 'first', workerFromBytes: Number.POSITIVE_INFINITY });
    const rewritten = rollout(25, 100).text();
    writeFileSync(file, rewritten);
    await importSessions(store, countingReader(transcriptReader, reads), [folder], { jobId: 'rewritten', workerFromBytes: Number.POSITIVE_INFINITY });
    expect(reads.at(-1)).toBe(Buffer.byteLength(rewritten));
  } finally {
    store.close();
  }
});
