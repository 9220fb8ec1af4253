/**
 * Raw-line blocks compressed ahead by the parse worker (blocks-ahead.ts): the writer stores a block the worker packed
 * when it holds exactly the lines the writer's own block holds, and the store is byte for byte what the writer would
 * have written compressing every block itself; a line the writer does not store makes it compress that block itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockForecast, type BlockAhead } from '../../../electron/db/blocks-ahead';
import { FIRST_BATCH_LINES } from '../../../electron/db/import-batches';
import { BLOCK_BROTLI, decodeBlock, NODE_LANE, RECORD_LANE, STATES_LANE } from '../../../electron/db/raw-blocks';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, ParsedRecord } from '../../../electron/importers/transcript';
import { inOrder, parsedNode, parsedRecord, transcriptFile } from './parsed-fixtures';

type Line = { readonly node: ParsedNode } | { readonly record: ParsedRecord };

let root: string;
const stores: SessionStore[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-blocks-ahead-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(root, { recursive: true, force: true });
});

function openStore(name: string): SessionStore {
  const store = openSessionStore(join(root, `${name}.sqlite`));
  stores.push(store);
  return store;
}

/**
 * A transcript's lines: ~1.3 KB nodes (every fifth read for states), a record after every seventh; past the first
 * batch (FIRST_BATCH_LINES) and into the next, so blocks are sealed by size, by a batch's end and by the file's end.
 */
function transcript(from: number, count: number, firstLine = 1): Line[] {
  const nodes = Array.from({ length: count }, (_, index) => {
    const id = `n${from + index}`;
    const raw = Buffer.from(JSON.stringify({ uuid: id, type: 'assistant', message: { content: `step ${from + index} ${'edits the parser, then runs the tests; '.repeat(30 + (index % 5))}` } }));
    return parsedNode(id, from + index === 0 ? null : `n${from + index - 1}`, { raw, rawBytes: raw.length, text: null, ...((from + index) % 5 === 0 ? { readForStates: true } : {}) });
  });
  const lines: { line: number; offset: number; item: ParsedNode | ParsedRecord; isNode: boolean }[] = [];
  nodes.forEach((node, index) => {
    lines.push({ line: 0, offset: 0, item: node, isNode: true });
    if (index % 7 === 6) lines.push({ line: 0, offset: 0, item: parsedRecord('file-history-snapshot', node.sourceId, { raw: Buffer.from(JSON.stringify({ type: 'file-history-snapshot', messageId: node.sourceId, pad: 'y'.repeat(300) })) }), isNode: false });
  });
  return inOrder(lines, firstLine).map(({ line, offset, item, isNode }) => (isNode ? { node: { ...(item as ParsedNode), line, offset } } : { record: { ...(item as ParsedRecord), line, offset } }));
}

/** What the parse worker sends beside these lines: every block it compressed ahead. */
function forecast(lines: readonly Line[]): BlockAhead[] {
  const ahead = new BlockForecast({ firstBatchLines: FIRST_BATCH_LINES });
  for (const line of lines) {
    if ('node' in line) ahead.node(line.node);
    else ahead.record(line.record);
  }
  ahead.end();
  return ahead.take();
}

function storeFile(store: SessionStore, path: string, lines: readonly Line[], ahead: readonly BlockAhead[] = []): void {
  const writer = store.beginFile(transcriptFile(path, { sessionHint: 'S1' }), { smallFirstBatch: true });
  writer.blocksAhead(ahead);
  for (const line of lines) {
    if ('node' in line) writer.node(line.node);
    else writer.record(line.record);
  }
  writer.finish({ endOffset: lines.length * 1000 + 1000, endLine: lines.length + 1 });
}

const storedBlocks = (store: SessionStore) =>
  store.handles.read.prepare<[], { id: number; file_id: number; session_id: string | null; codec: number; bytes: Buffer }>('SELECT * FROM raw_blocks ORDER BY id').all();
