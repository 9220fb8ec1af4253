/**
 * Migration 013 (a store no bigger than its transcripts): raw lines stored compressed, the full-text index
 * without its own copy of the text. Every reader of a raw line gets the line back byte for byte, on generated
 * sessions and the public corpus; a store made by the previous migrations is moved without reading a
 * transcript, its old rows compressed in the background, and that work survives being interrupted.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openDatabase, type WritableDB } from '../../../electron/db/database';
import { RAW_IN_BLOCK } from '../../../electron/db/raw-blocks';
import { decodeRaw, encodeRaw } from '../../../electron/db/raw-line';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from '../../../electron/db/raw-line-reader';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { deriveSearchText } from '../../../electron/importers/search-text';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { importSessions } from '../../../electron/service/import-sessions';
import { copyRows } from './previous-schema';

const corpus = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const present = existsSync(corpus);
if (!present) console.warn(`migration-013: corpus part skipped, ${corpus} is absent (the public corpus lives beside the repo)`);

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-13-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writeGenerated(projects: string): void {
  for (const [name, seed] of [['alpha', 7], ['beta', 8]] as const) {
    const dir = join(projects, `-home-dev-${name}`);
    mkdirSync(dir, { recursive: true });
    const lines = [...syntheticSessionLines(400, { seed, shapes: true, sessionId: `S-${name}`, cwd: `/home/dev/${name}` })];
    writeFileSync(join(dir, `S-${name}.jsonl`), lines.map((line) => `${line}\n`).join(''));
  }
}

async function importInto(store: SessionStore, paths: readonly string[]) {
  return importSessions(store, transcriptReader, paths, { jobId: 'm13', workerFromBytes: Infinity });
}

function fileLines(path: string): Buffer[] {
  const bytes = readFileSync(path);
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  // A last line without its newline is a line too.
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Every stored line (node details, tool results, attached records) equals its transcript line; returns how many were compared. */
function expectLinesAsRead(store: SessionStore): number {
  let compared = 0;
  for (const file of store.transcriptFiles()) {
    const lines = fileLines(file);
    for (const id of store.getNodeIdsOfFile(file)) {
      const node = store.getNode(id);
      if (node === null) throw new Error(`node ${id} not readable`);
      const line = lines[node.line - 1];
      if (line === undefined) throw new Error(`no line ${node.line} in ${file}`);
      // A line over the stored limit keeps its head: the head must still be the line's own bytes.
      const expected = node.rawBytes > node.raw.length ? line.subarray(0, node.raw.length) : line;
      if (!node.raw.equals(expected)) expect({ file, line: node.line, raw: node.raw.toString('utf8') }).toEqual({ file, line: node.line, raw: expected.toString('utf8') });
      compared++;
      for (const call of store.getToolCalls(node)) {
        if (call.result === null) continue;
        const result = store.getNode(call.result.nodeId);
        expect(result !== null && call.result.raw.equals(result.raw)).toBe(true);
      }
      for (const record of store.getRecords(id)) {
        const recordLines = record.file === file ? lines : fileLines(record.file);
        expect(record.raw.toString('utf8')).toBe(recordLines[record.line - 1]?.toString('utf8'));
        compared++;
      }
    }
  }
  return compared;
}

function codecs(store: SessionStore): { plain: number; compressed: number; inBlocks: number } {
  const row = store.handles.read
    .prepare<[], { plain: number; compressed: number; inBlocks: number }>(
      `SELECT sum(raw_codec = 0) AS plain, sum(raw_codec = 1) AS compressed, sum(raw_codec = ${RAW_IN_BLOCK}) AS inBlocks FROM nodes`,
    )
    .get();
  return { plain: row?.plain ?? 0, compressed: row?.compressed ?? 0, inBlocks: row?.inBlocks ?? 0 };
}

function indexAll(store: SessionStore): void {
  while (store.indexNextChunk(500, deriveSearchText) > 0);
}

