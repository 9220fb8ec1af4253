/**
 * The indexer's chunks as FTS5 writes them: each chunk is one transaction, and each transaction one segment,
 * whatever the sessions' times do; a chunk ends at a bound of text. Small segments are what FTS5's automerge
 * writes again and again: 1000-row chunks wrote 2.55× a 239 MB transcript to index it (issue 12).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FTS_AUTOMERGE, FTS_CRISISMERGE } from '../../../../electron/db/migrations/025-search-merge';
import { BULK_CRISISMERGE, CHUNK_TEXT_CHARS } from '../../../../electron/db/search';
import { openSessionStore, type SessionStore } from '../../../../electron/db/session-store';
import { Random } from '../../../../shared/random';
import { inOrder, parsedNode, transcriptFile } from '../../../integration/db/parsed-fixtures';

let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-search-chunks-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const TEXT_CHARS = 2500;

/** A vocabulary as large as a project's (a few thousand words of 3–9 letters). */
function vocabulary(random: Random): string[] {
  return Array.from({ length: 4000 }, () => Array.from({ length: random.int(3, 9) }, () => String.fromCharCode(97 + random.int(0, 25))).join(''));
}

/** TEXT_CHARS characters of words from `words`, with the word `narwhal` in every text. */
function text(random: Random, words: readonly string[]): string {
  const picked = ['narwhal'];
  let length = 7;
  while (length < TEXT_CHARS) {
    const word = words[random.int(0, words.length - 1)]!;
    picked.push(word);
    length += word.length + 1;
  }
  return picked.join(' ').slice(0, TEXT_CHARS);
}

/** A session of `count` nodes a minute apart from `start`. */
function session(id: string, start: string, count: number, random: Random): void {
  const words = vocabulary(random);
  const t0 = Date.parse(start);
  const nodes = inOrder(
    Array.from({ length: count }, (_, i) =>
      parsedNode(`${id}-${i}`, i === 0 ? null : `${id}-${i - 1}`, { sessionSourceId: id, text: text(random, words), timestamp: new Date(t0 + i * 60_000).toISOString() }),
    ),
  );
  const writer = store.beginFile(transcriptFile(`/t/${id}.jsonl`, { sessionHint: id }));
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: 100, endLine: count + 1 });
  store.linkChangedSessions();
}

/** FTS5's segments: their leaves' rowids are the segment id shifted past the page and height bits. */
const segments = (): number =>
  store.handles.write.prepare<[], { n: number }>('SELECT count(DISTINCT id >> 37) AS n FROM node_text_data WHERE id >= (1 << 37)').get()!.n;