const storedRows = (store: SessionStore) =>
  store.handles.read.prepare('SELECT id, raw, raw_codec, raw_block, raw_start, raw_length FROM nodes ORDER BY seq').all();

/** The same lines compressed otherwise (brotli quality 5): a block stored as sent is told from one the writer compressed. */
function marked(blocks: readonly BlockAhead[], lines: readonly Line[]): BlockAhead[] {
  const byOffset = new Map(lines.map((line) => ('node' in line ? [line.node.offset, line.node.raw] : [line.record.offset, line.record.raw])));
  return blocks.map((block) => {
    const plain = Buffer.concat([...block.offsets].map((offset) => byOffset.get(offset)!));
    return { ...block, codec: BLOCK_BROTLI, bytes: new Uint8Array(brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })) };
  });
}

describe('raw-line blocks compressed ahead', () => {
  it('stores the blocks the worker compressed ahead: the same rows and bytes as compressing every block itself', () => {
    const lines = transcript(0, 1300);
    const ahead = forecast(lines);
    expect(new Set(ahead.map((block) => block.lane))).toEqual(new Set([NODE_LANE, STATES_LANE, RECORD_LANE]));
    const withAhead = openStore('ahead');
    const itself = openStore('itself');
    storeFile(withAhead, '/t/S1.jsonl', lines, ahead);
    storeFile(itself, '/t/S1.jsonl', lines);
    expect(storedBlocks(withAhead).length).toBe(ahead.length);
    expect(storedBlocks(withAhead)).toEqual(storedBlocks(itself));
    expect(storedRows(withAhead)).toEqual(storedRows(itself));
  });

  it('stores a block compressed ahead as sent, not compressed again', () => {
    const lines = transcript(0, 1300);
    const sent = marked(forecast(lines), lines);
    const store = openStore('marked');
    storeFile(store, '/t/S1.jsonl', lines, sent);
    // Block ids follow the order blocks were opened, the worker's list the order they were sealed.
    const base64 = (blocks: readonly { readonly bytes: Uint8Array }[]) => blocks.map((block) => Buffer.from(block.bytes).toString('base64')).sort();
    expect(base64(storedBlocks(store))).toEqual(base64(sent));
    for (const line of lines) if ('node' in line) expect(store.getNode(line.node.sourceId)?.raw.equals(line.node.raw)).toBe(true);
  });

  it('compresses a block itself when it stores fewer lines than the worker packed (nodes stored already)', () => {
    const first = transcript(0, 100);
    // A resumed session's file: copies of n50..n99, then its own n100..n199.
    const resumed = transcript(50, 150);
    const sent = marked(forecast(resumed), resumed);
    const withAhead = openStore('ahead');
    const itself = openStore('itself');
    for (const store of [withAhead, itself]) storeFile(store, '/t/S1.jsonl', first);
    storeFile(withAhead, '/t/S1-resumed.jsonl', resumed, sent);
    storeFile(itself, '/t/S1-resumed.jsonl', resumed);
    // The node blocks held the copies the writer did not store again: compressed by the writer, as without the worker.
    const copied = new Set(resumed.flatMap((line) => ('node' in line && Number(line.node.sourceId.slice(1)) < 100 ? [line.node.offset] : [])));
    const stale = sent.filter((block) => [...block.offsets].some((offset) => copied.has(offset)));
    expect(stale.length).toBeGreaterThan(0);
    const stored = storedBlocks(withAhead);
    const storedBytes = new Set(stored.map((block) => Buffer.from(block.bytes).toString('base64')));
    for (const block of stale) expect(storedBytes.has(Buffer.from(block.bytes).toString('base64'))).toBe(false);
    expect(stored.map((block) => decodeBlock(block.bytes, block.codec).toString('base64'))).toEqual(storedBlocks(itself).map((block) => decodeBlock(block.bytes, block.codec).toString('base64')));
    for (const line of resumed) if ('node' in line) expect(withAhead.getNode(line.node.sourceId)?.raw.equals(line.node.raw)).toBe(true);
  });
});
