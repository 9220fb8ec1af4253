/**
 * How live tail schedules imports, against real files and a slow fake importer: bursts of writes are
 * debounced, one file is never imported twice at once, a write during an import gets one more import, and
 * a file that is not a transcript (the discovery's rules) is never imported.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outermost, startLiveTail, type LiveTailSource, type TailedFile } from '../../../electron/service/live-tail';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-live-schedule-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function fakeSource(folder: string, importMs: number) {
  const imports: { path: string; start: number; end: number; sizeAtStart: number }[] = [];
  let running = 0;
  let maxRunning = 0;
  const source: LiveTailSource = {
    folders: async () => [folder],
    knownFiles: () => [],
    // Like the importer's discovery: .jsonl files, but never a workflow journal.
    discover: async (folders): Promise<TailedFile[]> => {
      const { readdirSync } = await import('node:fs');
      return folders.flatMap((dir) =>
        readdirSync(dir, { recursive: true, encoding: 'utf8' })
          .map((name) => join(dir, name))
          .filter((path) => path.endsWith('.jsonl') && !path.endsWith('journal.jsonl'))
          .map((path) => ({ path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs })),
      );
    },
    importFiles: async ([path]) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const start = performance.now();
      const sizeAtStart = statSync(path!).size;
      await sleep(importMs);
      running--;
      imports.push({ path: path!, start, end: performance.now(), sizeAtStart });
    },
  };
  return { source, imports, maxRunning: () => maxRunning };
}

it('debounces bursts, never runs two imports of one file at once, and catches up with writes made during an import', { timeout: 15_000 }, async () => {
  const folder = join(root, 'burst');
  mkdirSync(folder);
  const file = join(folder, 'session.jsonl');
  writeFileSync(file, '{}\n');
  const fake = fakeSource(folder, 300);
  const tail = startLiveTail(fake.source, { debounceMs: 100, pollMs: 100, rescanMs: 60_000 });
  await tail.ready;
  // Ten quick writes, 20 ms apart, then more writes while the import is running.
  for (let i = 0; i < 10; i++) {
    appendFileSync(file, `{"n":${i}}\n`);
    await sleep(20);
  }
  await sleep(250); // the first import is now running
  appendFileSync(file, '{"late":true}\n');
  const finalSize = statSync(file).size;
  await sleep(1500);
  await tail.stop();
  expect(fake.maxRunning()).toBe(1);
  // Debounced: far fewer imports than writes; and the last import saw the late write.
  expect(fake.imports.length).toBeGreaterThanOrEqual(2);
  expect(fake.imports.length).toBeLessThan(8);
  expect(fake.imports.at(-1)!.sizeAtStart).toBe(finalSize);
  for (let i = 1; i < fake.imports.length; i++) expect(fake.imports[i]!.start).toBeGreaterThanOrEqual(fake.imports[i - 1]!.end);
});

it('leaves files that are not transcripts alone, and imports nothing at start', { timeout: 15_000 }, async () => {
  const folder = join(root, 'journal');
  mkdirSync(join(folder, 'wf'), { recursive: true });
  writeFileSync(join(folder, 'old.jsonl'), '{}\n');
  const fake = fakeSource(folder, 10);
  const tail = startLiveTail(fake.source, { debounceMs: 50, pollMs: 100, rescanMs: 60_000 });
  await tail.ready;
  await sleep(300);
  expect(fake.imports).toEqual([]);
  writeFileSync(join(folder, 'wf', 'journal.jsonl'), '{"started":1}\n');
  appendFileSync(join(folder, 'wf', 'journal.jsonl'), '{"result":1}\n');
  writeFileSync(join(folder, 'notes.txt'), 'not a transcript\n');
  await sleep(600);
  await tail.stop();
  expect(fake.imports).toEqual([]);
});

it('watches each folder once, not the ones inside another', () => {
  expect(outermost(['/a/b/c', '/a/b', '/x', '/a/b', '/a/bc'])).toEqual(['/x', '/a/b', '/a/bc']);
});

it('says once which known transcripts went from disk (the list then marks their sessions "source deleted")', { timeout: 15_000 }, async () => {
  const folder = join(root, 'gone');
  mkdirSync(folder);
  const file = join(folder, 'session.jsonl');
  const kept = join(folder, 'kept.jsonl');
  writeFileSync(file, '{}\n');
  writeFileSync(kept, '{}\n');
  const fake = fakeSource(folder, 0);
  const gone: string[][] = [];
  const tail = startLiveTail({ ...fake.source, filesGone: (paths) => gone.push([...paths]) }, { debounceMs: 50, pollMs: 50, rescanMs: 60_000 });
  await tail.ready;
  rmSync(file);
  const deadline = Date.now() + 5000;
  while (gone.length === 0 && Date.now() < deadline) await sleep(25);
  await sleep(200);
  await tail.stop();
  expect(gone).toEqual([[file]]);
  expect(fake.imports).toEqual([]);
});
