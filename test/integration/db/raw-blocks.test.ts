/**
 * Raw lines in blocks (raw-blocks.ts, raw-line-reader.ts): a file's lines packed into blocks of ~64 KiB read back
 * byte for byte, one block decoded per run of lines; a line read again or a copy of a stored node adds no bytes;
 * a uuid repeating with other content in the same batch is compared with the line in its block not yet written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLOCK_BYTES, BLOCK_BROTLI, decodeBlock, encodeBlock, RAW_IN_BLOCK } from '../../../electron/db/raw-blocks';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { ArborError } from '../../../shared/errors';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-raw-blocks-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function chain(count: number, line: (id: string, index: number) => string): ParsedNode[] {
  return inOrder(
    Array.from({ length: count }, (_, index) => {
      const id = `n${index}`;
      const raw = Buffer.from(line(id, index));
      return parsedNode(id, index === 0 ? null : `n${index - 1}`, { raw, rawBytes: raw.length });
    }),
  );
}

function importNodes(path: string, items: readonly ParsedNode[]) {
  const writer = store.beginFile(transcriptFile(path, { sessionHint: 'S1' }));
  for (const node of items) writer.node(node);
  return writer.finish({ endOffset: (items.at(-1)?.offset ?? 0) + 1000, endLine: (items.at(-1)?.line ?? 0) + 1 });
}

const blockStats = () =>
  store.handles.read.prepare<[], { blocks: number; stored: number }>('SELECT count(*) AS blocks, coalesce(sum(length(bytes)), 0) AS stored FROM raw_blocks').get()!;

describe('raw lines in blocks', () => {
  it("a file's lines span many blocks and read back byte for byte, smaller than they were", () => {
    // ~1.2 KB lines, each its own text: several blocks in the first batch (500 lines) and the next.
    const items = chain(900, (id, index) => JSON.stringify({ uuid: id, type: 'user', message: { content: `step ${index} ${'reads the file, then edits it; '.repeat(30 + (index % 7))}` } }));
    importNodes('/t/S1.jsonl', items);
    const inputBytes = items.reduce((sum, node) => sum + node.raw.length, 0);
    const { blocks, stored } = blockStats();
    expect(blocks).toBeGreaterThanOrEqual(Math.floor(inputBytes / BLOCK_BYTES));
    expect(stored).toBeLessThan(inputBytes / 3);
    const codecs = store.handles.read.prepare<[], { raw_codec: number }>('SELECT DISTINCT raw_codec FROM nodes').all();
    expect(codecs).toEqual([{ raw_codec: RAW_IN_BLOCK }]);
    for (const node of items) expect(store.getNode(node.sourceId)?.raw.equals(node.raw)).toBe(true);
    let index = 0;
    store.forEachSessionLine('S1', (line) => {
      expect(line.raw.equals(items[index]!.raw)).toBe(true);
      index++;
    });
    expect(index).toBe(items.length);
  });

  it('a file read again, or a copy of its nodes in another file, stores no bytes twice', () => {
    const items = chain(50, (id) => JSON.stringify({ uuid: id, type: 'user', message: { content: `${id} ${'x'.repeat(400)}` } }));
    importNodes('/t/S1.jsonl', items);
    const first = blockStats();
    importNodes('/t/S1.jsonl', items); // the same range read again
    importNodes('/t/S1-resumed.jsonl', items); // a resume's copies
    expect(blockStats()).toEqual(first);
  });

  it('a uuid repeating with other content in the same batch is compared with its line, whose block is not written yet', () => {
    const items = chain(3, (id) => JSON.stringify({ uuid: id, type: 'user', message: { content: `first ${id}` } }));
    const changed = Buffer.from(JSON.stringify({ uuid: 'n1', type: 'user', message: { content: 'other words' } }));
    const same = Buffer.from(items[2]!.raw);
    const repeats = inOrder([{ ...items[1]!, raw: changed, rawBytes: changed.length }, { ...items[2]!, raw: same, rawBytes: same.length }], 4);
    const result = importNodes('/t/S1.jsonl', [...items, ...repeats]);
    expect(result.problems?.map((problem) => problem.line)).toEqual([4]);
    expect(store.getRecords('n1').map((record) => record.raw.toString('utf8'))).toEqual([changed.toString('utf8')]);
    expect(store.getNode('n1')?.raw.equals(items[1]!.raw)).toBe(true);
  });

  it('a block that does not shrink is kept as read; a codec from a newer Arbor is refused by code', () => {
    const noise = Buffer.from(Array.from({ length: 64 }, (_, index) => (index * 97 + 13) % 256));
    expect(encodeBlock(noise).codec).toBe(0);
    expect(decodeBlock(encodeBlock(noise).bytes, encodeBlock(noise).codec).equals(noise)).toBe(true);
    const text = Buffer.from('the parser reads the line again '.repeat(100));
    const packed = encodeBlock(text);
    expect(packed.codec).toBe(BLOCK_BROTLI);
    expect(decodeBlock(packed.bytes, packed.codec).equals(text)).toBe(true);
    let caught: unknown;
    try {
      decodeBlock(packed.bytes, 9);
    } catch (error) {
      caught = error;
    }
    expect(caught instanceof ArborError && caught.code).toBe('UNSUPPORTED');
  });
});