const matches = (word: string): number =>
  store.handles.read.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM node_text WHERE node_text MATCH ?`).get(`text : ${word}`)!.n;

it('writes a chunk as one segment, across sessions whose times go back (regression: FTS5 wrote a segment per step back and per MiB held)', () => {
  const random = new Random(5);
  // Imported newest first: seq goes up while the rowid (time first) goes back between the sessions.
  session('newer', '2025-06-01T10:00:00Z', 300, random);
  session('older', '2024-01-01T10:00:00Z', 300, random);
  expect(store.indexNextChunk(50_000)).toBe(600);
  expect(segments()).toBe(1);
  expect(matches('narwhal')).toBe(600);
  expect(store.indexNextChunk(50_000)).toBe(0);
});

it('ends a chunk at its bound of text, and the next chunk goes on from there', () => {
  const random = new Random(6);
  const count = Math.ceil((CHUNK_TEXT_CHARS * 1.5) / TEXT_CHARS);
  session('long', '2025-01-01T00:00:00Z', count, random);
  const first = store.indexNextChunk(50_000);
  expect(first).toBe(Math.ceil(CHUNK_TEXT_CHARS / TEXT_CHARS));
  expect(store.indexProgress().indexed).toBe(first);
  expect(matches('narwhal')).toBe(first);
  expect(store.indexNextChunk(50_000)).toBe(count - first);
  expect(segments()).toBe(2);
  expect(matches('narwhal')).toBe(count);
});

it('writes a chunk done in slices of time as one segment, the same as in one go (issue 12: slicing it writes no more)', () => {
  const random = new Random(7);
  session('newer', '2025-06-01T10:00:00Z', 300, random);
  session('older', '2024-01-01T10:00:00Z', 300, random);
  const chunk = store.startIndexChunk(50_000);
  let slices = 0;
  let consumed: number | null = null;
  // A zero budget: each slice does a row (or the sort) and stops, as a loaded machine would.
  while ((consumed = chunk.advance(0)) === null) slices++;
  expect(consumed).toBe(600);
  expect(slices).toBeGreaterThan(600);
  expect(segments()).toBe(1);
  expect(matches('narwhal')).toBe(600);
  expect(store.indexProgress().indexed).toBe(store.indexProgress().total);
});

it('regression: an append waited for the whole indexing chunk under way (~1.3 s); interrupted, the chunk rolls back at once and the next takes its rows again', () => {
  const random = new Random(8);
  session('live', '2025-06-01T10:00:00Z', 200, random);
  const chunk = store.startIndexChunk(50_000);
  for (let slice = 0; slice < 150; slice++) expect(chunk.advance(0)).toBeNull();
  expect(store.handles.write.inTransaction).toBe(true);
  expect(chunk.interrupt()).toBeGreaterThan(0);
  // The connection is free for the append's own transaction; nothing of the chunk was kept.
  expect(store.handles.write.inTransaction).toBe(false);
  expect(store.indexProgress().indexed).toBe(0);
  expect(matches('narwhal')).toBe(0);
  session('live-more', '2025-06-02T10:00:00Z', 10, random);
  expect(store.indexNextChunk(50_000)).toBe(210);
  expect(matches('narwhal')).toBe(210);
  expect(segments()).toBe(1);
});

describe('the merge settings of a backlog', () => {
  const config = (): Record<string, unknown> =>
    Object.fromEntries(store.handles.write.prepare<[], { k: string; v: unknown }>('SELECT k, v FROM node_text_config').all().map((row) => [row.k, row.v]));
  /** Seqs from `next` on: a store that already holds that many nodes, as far as the merge's bound is concerned. */
  const seqsFrom = (next: number): void => {
    store.handles.write.prepare(`INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('nodes', ?)`).run(next - 1);
  };
  const indexInChunksOf = (rows: number): number => {
    let chunks = 0;
    while (store.indexNextChunk(rows) > 0) chunks++;
    return chunks;
  };

  it('regression: automerge wrote every row of a big backlog again at each level before the final merge wrote it once more (a 1 GB transcript\'s indexing wrote 3.2× its input); its segments now wait for that merge', () => {
    const random = new Random(9);
    // More rows than a merge is due for: the merge that follows the indexing rewrites every segment anyway.
    seqsFrom(200_000);
    session('big', '2025-01-01T00:00:00Z', 80, random);
    expect(indexInChunksOf(2)).toBe(40);
    // 40 segments: automerge 16 would have merged some of them by now (the next test).
    expect(segments()).toBe(40);
    expect(config()).toMatchObject({ automerge: 0, crisismerge: BULK_CRISISMERGE });
    expect(matches('narwhal')).toBe(80);
    while (store.mergeIndexStep() > 0);
    expect(segments()).toBe(1);
    // Merged: the next rows (a live session's appends) are merged by FTS5 as they come again.
    session('after', '2025-02-01T00:00:00Z', 2, random);
    expect(indexInChunksOf(2)).toBe(1);
    expect(config()).toMatchObject({ automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE });
    expect(matches('narwhal')).toBe(82);
  });

  it('resumes a big backlog stopped mid-way (the store closed and opened again) with the same settings, and merges it once indexed', () => {
    const random = new Random(11);
    seqsFrom(200_000);
    session('big', '2025-01-01T00:00:00Z', 80, random);
    for (let chunk = 0; chunk < 10; chunk++) expect(store.indexNextChunk(2)).toBe(2);
    // A chunk under way when the worker stopped: rolled back, as SQLite does after a crash.
    const chunk = store.startIndexChunk(2);
    expect(chunk.advance(0)).toBeNull();
    chunk.interrupt();
    store.close();
    store = openSessionStore(join(dir, 'arbor.sqlite'));
    expect(store.indexProgress().indexed).toBe(200_019);
    expect(config()).toMatchObject({ automerge: 0, crisismerge: BULK_CRISISMERGE });
    expect(indexInChunksOf(2)).toBe(30);
    expect(segments()).toBe(40);
    while (store.mergeIndexStep() > 0);
    expect(segments()).toBe(1);
    expect(matches('narwhal')).toBe(80);
  });

  it('keeps automerge for a backlog too small to merge: its segments are merged as they pile up', () => {
    const random = new Random(10);
    session('small', '2025-01-01T00:00:00Z', 80, random);
    expect(indexInChunksOf(2)).toBe(40);
    expect(segments()).toBeLessThan(40);
    expect(config()).toMatchObject({ automerge: FTS_AUTOMERGE, crisismerge: FTS_CRISISMERGE });
    expect(matches('narwhal')).toBe(80);
  });
});
