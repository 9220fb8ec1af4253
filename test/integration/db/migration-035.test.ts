/**
 * Migration 035 (raw lines in blocks, issue 12) on a store made by the previous schema: its rows keep their own
 * bytes (as read and deflated, codecs 0 and 1) and read back byte for byte; lines imported after it go into blocks
 * beside them, in the same session; deleting a session takes its blocks and leaves the old rows of another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { RAW_IN_BLOCK } from '../../../electron/db/raw-blocks';
import { encodeRaw, RAW_DEFLATE_V1 } from '../../../electron/db/raw-line';
import { forgetSessions } from '../../../electron/db/session-delete';
import { openSessionStore } from '../../../electron/db/session-store';
import { inOrder, parsedNode, parsedRecord, transcriptFile } from './parsed-fixtures';
import { copyRows, sharedColumns } from './previous-schema';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-migrate-35-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A line long enough to compress, different for each node. */
const lineOf = (id: string, parent: string | null): Buffer =>
  Buffer.from(JSON.stringify({ uuid: id, parentUuid: parent, type: 'user', message: { content: `step ${id}: ${'the parser reads the line again '.repeat(8)}` } }));

function nodes(session: string, count: number, startLine = 1) {
  const ids = Array.from({ length: count }, (_, index) => `${session}-${startLine + index}`);
  return inOrder(
    ids.map((id, index) => parsedNode(id, index === 0 ? (startLine === 1 ? null : `${session}-${startLine - 1}`) : ids[index - 1]!, { sessionSourceId: session, raw: lineOf(id, index === 0 ? null : ids[index - 1]!) })),
    startLine,
  ).map((node) => ({ ...node, rawBytes: node.raw.length }));
}

it('migration 035 keeps the old rows as they are, readable; new lines go into blocks; a deletion takes a session\'s blocks only', () => {
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  const oldNodes = nodes('S1', 6);
  const oldRecord = parsedRecord('summary', 'S1-6', { line: 7, offset: 7000, summary: 'Old title' });
  // As the schema before 035 stored them: each row its own bytes.
  const writer = current.beginFile(transcriptFile('/t/S1.jsonl', { sessionHint: 'S1' }), { compressRaw: false });
  for (const node of oldNodes) writer.node(node);
  writer.record(oldRecord);
  writer.finish({ endOffset: 7100, endLine: 8 });
  current.linkChangedSessions();
  current.close();

  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < 35));
  expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'raw_blocks'").all()).toEqual([]);
  copyRows(old, currentPath, sharedColumns(old, currentPath, ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'records']));
  // Half the old rows deflated on their own, as the background compaction left them.
  const compress = old.prepare<[Buffer, number, string]>('UPDATE nodes SET raw = ?, raw_codec = ? WHERE id = ?');
  for (const node of oldNodes.slice(0, 3)) {
    const encoded = encodeRaw(node.raw);
    compress.run(encoded.raw, encoded.codec, node.sourceId);
  }
  old.close();

  const migrated = openSessionStore(oldPath);
  try {
    const db = migrated.handles.read;
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    const codecOf = (id: string) => db.prepare<[string], { raw_codec: number; raw_block: number | null }>('SELECT raw_codec, raw_block FROM nodes WHERE id = ?').get(id);
    expect(codecOf('S1-1')).toEqual({ raw_codec: RAW_DEFLATE_V1, raw_block: null });
    expect(codecOf('S1-6')).toEqual({ raw_codec: 0, raw_block: null });
    for (const node of oldNodes) expect(migrated.getNode(node.sourceId)?.raw.toString('utf8')).toBe(node.raw.toString('utf8'));
    expect(migrated.getRecords('S1-6').map((record) => record.raw.toString('utf8'))).toEqual([oldRecord.raw.toString('utf8')]);

    // The file grows and a second session arrives: their lines are stored in blocks.
    const grown = migrated.beginFile(transcriptFile('/t/S1.jsonl', { sessionHint: 'S1' }));
    const appended = nodes('S1', 4, 8);
    for (const node of appended) grown.node(node);
    grown.finish({ endOffset: 12_000, endLine: 12 });
    const second = migrated.beginFile(transcriptFile('/t/S2.jsonl', { sessionHint: 'S2' }));
    const others = nodes('S2', 5);
    for (const node of others) second.node(node);
    second.record(parsedRecord('summary', 'S2-5', { line: 6, offset: 6000, summary: 'Second' }));
    second.finish({ endOffset: 6100, endLine: 7 });
    migrated.linkChangedSessions();
    expect(codecOf('S1-8')?.raw_codec).toBe(RAW_IN_BLOCK);
    expect(codecOf('S2-1')?.raw_codec).toBe(RAW_IN_BLOCK);
    const lines: string[] = [];
    migrated.forEachSessionLine('S1', (line) => lines.push(line.raw.toString('utf8')));
    expect(lines).toEqual([...oldNodes.map((node) => node.raw), oldRecord.raw, ...appended.map((node) => node.raw)].map((raw) => raw.toString('utf8')));
    expect(migrated.getNodeIdsOfFile('/t/S1.jsonl')).toHaveLength(10);
    for (const node of others) expect(migrated.getNode(node.sourceId)?.raw.equals(node.raw)).toBe(true);

    const blocksOf = (session: string) =>
      db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM raw_blocks b JOIN files f ON f.id = b.file_id WHERE f.session_id = ?').get(session)?.n ?? 0;
    expect(blocksOf('S1')).toBe(1);
    expect(blocksOf('S2')).toBe(2); // its nodes' block and its records' block
    expect(forgetSessions(migrated.handles.write, ['S2']).status).toBe('deleted');
    expect(blocksOf('S2')).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM raw_blocks').get()).toEqual({ n: 1 });
    for (const node of [...oldNodes, ...appended]) expect(migrated.getNode(node.sourceId)?.raw.equals(node.raw)).toBe(true);
  } finally {
    migrated.close();
  }
});
