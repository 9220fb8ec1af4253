/** The parse worker's batches reach the store one per turn of the event loop, so requests are served between them. */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import type { TranscriptFile } from '../../../electron/importers/transcript';
import { startParseWorker } from '../../../electron/importers/worker/parse-worker';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-parse-worker-yields-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

it('regression: batches the worker had sent ahead were stored in one go, keeping requests waiting for seconds; one is stored per turn', async () => {
  const path = join(root, 'S1.jsonl');
  writeFileSync(path, [...syntheticSessionLines(3000, { seed: 3, sessionId: 'S1' })].map((line) => `${line}\n`).join(''));
  const file: TranscriptFile = { format: 'claude-code', path, size: statSync(path).size, mtimeMs: 0, role: 'main', sessionHint: 'S1', agentId: null };
  const worker = startParseWorker();
  try {
    expect(await worker.ready).toBe(true);
    worker.start([{ file, startOffset: 0, startLine: 1 }]);
    // Let the worker parse the whole file ahead, as it does when storing is the slower side.
    await new Promise((done) => setTimeout(done, 1500));
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turnsAtBatch: number[] = [];
    let lastBytes = -1;
    const end = await worker.next(
      { node: () => {}, record: () => {}, problem: () => {} },
      (bytes) => {
        if (bytes !== lastBytes) turnsAtBatch.push(turns);
        lastBytes = bytes;
      },
      undefined,
    );
    ticking = false;
    expect(end.endOffset).toBe(file.size);
    // The file is read in 1 MiB chunks, a batch each: several batches, and the event loop turned between each two.
    expect(turnsAtBatch.length).toBeGreaterThan(3);
    expect(new Set(turnsAtBatch).size).toBe(turnsAtBatch.length);
  } finally {
    await worker.close();
  }
});