describe('raw lines in a compact store', () => {
  it('come back byte for byte from node details, tool results and records (generated sessions)', async () => {
    const projects = join(root, 'projects');
    writeGenerated(projects);
    const store = openSessionStore(join(root, 'arbor.sqlite'));
    try {
      await importInto(store, [projects]);
      expect(expectLinesAsRead(store)).toBeGreaterThan(800);
      // Since migration 035 an import stores every line in a compressed block (raw-blocks.ts).
      const { plain, compressed, inBlocks } = codecs(store);
      expect({ plain, compressed }).toEqual({ plain: 0, compressed: 0 });
      expect(inBlocks).toBeGreaterThan(800);
      expect(store.pendingCompactionRows()).toBe(0);
    } finally {
      store.close();
    }
  });

  it.skipIf(!present)('come back byte for byte from every Claude Code transcript of the public corpus', async () => {
    const store = openSessionStore(join(root, 'arbor.sqlite'));
    try {
      await importInto(store, [corpus]);
      expect(expectLinesAsRead(store)).toBeGreaterThan(1000);
    } finally {
      store.close();
    }
  });
});

/** The columns the schema before 013 has (no raw_codec): the rows the previous code stored. */
const PREVIOUS_TABLES: Record<string, string> = {
  sessions: 'id, source, title, project, started_at, updated_at, node_count, file_count, branch_count, dirty, summary_title, summary_stale, forward_min_seq',
  session_aliases: 'alias, session_id',
  files: 'id, path, format, role, agent_id, session_id, size, mtime_ms, end_offset, end_line, first_cwd',
  nodes: `seq, id, session_id, file_id, line, offset, parent_source_id, parent_id, logical_parent_source_id, kind, timestamp,
          label, sidechain, agent_id, model, spawned_agent_id, spawned_by_tool_use_id, raw_bytes, raw, text`,
  edges: 'node_seq, kind, other_id',
  tool_calls: 'node_seq, ordinal, tool_use_id, name',
  tool_results: 'tool_use_id, node_seq, is_error',
  agent_spawns: 'agent_id, tool_use_id',
  records: 'id, file_id, offset, line, type, ref_source_id, ref_by_key, summary, raw, raw_bytes',
  link_waiting: 'ref, kind, item',
  prompt_times: 'parent_seq, time, children',
};

/** A store in the schema before 013 (011) holding the rows of `from`, raw lines as they were read, fully indexed. */
function previousSchemaCopy(from: string, to: string): void {
  const old = new Database(to) as WritableDB;
  try {
    old.pragma('page_size = 65536');
    migrate(old, MIGRATIONS.filter((migration) => migration.version < 13));
    expect(old.pragma('user_version', { simple: true })).toBe(11);
    // The previous code stored lines as read: each line as the current store hands it out.
    const source = openDatabase(from);
    const lines = prepareRawLineReader(source.read);
    const nodeLines = source.read.prepare<[], StoredRawColumns & { seq: number }>(`SELECT seq, ${rawColumns('nodes')} FROM nodes`).all();
    const recordLines = source.read.prepare<[], StoredRawColumns & { id: number }>(`SELECT id, ${rawColumns('records')} FROM records`).all();
    const plainNodes = nodeLines.map((row) => [lines.line(row), row.seq] as const);
    const plainRecords = recordLines.map((row) => [lines.line(row), row.id] as const);
    source.close();
    copyRows(old, from, PREVIOUS_TABLES, () => {
      const plain = old.prepare<[Buffer, number]>('UPDATE main.nodes SET raw = ? WHERE seq = ?');
      for (const [raw, seq] of plainNodes) plain.run(raw, seq);
      const plainRecord = old.prepare<[Buffer, number]>('UPDATE main.records SET raw = ? WHERE id = ?');
      for (const [raw, id] of plainRecords) plainRecord.run(raw, id);
      // Its index held its own copy of the text (the 010 layout), all of it indexed.
      old.exec(`INSERT INTO main.node_text (rowid, text, facets) SELECT seq, 'old copy', '' FROM main.nodes`);
      old.exec(`UPDATE main.meta SET value = (SELECT max(seq) FROM main.nodes) WHERE key = 'fts_indexed_upto'`);
    });
  } finally {
    old.close();
  }
}

