/** Raw lines are stored compressed (migration 013) and must come back byte for byte, whatever they hold. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRaw, encodeRaw, RAW_DEFLATE_V1, RAW_PLAIN } from '../../../../electron/db/raw-line';
import { syntheticSessionLines } from '../../../../electron/demo/synthetic';
import { isArborErrorData } from '../../../../shared/errors';
import { Random } from '../../../../shared/random';

const corpus = resolve(__dirname, '../../../../../shared/corpus/sessions');
const present = existsSync(corpus);
if (!present) console.warn(`raw-line: corpus part skipped, ${corpus} is absent (the public corpus lives beside the repo)`);

function* jsonlFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsonlFiles(path);
    else if (path.endsWith('.jsonl')) yield path;
  }
}

function expectRoundTrip(lines: Iterable<Buffer>): { bytes: number; stored: number } {
  let bytes = 0;
  let stored = 0;
  for (const line of lines) {
    const encoded = encodeRaw(line);
    const back = decodeRaw(encoded.raw, encoded.codec);
    if (!back.equals(line)) expect(back.toString('hex')).toBe(line.toString('hex'));
    bytes += line.length;
    stored += encoded.raw.length;
  }
  return { bytes, stored };
}

describe('raw lines', () => {
  it('come back byte for byte from generated sessions, and are stored at a third of their size or less', () => {
    const lines = [...syntheticSessionLines(1500, { seed: 12, shapes: true, sessionId: 'raw', cwd: '/home/dev/raw' })].map((line) => Buffer.from(line));
    const { bytes, stored } = expectRoundTrip(lines);
    expect(bytes / stored).toBeGreaterThan(3);
  });

  it.skipIf(!present)('come back byte for byte from every line of the public corpus (every format)', () => {
    const lines: Buffer[] = [];
    for (const file of jsonlFiles(corpus)) {
      const bytes = readFileSync(file);
      let start = 0;
      for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
        lines.push(bytes.subarray(start, end));
        start = end + 1;
      }
      if (start < bytes.length) lines.push(bytes.subarray(start));
    }
    expect(lines.length).toBeGreaterThan(1000);
    const { bytes, stored } = expectRoundTrip(lines);
    expect(bytes / stored).toBeGreaterThan(2);
  });

  it('keep bytes that are not text, short lines and incompressible ones exactly', () => {
    const random = new Random(3);
    const noise = Buffer.from(Array.from({ length: 5000 }, () => random.int(0, 255)));
    const odd = [Buffer.alloc(0), Buffer.from('{}'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]), noise, Buffer.from(`{"text":"${'é\u{1f600}'.repeat(400)}"}`)];
    expectRoundTrip(odd);
    expect(encodeRaw(Buffer.from('{"type":"user"}')).codec).toBe(RAW_PLAIN);
    expect(encodeRaw(noise).codec).toBe(RAW_PLAIN);
    expect(encodeRaw(Buffer.from(`{"message":{"role":"user","content":"${'fix the parser '.repeat(20)}"}}`)).codec).toBe(RAW_DEFLATE_V1);
  });

  it('says a row stored by a newer Arbor cannot be read, rather than returning other bytes', () => {
    let caught: unknown;
    try {
      decodeRaw(Buffer.from('x'), 7);
    } catch (error) {
      caught = error;
    }
    expect(isArborErrorData(caught) && caught.code).toBe('UNSUPPORTED');
  });
});
