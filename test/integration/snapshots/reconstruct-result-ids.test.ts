/**
 * `sessions.states` reads only the result lines that answer a file edit, the others known by the calls the import
 * kept for them (migration 041, db/result-ids.ts). The reconstruction must say exactly what reading every line says,
 * at every node: generated sessions with every shape (edits, Write, shell commands, parallel calls, mid-file roots,
 * files changed outside the transcript), a fork of one, file-history snapshots with backups, and result lines that
 * are cut at the raw limit, carry two edits' results, or answer a call the session does not have. A store made
 * before 041 has no ids kept: it reads every line, and answers the same. The lines it reads are stored in blocks
 * of their own (raw-blocks.ts lanes), so it decodes only those.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { importSessions } from '../../../electron/service/import-sessions';
import { lineageNodes } from '../../../electron/service/session-lineage';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { FILE_HISTORY_RECORDS, reconstructSession, type FileHistorySource, type Reconstruction } from '../../../electron/snapshots/reconstruct';
import { Random } from '../../../shared/random';
import { copyRows, sharedColumns } from '../db/previous-schema';

const SEEDS = [1, 2, 3, 4];
const FORKED_SEED = 3;
const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'records', 'raw_blocks', 'link_waiting', 'prompt_times', 'node_usage', 'session_lineage'];
const CWD = '/home/dev/app';
const sessionIdOf = (seed: number, part = '4000-8000') => `0d1f7e2a-0000-${part}-${String(seed).padStart(12, '0')}`;

/** Lines a generator does not write: results cut at the raw limit, two edits answered on one line, a stray result. */
function oddLines(sessionId: string, parentUuid: string): string[] {
  const line = (uuid: string, parent: string, type: string, content: unknown[], extra: object = {}) =>
    JSON.stringify({ type, uuid, parentUuid: parent, sessionId, cwd: CWD, timestamp: '2026-12-01T10:00:00.000Z', message: { role: type === 'user' ? 'user' : 'assistant', content }, ...extra });
  const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
  const result = (id: string, extra: object = {}) => ({ type: 'tool_result', tool_use_id: id, content: 'done', ...extra });
  const path = `${CWD}/odd.txt`;
  return [
    line('odd-1', parentUuid, 'assistant', [use('toolu_odd_w', 'Write', { file_path: path, content: 'one\n' })]),
    line('odd-2', 'odd-1', 'user', [result('toolu_odd_w')], { toolUseResult: { type: 'create', filePath: path, content: 'one\n' } }),
    // Two edits answered on one line: its toolUseResult belongs to neither for sure.
    line('odd-3', 'odd-2', 'assistant', [use('toolu_odd_e1', 'Edit', { file_path: path, old_string: 'one', new_string: 'two' }), use('toolu_odd_e2', 'Bash', { command: 'ls' })]),
    line('odd-4', 'odd-3', 'user', [result('toolu_odd_e1'), result('toolu_odd_e2')], { toolUseResult: { filePath: path, oldString: 'one', newString: 'two', originalFile: 'one\n' } }),
    // A shell command's output longer than the store keeps: the line is cut, and reads as no line.
    line('odd-5', 'odd-4', 'assistant', [use('toolu_odd_b', 'Bash', { command: 'make' })]),
    line('odd-6', 'odd-5', 'user', [result('toolu_odd_b', { content: 'x'.repeat(RAW_LIMIT + 10) })]),
    // A result of a call this session does not have, and an error result of an edit.
    line('odd-7', 'odd-6', 'user', [result('toolu_elsewhere')]),
    line('odd-8', 'odd-7', 'assistant', [use('toolu_odd_e3', 'Edit', { file_path: path, old_string: 'zz', new_string: 'y' })]),
    line('odd-9', 'odd-8', 'user', [result('toolu_odd_e3', { is_error: true })], { toolUseResult: 'Error: String to replace not found in file.' }),
  ];
}

