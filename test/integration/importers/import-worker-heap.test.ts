/**
 * The import's worker threads (the parse worker and the write worker) hold their heaps near what they keep (issue 12,
 * import peak RSS ≤ 500 MB). With Node's default old-generation limit (4 GB here) V8 lets a heap grow to up to 4× what
 * survived its last full collection before collecting again: the write worker keeps ~25 MB (a heap snapshot at the peak
 * of a 239 MB import) and its heap stood at 95–107 MB, the parse worker's at 55–64 MB. WORKER_HEAP_LIMITS caps the old
 * generation, which also lowers V8's growing factor (~1.4× at 512 MB). This runs the import's shape of garbage — objects
 * that live a while (a batch), are promoted and die in the old generation, beside a set kept throughout (recent ids) —
 * in a worker started with those limits, and checks how big its heap got.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { WORKER_HEAP_LIMITS, WRITE_WORKER_HEAP_LIMITS } from '../../../electron/importers/worker/parse-worker';

const CHURN = `
const v8 = require('node:v8');
const { parentPort } = require('node:worker_threads');
// Kept throughout, as the writer's recent ids are: ~25 MB.
const kept = [];
for (let i = 0; i < 200000; i++) kept.push({ id: 'id-' + i + '-' + 'x'.repeat(40), seq: i });
// Each lives for 20,000 allocations (a batch's nodes): long enough to be promoted, then garbage.
const batch = new Array(20000);
let largest = 0;
for (let i = 0; i < 600000; i++) {
  batch[i % batch.length] = { id: 'c' + i + 'y'.repeat(200), uses: [i, i + 1, i + 2], usage: { tokens: i } };
  if (i % 1000 === 0) largest = Math.max(largest, v8.getHeapStatistics().total_heap_size);
}
parentPort.postMessage({ largest, limit: v8.getHeapStatistics().heap_size_limit, kept: kept.length + batch.length });
`;

const MiB = 1024 * 1024;

async function churnIn(limits: typeof WORKER_HEAP_LIMITS | typeof WRITE_WORKER_HEAP_LIMITS): Promise<{ largest: number; limit: number; kept: number }> {
  const worker = new Worker(CHURN, { eval: true, resourceLimits: limits });
  const [report] = (await once(worker, 'message')) as [{ largest: number; limit: number; kept: number }];
  await worker.terminate();
  expect(report.kept).toBe(220_000);
  return report;
}

it("the parse worker's heap stays near what it keeps: its old generation is capped, not Node's 4 GB default", async () => {
  const report = await churnIn(WORKER_HEAP_LIMITS);
  // The cap itself, and room under it for one 64 MiB line of tiny objects, the worst a parse meets (~324 MB of heap).
  expect(report.limit).toBeLessThanOrEqual(600 * MiB);
  expect(report.limit).toBeGreaterThanOrEqual(400 * MiB);
  // Without the cap this heap reached 254–279 MB; with it 114–122 MB (load 17 on 2 cores).
  expect(report.largest).toBeLessThan(180 * MiB);
}, 60_000);

it("the write worker's heap is capped too, higher (fewer full collections on the thread that sets the import's pace)", async () => {
  const report = await churnIn(WRITE_WORKER_HEAP_LIMITS);
  expect(report.limit).toBeLessThanOrEqual(1100 * MiB);
  expect(report.limit).toBeGreaterThan(600 * MiB);
  // Uncapped 254–279 MB; at 1024 MB 122–130 MB.
  expect(report.largest).toBeLessThan(200 * MiB);
}, 60_000);
