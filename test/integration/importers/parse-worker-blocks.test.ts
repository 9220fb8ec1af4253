/**
 * The parse worker compresses a file's raw-line blocks ahead (db/blocks-ahead.ts) and sends each before, or with, the
 * its last line: every line the writer will pack is in exactly one block sent, the file's last lines included.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BlockAhead } from '../../../electron/db/blocks-ahead';
import { FIRST_BATCH_LINES } from '../../../electron/db/import-batches';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import type { TranscriptFile } from '../../../electron/importers/transcript';
import { startParseWorker } from '../../../electron/importers/worker/parse-worker';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-parse-worker-blocks-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

it("regression: the file's last blocks, sealed after its last lines were sent, were never sent (the writer compressed them again)", async () => {
  const path = join(root, 'S1.jsonl');
  writeFileSync(path, [...syntheticSessionLines(3000, { seed: 5, sessionId: 'S1' })].map((line) => `${line}\n`).join(''));
  const file: TranscriptFile = { format: 'claude-code', path, size: statSync(path).size, mtimeMs: 0, role: 'main', sessionHint: 'S1', agentId: null };
  const worker = startParseWorker();
  try {
    expect(await worker.ready).toBe(true);
    worker.start([{ file, startOffset: 0, startLine: 1, packing: { firstBatchLines: FIRST_BATCH_LINES } }]);
    const lineOffsets: number[] = [];
    const blocks: BlockAhead[] = [];
    const end = await worker.next(
      {
        node: (node) => {
          if (node.forkedFrom === undefined) lineOffsets.push(node.offset);
        },
        record: (record) => lineOffsets.push(record.offset),
        problem: () => {},
        blocksAhead: (sent) => blocks.push(...sent),
      },
      () => {},
      undefined,
    );
    expect(end.endOffset).toBe(file.size);
    const packed = blocks.flatMap((block) => [...block.offsets]).sort((a, b) => a - b);
    expect(packed).toEqual([...lineOffsets].sort((a, b) => a - b));
    expect(new Set(packed).size).toBe(packed.length);
    expect(blocks.length).toBeGreaterThan(10);
  } finally {
    await worker.close();
  }
});