/** Backups the file-history snapshots name: each one's content made up from its name, one of them missing. */
function fileHistory(store: SessionStore): FileHistorySource {
  return {
    recordsOf: (nodeId) => store.getRecords(nodeId).flatMap((record) => (FILE_HISTORY_RECORDS.has(record.type) ? [{ type: record.type, raw: record.raw.toString('utf8'), file: record.file }] : [])),
    readBackup: (_sessionId, name) => Promise.resolve(name.endsWith('@v1') ? null : Buffer.from(`backup ${name}\n`)),
  };
}

/** The session's reconstruction, reading every line (the previous way) or only those the kept ids leave. */
async function reconstruct(store: SessionStore, sessionId: string, keptIds: boolean): Promise<{ reconstruction: Reconstruction; reads: number; nodes: number }> {
  const nodes = lineageNodes(store, sessionId, store.getSessionNodes(sessionId));
  let reads = 0;
  const read = (nodeId: string) => {
    reads++;
    const line = store.getNodeLine(nodeId);
    return line === null || line.rawBytes > line.raw.length ? null : line.raw.toString('utf8');
  };
  const kept = store.storedResultIds([...new Set(nodes.map((node) => node.sessionId))]);
  const reconstruction = await reconstructSession(nodes, read, { fileHistory: fileHistory(store), ...(keptIds ? { resultIdsOf: (id: string) => kept.get(id) } : {}) });
  return { reconstruction, reads, nodes: nodes.length };
}

/** Everything the reconstruction answers, at every node, in a comparable shape. */
function answers(reconstruction: Reconstruction, nodeIds: readonly string[]): unknown {
  return {
    touched: reconstruction.touchedFiles,
    problems: reconstruction.problems,
    stats: reconstruction.stats,
    known: [...reconstruction.knownByNode()],
    nodes: nodeIds.map((id) => {
      const state = reconstruction.stateAt(id);
      return {
        id,
        files: [...state.files],
        unknownFiles: state.unknownFiles,
        known: state.known,
        unknownSince: state.unknownSince,
        fileUnknownSince: [...state.fileUnknownSince],
        changed: reconstruction.changedAt(id),
        edits: reconstruction.editsAt(id),
      };
    }),
  };
}