describe('migration 013', () => {
  it('moves a store made by the previous migrations without reading a transcript, and compresses its old rows resumably', async () => {
    const projects = join(root, 'projects');
    writeGenerated(projects);
    const currentPath = join(root, 'current.sqlite');
    const current = openSessionStore(currentPath);
    await importInto(current, [projects]);
    indexAll(current);
    current.close();
    const migratedPath = join(root, 'migrated.sqlite');
    previousSchemaCopy(currentPath, migratedPath);
    // No transcript is read from here on.
    rmSync(projects, { recursive: true, force: true });

    let migrated = openSessionStore(migratedPath);
    const reopened = openSessionStore(currentPath);
    try {
      expect(migrated.handles.write.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
      // Old rows are readable as they are, before any is compressed.
      expect(codecs(migrated).compressed).toBe(0);
      const pending = migrated.pendingCompactionRows();
      expect(pending).toBeGreaterThan(800);
      const before = readAllRaw(migrated);
      expect(before).toEqual(readAllRaw(reopened));

      // Interrupted mid-chunk (a failing write): the whole chunk rolls back, nothing is half-stored.
      migrated.handles.write.exec(`CREATE TRIGGER stop_compaction BEFORE UPDATE OF raw ON nodes WHEN new.seq = 50 BEGIN SELECT RAISE(ABORT, 'interrupted'); END`);
      expect(() => migrated.compactNextChunk(100)).toThrow(/interrupted/);
      expect(migrated.pendingCompactionRows()).toBe(pending);
      expect(codecs(migrated).compressed).toBe(0);
      migrated.handles.write.exec('DROP TRIGGER stop_compaction');

      // Resumed after a restart: one chunk, then the store is closed and opened again.
      expect(migrated.compactNextChunk(100)).toBe(100);
      migrated.close();
      migrated = openSessionStore(migratedPath);
      expect(migrated.pendingCompactionRows()).toBeLessThan(pending);
      expect(codecs(migrated).compressed).toBeGreaterThan(0);
      while (migrated.compactNextChunk(300) > 0);
      expect(migrated.pendingCompactionRows()).toBe(0);
      expect(codecs(migrated).compressed).toBeGreaterThan(codecs(migrated).plain);
      expect(readAllRaw(migrated)).toEqual(before);
      // Each old row holds what encoding its line on its own gives (the per-line codec the compaction keeps).
      const storedBytes = migrated.handles.read.prepare<[], { bytes: number }>('SELECT sum(length(raw)) AS bytes FROM nodes').get()?.bytes ?? 0;
      const encodedBytes = migrated.handles.read
        .prepare<[], StoredRawColumns>(`SELECT ${rawColumns('nodes')} FROM nodes`)
        .all()
        .reduce((sum, row) => sum + encodeRaw(decodeRaw(row.raw, row.raw_codec)).raw.length, 0);
      expect(storedBytes).toBe(encodedBytes);

      // The index is filled again from the stored lines: the old copy of the text is gone.
      expect(migrated.search('old', 10)).toEqual([]);
      indexAll(migrated);
      for (const query of ['the', 'session', 'fix', '"the parser"']) {
        expect(migrated.search(query, 20)).toEqual(reopened.search(query, 20));
      }
      const inProject = migrated.searchPage('the', { limit: 50, offset: 0, cap: 1000, filters: { projects: ['/home/dev/alpha'] } });
      expect(inProject.hits.length).toBeGreaterThan(0);
      expect(inProject.hits.every((hit) => hit.sessionId === 'S-alpha')).toBe(true);
    } finally {
      migrated.close();
      reopened.close();
    }
  });
});

/** Every node's and record's line as the store hands it out. */
function readAllRaw(store: SessionStore): string[] {
  const out: string[] = [];
  for (const file of store.transcriptFiles()) {
    for (const id of store.getNodeIdsOfFile(file)) {
      const node = store.getNode(id);
      out.push(`${id} ${node?.raw.toString('base64') ?? 'missing'}`);
      for (const record of store.getRecords(id)) out.push(`${id} record ${record.line} ${record.raw.toString('base64')}`);
    }
  }
  return out;
}
