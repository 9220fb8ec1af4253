/** The canary scan itself: it must see a canary that only compressed bytes hold, or the canary test proves nothing. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK_BROTLI, encodeBlock } from '../../../electron/db/raw-blocks';
import { encodeRaw, RAW_DEFLATE_V1 } from '../../../electron/db/raw-line';
import { scanForCanary } from './canary-scan';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scanForCanary', () => {
  it('finds a canary only a compressed raw line holds, one inside a zlib stream, and none where there is none', () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-scan-'));
    const canary = `canary${randomBytes(12).toString('hex')}`;
    const line = Buffer.from(JSON.stringify({ type: 'user', message: { role: 'user', content: `keep ${canary} please ${'x'.repeat(200)}` } }));
    const encoded = encodeRaw(line);
    expect(encoded.codec).toBe(RAW_DEFLATE_V1);
    expect(encoded.raw.includes(Buffer.from(canary))).toBe(false);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'page.bin'), Buffer.concat([Buffer.alloc(4096), randomBytes(300), encoded.raw, randomBytes(300), Buffer.alloc(4096)]));
    writeFileSync(join(dir, 'sub', 'object'), Buffer.concat([randomBytes(50), deflateSync(Buffer.from(`blob 40\0${canary}`))]));
    const block = encodeBlock(Buffer.concat([line, Buffer.from('\n'), Buffer.from(JSON.stringify({ type: 'assistant', text: 'y'.repeat(400) }))]));
    expect(block.codec).toBe(BLOCK_BROTLI);
    expect(block.bytes.includes(Buffer.from(canary))).toBe(false);
    writeFileSync(join(dir, 'blocks.bin'), Buffer.concat([Buffer.alloc(4096), randomBytes(300), block.bytes, Buffer.alloc(4096)]));
    writeFileSync(join(dir, 'clean.bin'), randomBytes(2000));
    expect(scanForCanary(dir, canary).sort()).toEqual(['blocks.bin: inside a compressed block of raw lines', 'page.bin: inside a compressed raw line', 'sub/object: inside a zlib stream']);
  });
});
