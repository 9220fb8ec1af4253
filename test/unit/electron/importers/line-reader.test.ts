import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLines, type LineReaderOptions, type ReadLine } from '../../../../electron/importers/line-reader';
import { CancelledError } from '../../../../shared/errors';
import { tempDir } from './fixtures/claude-lines';

interface Seen {
  readonly line: number;
  readonly offset: number;
  readonly text: string;
}

let dir = '';
let cleanup: () => Promise<void> = async () => {};
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function file(content: string | Buffer, name = 't.jsonl'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function collect(path: string, options: LineReaderOptions = {}): Promise<{ lines: ReadLine[]; seen: Seen[]; endOffset: number; endLine: number }> {
  const lines: ReadLine[] = [];
  const seen: Seen[] = [];
  const result = await readLines(
    path,
    (line) => {
      // Whole-line bytes are views into the reused buffer: copy them to keep them.
      lines.push(line.oversize ? line : { ...line, bytes: Buffer.from(line.bytes) });
      if (!line.oversize) seen.push({ line: line.line, offset: line.offset, text: line.bytes.toString('utf8') });
    },
    options,
  );
  return { lines, seen, ...result };
}

/** What a correct reader must produce: split on \n, drop one \r before it, keep the trailing partial line out. */
function naiveSplit(content: Buffer, startOffset = 0, startLine = 1): { seen: Seen[]; endOffset: number } {
  const seen: Seen[] = [];
  let offset = startOffset;
  let line = startLine;
  for (;;) {
    const newline = content.indexOf(0x0a, offset);
    if (newline === -1) break;
    let end = newline;
    if (end > offset && content[end - 1] === 0x0d) end -= 1;
    seen.push({ line, offset, text: content.toString('utf8', offset, end) });
    offset = newline + 1;
    line += 1;
  }
  return { seen, endOffset: offset };
}

describe('readLines', () => {
  const mixed = Buffer.from(
    ['{"a":1}', '', 'héllo wörld ✓ 🌳', 'x'.repeat(200), '{"b":"\\n"}\r', '\r', 'y'.repeat(63), 'z'.repeat(64), 'w'.repeat(65), 'tail'].join('\n') + '\n',
  );

  it.each([1, 2, 3, 7, 63, 64, 65, 1024 * 1024])('splits exactly like a whole-file split with chunkSize %i', async (chunkSize) => {
    const path = await file(mixed);
    const { seen, endOffset, endLine } = await collect(path, { chunkSize });
    const expected = naiveSplit(mixed);
    expect(seen).toEqual(expected.seen);
    expect(endOffset).toBe(mixed.length);
    expect(endLine).toBe(expected.seen.length + 1);
  });

  it('keeps multi-byte characters intact across chunk boundaries', async () => {
    const text = '🌳'.repeat(40); // 4 bytes each: every small chunk size splits some of them
    const path = await file(`${text}\n${text}\n`);
    const { seen } = await collect(path, { chunkSize: 5 });
    expect(seen.map((s) => s.text)).toEqual([text, text]);
  });

  it('strips \\r\\n endings and reports offsets of line starts', async () => {
    const path = await file('ab\r\ncd\r\n\r\nef\n');
    const { seen, endOffset } = await collect(path, { chunkSize: 3 });
    expect(seen).toEqual([
      { line: 1, offset: 0, text: 'ab' },
      { line: 2, offset: 4, text: 'cd' },
      { line: 3, offset: 8, text: '' },
      { line: 4, offset: 10, text: 'ef' },
    ]);
    expect(endOffset).toBe(13);
  });

  it('leaves a trailing line without newline for the next read, then reads it once complete', async () => {
    const path = await file('one\ntwo\nthr');
    const first = await collect(path, { chunkSize: 4 });
    expect(first.seen.map((s) => s.text)).toEqual(['one', 'two']);
    expect(first.endOffset).toBe(8);
    expect(first.endLine).toBe(3);

    await appendFile(path, 'ee\nfour\n');
    const second = await collect(path, { chunkSize: 4, startOffset: first.endOffset, startLine: first.endLine });
    expect(second.seen).toEqual([
      { line: 3, offset: 8, text: 'three' },
      { line: 4, offset: 14, text: 'four' },
    ]);
    expect(second.endOffset).toBe(19);
    expect(second.endLine).toBe(5);
  });

  it('offers the unterminated last line and, when accepted, ends at EOF keeping its line number', async () => {
    const path = await file('one\n{"two":2}');
    const offered: string[] = [];
    const accepted = await collect(path, { chunkSize: 4, onUnterminatedLine: (line) => (offered.push(line.bytes.toString()), true) });
    expect(offered).toEqual(['{"two":2}']);
    expect(accepted).toMatchObject({ endOffset: 13, endLine: 2 });

    const declined = await collect(path, { onUnterminatedLine: () => false });
    expect(declined).toMatchObject({ endOffset: 4, endLine: 2 });

    // The newline arrives later: it reads as line 2's empty remainder, and the next line is 3.
    await appendFile(path, '\nthree\n');
    const resumed = await collect(path, { startOffset: accepted.endOffset, startLine: accepted.endLine });
    expect(resumed.seen).toEqual([
      { line: 2, offset: 13, text: '' },
      { line: 3, offset: 14, text: 'three' },
    ]);
  });

  it('starts at a byte offset with the given line number', async () => {
    const content = Buffer.from('alpha\nbeta\ngamma\ndelta\n');
    const path = await file(content);
    const { seen, endOffset } = await collect(path, { startOffset: 11, startLine: 3, chunkSize: 2 });
    expect(seen).toEqual(naiveSplit(content, 11, 3).seen);
    expect(seen[0]).toEqual({ line: 3, offset: 11, text: 'gamma' });
    expect(endOffset).toBe(content.length);
  });

  it('reads an empty file and a file of only a partial line', async () => {
    expect(await collect(await file('', 'empty.jsonl'))).toMatchObject({ seen: [], endOffset: 0, endLine: 1 });
    expect(await collect(await file('{"half":', 'half.jsonl'))).toMatchObject({ seen: [], endOffset: 0, endLine: 1 });
  });

  it('reports a line over maxLineBytes as oversize with its head, tail and length, and goes on', async () => {
    const huge = `H${'a'.repeat(3000)}${'b'.repeat(2000)}T`;
    const content = `first\n${huge}\nlast\n`;
    const path = await file(content);
    for (const chunkSize of [64, 1000, 1024 * 1024]) {
      const { lines, endOffset, endLine } = await collect(path, { chunkSize, maxLineBytes: 1024, oversizeKeepBytes: 100 });
      expect(lines).toHaveLength(3);
      const [first, big, last] = lines;
      expect(first).toMatchObject({ oversize: false, line: 1, offset: 0 });
      expect(big).toMatchObject({ oversize: true, line: 2, offset: 6, totalBytes: huge.length });
      if (big?.oversize !== true) throw new Error('expected an oversize line');
      expect(big.head.toString()).toBe(huge.slice(0, 100));
      expect(big.tail.toString()).toBe(huge.slice(-100));
      expect(last).toMatchObject({ oversize: false, line: 3, offset: 6 + huge.length + 1 });
      expect(last?.oversize === false && last.bytes.toString()).toBe('last');
      expect(endOffset).toBe(content.length);
      expect(endLine).toBe(4);
    }
  });

  it('drops the \\r of an oversize CRLF line and keeps a tail shorter than a chunk', async () => {
    const huge = 'q'.repeat(1500) + 'END';
    const path = await file(`${huge}\r\nok\r\n`);
    const { lines } = await collect(path, { chunkSize: 512, maxLineBytes: 1024, oversizeKeepBytes: 10 });
    expect(lines[0]).toMatchObject({ oversize: true, totalBytes: huge.length });
    if (lines[0]?.oversize !== true) throw new Error('expected an oversize line');
    expect(lines[0].tail.toString()).toBe(huge.slice(-10));
    expect(lines[1]?.oversize === false && lines[1].bytes.toString()).toBe('ok');
  });

  it('does not emit an oversize line that has no newline yet', async () => {
    const path = await file(`ok\n${'z'.repeat(5000)}`);
    const { lines, endOffset, endLine } = await collect(path, { chunkSize: 64, maxLineBytes: 1024 });
    expect(lines).toHaveLength(1);
    expect(endOffset).toBe(3);
    expect(endLine).toBe(2);
  });

  it('treats a line of exactly maxLineBytes as oversize and one byte less as whole', async () => {
    const path = await file(`${'a'.repeat(99)}\n${'b'.repeat(100)}\n`);
    const { lines } = await collect(path, { chunkSize: 16, maxLineBytes: 100, oversizeKeepBytes: 8 });
    expect(lines.map((line) => line.oversize)).toEqual([false, true]);
  });

  it('reports progress per chunk, ending at the bytes read', async () => {
    const content = 'x'.repeat(100) + '\n';
    const path = await file(content);
    const progress: number[] = [];
    await collect(path, { chunkSize: 30, onBytes: (bytes) => progress.push(bytes) });
    expect(progress).toEqual([30, 60, 90, 101]);
  });

  it('throws CancelledError when aborted before or during the read', async () => {
    const path = await file('a\n'.repeat(1000));
    const before = new AbortController();
    before.abort();
    await expect(collect(path, { signal: before.signal })).rejects.toBeInstanceOf(CancelledError);

    const during = new AbortController();
    let lines = 0;
    const reading = readLines(path, () => (lines += 1), { chunkSize: 100, signal: during.signal, onBytes: () => during.abort() });
    await expect(reading).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(lines).toBeLessThan(1000);
  });

  it('rejects with the fs error for a missing file', async () => {
    await expect(readLines(join(dir, 'missing.jsonl'), () => {})).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readLines with keepLines', () => {
  it.each([1, 3, 7, 64, 1024 * 1024])('keeps every line valid after its callback, in buffers never written again (chunkSize %i)', async (chunkSize) => {
    const content = ['{"a":1}', '', 'ünïcödé line', 'x'.repeat(200), '{"last":true}'].join('\n') + '\n';
    const path = await file(content);
    const kept: Buffer[] = [];
    const sent = new Set<ArrayBuffer>();
    let reads = 0;
    await readLines(path, (line) => (line.oversize ? undefined : kept.push(line.bytes)), {
      chunkSize,
      keepLines: true,
      beforeRead: async () => {
        reads += 1;
        // What was handed out before a read may be transferred: its buffer is never used again.
        for (const bytes of kept) sent.add(bytes.buffer as ArrayBuffer);
        await Promise.resolve();
      },
    });
    // Read after every later chunk: had a buffer been reused, earlier lines would show later bytes.
    expect(kept.map((bytes) => bytes.toString('utf8'))).toEqual(content.split('\n').slice(0, -1));
    expect(reads).toBeGreaterThan(0);
    expect(sent.size).toBeGreaterThan(0);
  });

  it('never hands out views into Node\'s shared buffer pool (they could not be transferred)', async () => {
    const path = await file('{"a":1}\n{"b":2}\n');
    const buffers: ArrayBuffer[] = [];
    await readLines(path, (line) => (line.oversize ? undefined : buffers.push(line.bytes.buffer as ArrayBuffer)), { chunkSize: 4, keepLines: true });
    const pooled = Buffer.from('x').buffer;
    expect(buffers.length).toBe(2);
    for (const buffer of buffers) expect(buffer).not.toBe(pooled);
    // Transferable: posting them detaches them (a pooled ArrayBuffer would throw instead).
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(null, [...new Set(buffers)]);
    port1.close();
    port2.close();
    for (const buffer of buffers) expect(buffer.byteLength).toBe(0);
  });
});
