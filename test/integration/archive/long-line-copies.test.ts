/**
 * How the store keeps a long line's whole bytes (electron/service/long-line-archive.ts): chunk by chunk, compressed
 * only when it pays (base64 image data is kept as read), verified against the stored head (a file rewritten since
 * it was read is not copied), read back byte for byte, and copied once for a store imported before it kept them.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_LINE_CHUNK_BYTES, LONG_LINE_PLAIN, LONG_LINE_ZLIB, longLinesOf } from '../../../electron/db/long-lines';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { createArborService } from '../../../electron/service/arbor-service';
import { backfillLongLines, keepLongLines } from '../../../electron/service/long-line-archive';

let root: string;
let transcript: string;
let store: SessionStore;
const envelope = { sessionId: 'S-long', cwd: '/work', isSidechain: false, timestamp: '2026-11-03T10:00:00.000Z' };
// A screenshot's base64 (incompressible) and a build log (compresses well): both longer than RAW_LIMIT.
const image = randomBytes(Math.ceil((RAW_LIMIT * 3) / 4) + 4096).toString('base64');
const log = Array.from({ length: 120_000 }, (_, n) => `step ${n}: ok\n`).join('');
const lines = [
  { ...envelope, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'screenshot it' } },
  { ...envelope, type: 'user', uuid: 'r1', parentUuid: 'u1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'image', source: { type: 'base64', data: image } }] }] } },
  { ...envelope, type: 'user', uuid: 'r2', parentUuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: log.repeat(3) }] } },
].map((line) => JSON.stringify(line));

function chunksOf(line: number): { codec: number; n: number }[] {
  return store.handles.read
    .prepare('SELECT codec, count(*) AS n FROM long_line_chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? AND c.line = ? GROUP BY codec')
    .all(transcript, line) as { codec: number; n: number }[];
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-long-copies-'));
  mkdirSync(join(root, 'projects'));
  transcript = join(root, 'projects', 'S-long.jsonl');
  writeFileSync(transcript, `${lines.join('\n')}\n`);
  const service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  await service.api['import.run']({ paths: [transcript] });
  await service.close();
  store = openSessionStore(join(root, 'data', 'arbor.sqlite'));
}, 30_000);
afterAll(() => {
  store?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a long line kept whole', () => {
  it('reads back byte for byte, whatever its chunks', () => {
    for (const [line, text] of [[2, lines[1]!], [3, lines[2]!]] as const) {
      const kept = longLinesOf(store.handles).read(transcript, line);
      expect(kept?.length).toBe(Buffer.byteLength(text));
      expect(kept?.equals(Buffer.from(text))).toBe(true);
    }
    expect(longLinesOf(store.handles).read(transcript, 1)).toBeNull();
  });

  it('keeps base64 image data as read and a log compressed', () => {
    expect(chunksOf(2)).toEqual([{ codec: LONG_LINE_PLAIN, n: Math.ceil(Buffer.byteLength(lines[1]!) / LONG_LINE_CHUNK_BYTES) }]);
    expect(chunksOf(3)).toEqual([{ codec: LONG_LINE_ZLIB, n: Math.ceil(Buffer.byteLength(lines[2]!) / LONG_LINE_CHUNK_BYTES) }]);
  });

  it('is copied, once, for a store imported before the store kept long lines whole', async () => {
    store.handles.write.exec("DELETE FROM long_line_chunks; DELETE FROM long_lines; DELETE FROM meta WHERE key = 'long_lines_backfilled_at'");
    expect(longLinesOf(store.handles).read(transcript, 2)).toBeNull();
    // What the next import runs after its files (import-sessions.ts), here alone.
    expect(await backfillLongLines(store)).toEqual({ copied: 2, problems: [] });
    expect(longLinesOf(store.handles).read(transcript, 2)?.equals(Buffer.from(lines[1]!))).toBe(true);
    expect(longLinesOf(store.handles).read(transcript, 3)?.equals(Buffer.from(lines[2]!))).toBe(true);
    expect(await backfillLongLines(store)).toEqual({ copied: 0, problems: [] });
  });

  it('copies nothing again when asked twice, and refuses a file rewritten since it was read', async () => {
    const head = Buffer.from(lines[2]!).subarray(0, 4096);
    const sighting = { nodeId: 'r2', line: 3, offset: Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`), totalBytes: Buffer.byteLength(lines[2]!), head };
    expect(await keepLongLines(store, transcript, [sighting])).toBe(0);
    // As a store from before the copy was made: the rows go, and the file now holds other bytes there.
    store.handles.write.prepare('DELETE FROM long_lines WHERE line = 3').run();
    writeFileSync(transcript, `${lines[0]}\n${lines[1]}\n${lines[2]!.replace('step 0', 'STEP 0')}\n`);
    await expect(keepLongLines(store, transcript, [sighting])).rejects.toMatchObject({ code: 'IO' });
    expect(chunksOf(3)).toEqual([]);
    expect(longLinesOf(store.handles).read(transcript, 3)).toBeNull();
    // The backfill says so too, unless the import already tried that file (one problem per file and import).
    const forget = store.handles.write.prepare("DELETE FROM meta WHERE key = 'long_lines_backfilled_at'");
    forget.run();
    expect(await backfillLongLines(store, undefined, { skip: new Set([transcript]) })).toEqual({ copied: 0, problems: [] });
    forget.run();
    const again = await backfillLongLines(store);
    expect(again.copied).toBe(0);
    expect(again.problems.map((problem) => problem.file)).toEqual([transcript]);
  });
});