let root: string;
let folder: string;
const sessions: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-result-ids-'));
  folder = join(root, 'projects');
  const project = join(folder, '-home-dev-app');
  mkdirSync(project, { recursive: true });
  for (const seed of SEEDS) {
    const sessionId = sessionIdOf(seed);
    const lines = [...syntheticSessionLines(400, { seed, sessionId, cwd: CWD, shapes: true })];
    const last = (JSON.parse(lines.findLast((text) => text.includes('"uuid"'))!) as { uuid: string }).uuid;
    writeFileSync(join(project, `${sessionId}.jsonl`), [...lines, ...(seed === 1 ? oddLines(sessionId, last) : [])].join('\n') + '\n');
    sessions.push(sessionId);
    if (seed === FORKED_SEED) {
      const forkId = sessionIdOf(seed, '4000-9000');
      const fork = new TranscriptBuilder({ sessionId: forkId, cwd: CWD, version: '2.1.200', gitBranch: 'main', slug: 'fork' }, new Random(seed), new Date(Date.UTC(2026, 5, 1)));
      const copies = fork.forkCopies(lines.slice(0, Math.floor(lines.length * 0.4)), sessionId, { newUuids: true });
      const own = [...syntheticSessionLines(150, { seed: seed + 1000, sessionId: forkId, cwd: CWD, shapes: true })];
      const hung = own.map((text, i) => (i === own.findIndex((t) => t.includes('"uuid"')) ? JSON.stringify({ ...(JSON.parse(text) as object), parentUuid: copies.at(-1) }) : text));
      writeFileSync(join(project, `${forkId}.jsonl`), [...fork.take(), ...hung].join('\n') + '\n');
      sessions.push(forkId);
    }
  }
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the result lines kept as the calls they answer', () => {
  it('give the same states at every node as reading every line, reading only the edits\' results', async () => {
    const store = openSessionStore(join(root, 'current.sqlite'));
    try {
      await importSessions(store, transcriptReader, [folder], { jobId: 'import' });
      let nodes = 0;
      const reads = { full: 0, kept: 0 };
      for (const sessionId of sessions) {
        const full = await reconstruct(store, sessionId, false);
        const kept = await reconstruct(store, sessionId, true);
        const ids = lineageNodes(store, sessionId, store.getSessionNodes(sessionId)).map((node) => node.id);
        expect(answers(kept.reconstruction, ids)).toEqual(answers(full.reconstruction, ids));
        expect(kept.reads).toBeLessThan(full.reads);
        reads.full += full.reads;
        reads.kept += kept.reads;
        nodes += full.nodes;
        if (sessionId === sessionIdOf(1)) {
          // The odd lines did what they do when read: two results on one line, a cut line, an edit that failed.
          const problems = full.reconstruction.problems.map((problem) => problem.kind);
          expect(full.reconstruction.knownAt('odd-4')).toBe('unknown');
          expect(problems.length).toBeGreaterThan(0);
          expect(full.reconstruction.stats.edits).toBeGreaterThan(10);
        }
      }
      expect(nodes).toBeGreaterThan(1500);
      // The call lines of edits and commands are still read (their input), and the edits' results.
      expect(reads.kept).toBeLessThan(reads.full * 0.8);
      const kept = store.handles.read.prepare<[], { n: number }>('SELECT count(*) AS n FROM result_ids').get()!.n;
      expect(kept).toBeGreaterThan(300);
      // The lines it reads are in blocks of their own: an Edit call's line never shares a block with a Read's result.
      const blocksOf = (sql: string) => new Set(store.handles.read.prepare<[], { b: number }>(sql).all().map((row) => row.b));
      const editCalls = blocksOf("SELECT n.raw_block AS b FROM nodes n JOIN tool_calls c ON c.node_seq = n.seq WHERE c.name = 'Edit' AND n.raw_block IS NOT NULL");
      const readResults = blocksOf(
        "SELECT n.raw_block AS b FROM nodes n JOIN tool_results r ON r.node_seq = n.seq JOIN tool_calls c ON c.tool_use_id = r.tool_use_id WHERE c.name = 'Read' AND n.raw_block IS NOT NULL",
      );
      expect(editCalls.size).toBeGreaterThan(0);
      expect(readResults.size).toBeGreaterThan(0);
      expect([...editCalls].filter((block) => readResults.has(block))).toEqual([]);
      // The cut line keeps no ids (it reads as no line at all); the stray result and the failed edit do.
      const keptOf = store.storedResultIds([sessionIdOf(1)]);
      expect(keptOf.has('odd-6')).toBe(false);
      expect(keptOf.get('odd-4')).toEqual(['toolu_odd_e1', 'toolu_odd_e2']);
      expect(keptOf.get('odd-7')).toEqual(['toolu_elsewhere']);
    } finally {
      store.close();
    }
  }, 240_000);

  it('are none in a store made before migration 041, which reads every line and answers the same', async () => {
    const currentPath = join(root, 'reference.sqlite');
    const current = openSessionStore(currentPath);
    const reference = new Map<string, unknown>();
    try {
      await importSessions(current, transcriptReader, [folder], { jobId: 'import' });
      for (const sessionId of sessions) {
        const ids = lineageNodes(current, sessionId, current.getSessionNodes(sessionId)).map((node) => node.id);
        reference.set(sessionId, answers((await reconstruct(current, sessionId, true)).reconstruction, ids));
      }
    } finally {
      current.close();
    }
    const oldPath = join(root, 'before-041.sqlite');
    const old = new Database(oldPath) as WritableDB;
    migrate(old, MIGRATIONS.filter((migration) => migration.version < 41));
    expect(old.pragma('user_version', { simple: true })).toBe(40);
    copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
    old.close();

    const store = openSessionStore(oldPath);
    try {
      const db = store.handles.read;
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
      expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM result_ids').get()!.n).toBe(0);
      for (const sessionId of sessions) {
        const ids = lineageNodes(store, sessionId, store.getSessionNodes(sessionId)).map((node) => node.id);
        expect(store.storedResultIds([sessionId]).size).toBe(0);
        const full = await reconstruct(store, sessionId, true);
        expect(answers(full.reconstruction, ids)).toEqual(reference.get(sessionId));
      }
    } finally {
      store.close();
    }
  }, 240_000);
});
