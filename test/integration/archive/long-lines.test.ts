/**
 * The archive keeps long lines whole (issue 15): a tool result longer than RAW_LIMIT, before the fork point, is
 * kept byte for byte in the store at import. Once Claude Code deleted the transcript, a fork writes that line
 * whole into its resumable transcript (which keeps the rules) and the JSON export holds its output; an append
 * and a re-import keep it once.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportedDocument } from '../../../shared/export';
import { openDatabase } from '../../../electron/db/database';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { checkResumableCopy } from '../forks/transcript-rules';
import { writeLongLineSession, type LongLineSession } from './long-line-fixture';

let root: string;
let config: string;
let session: LongLineSession;
let service: ArborService;

const dataDir = (): string => join(root, 'data');
const open = (): Promise<ArborService> =>
  createArborService({ dataDir: dataDir(), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: config } });

function storedCopies(): { lines: number; chunks: number; bytes: number } {
  const handles = openDatabase(join(dataDir(), 'arbor.sqlite'));
  try {
    const lines = handles.read.prepare('SELECT count(*) AS n, coalesce(sum(total_bytes), 0) AS bytes FROM long_lines').get() as { n: number; bytes: number };
    const chunks = handles.read.prepare('SELECT count(*) AS n FROM long_line_chunks').get() as { n: number };
    return { lines: lines.n, chunks: chunks.n, bytes: lines.bytes };
  } finally {
    handles.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-long-lines-'));
  config = join(root, 'claude');
  session = writeLongLineSession(config, join(root, 'work'), 'a7c41e00-3400-4000-8000-000000000034');
  const first = await open();
  const report = await first.api['import.run']({ paths: [join(config, 'projects')] });
  expect(report.sessions.map((s) => s.id)).toEqual([session.sessionId]);
  // An append after the long line, then the same file read again from the start: the line is kept once.
  const reply = [...session.lines.values()].at(-1)!;
  appendFileSync(session.transcript, `${reply.replace(/"uuid":"[^"]+"/, '"uuid":"a7c41e00-3400-4000-8000-0000000000aa"')}\n`);
  await first.api['import.run']({ paths: [join(config, 'projects')] });
  await first.idle();
  await first.close();
  rmSync(session.transcript);
  service = await open();
}, 60_000);
afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a session with a line longer than RAW_LIMIT, whose transcript was deleted', () => {
  it('kept the long line once, whole, in the store', () => {
    const bytes = Buffer.byteLength(session.longLine);
    expect(bytes).toBeGreaterThan(RAW_LIMIT);
    expect(storedCopies()).toEqual({ lines: 1, chunks: Math.ceil(bytes / (1024 * 1024)), bytes });
  });

  it('forks through it: the resumable transcript holds the whole line, byte for byte, and keeps the rules', async () => {
    const created = await service.api['fork.create']({ nodeId: session.forkPoint, dir: join(root, 'fork') });
    expect(created.transcript).not.toBeNull();
    const text = readFileSync(created.transcript!, 'utf8');
    const copied = text.split('\n').find((line) => line.includes(`"uuid":"${session.longResult}"`));
    expect(copied).toBeDefined();
    // The copy moves cwd and sessionId to the fork's; the tool output itself is the source's, every byte of it.
    const message = (JSON.parse(copied!) as { message: { content: { content: string }[] } }).message;
    expect(message.content[0]!.content).toBe(session.longOutput);
    expect(copied!.length).toBeGreaterThan(RAW_LIMIT);
    const sourceLine = (uuid: string): string => {
      const line = session.lines.get(uuid);
      if (line === undefined) throw new Error(`no source line ${uuid}`);
      return line;
    };
    expect(
      checkResumableCopy(text, { sessionId: created.resumeSessionId!, target: session.forkPoint, targetKept: true, sourceLine, move: { from: session.cwd, to: created.dir } }),
    ).toEqual([]);
  });

  it('exports it: the JSON holds the whole tool output', async () => {
    const out = join(root, 'export.json');
    await service.api['export.write']({ target: session.sessionId, format: 'json', out, noRedact: true });
    const document = JSON.parse(readFileSync(out, 'utf8')) as ExportedDocument;
    // The Read call carries its result (the result node points to it); a long string, compared, never printed.
    const call = document.nodes.flatMap((node) => node.toolCalls).find((c) => c.name === 'Read');
    expect(call?.result?.length).toBe(session.longOutput.length);
    expect(call?.result === session.longOutput).toBe(true);
    expect(document.nodes.find((node) => node.id === session.longResult)?.resultOf).toBe(call?.id);
  });
});
