/**
 * A Claude Code session with a tool result longer than RAW_LIMIT before its fork point, written with Arbor's own
 * transcript builder: a Read whose output is a generated multi-MB listing (a real transcript's big Read or Bash
 * output), then a reply and a second prompt to fork at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeProjectDir } from '../../../electron/forks/claude-projects';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { Random } from '../../../shared/random';

const USAGE = { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 };
const MODEL = 'claude-sonnet-4-5';

export interface LongLineSession {
  readonly sessionId: string;
  readonly transcript: string;
  readonly cwd: string;
  /** The node carrying the long tool result, its whole line, and the result's text. */
  readonly longResult: string;
  readonly longLine: string;
  readonly longOutput: string;
  /** The last prompt: the fork point, after the long line. */
  readonly forkPoint: string;
  readonly lines: ReadonlyMap<string, string>;
}

/** A listing of `bytes` or a little more: numbered lines with varied paths, as a big Read returns. */
function listing(random: Random, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let n = 1; length < bytes; n++) {
    const part = `${String(n).padStart(6)}\tsrc/module-${random.base62(6)}/part-${random.int(0, 999)}.ts: export const value${n} = ${random.int(0, 1_000_000)};\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

export function writeLongLineSession(configDir: string, cwd: string, sessionId: string, outputBytes = RAW_LIMIT / 2 + 256 * 1024): LongLineSession {
  mkdirSync(cwd, { recursive: true });
  const random = new Random(34);
  const builder = new TranscriptBuilder({ sessionId, cwd, version: '2.1.30', gitBranch: 'main', slug: 'long-lines' }, random, new Date('2026-11-02T09:00:00Z'));
  builder.userPrompt('Read the generated module index');
  const file = join(cwd, 'index.txt');
  const read = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Read', input: { file_path: file } }], MODEL, USAGE, 'tool_use');
  const longOutput = listing(random, outputBytes);
  const longResult = builder.toolResult(read.calls[0]!, longOutput, { type: 'text', file: { filePath: file, content: longOutput, numLines: 1, startLine: 1, totalLines: 1 } });
  builder.assistant([{ type: 'text', text: 'The index lists every module.' }], MODEL, USAGE, 'end_turn');
  const forkPoint = builder.userPrompt('Summarise the index by folder');
  builder.assistant([{ type: 'text', text: 'Grouped by folder.' }], MODEL, USAGE, 'end_turn');
  const text = builder.take();
  const folder = join(configDir, 'projects', encodeProjectDir(cwd));
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${text.join('\n')}\n`);
  const lines = new Map<string, string>();
  for (const line of text) {
    const uuid = (JSON.parse(line) as { uuid?: unknown }).uuid;
    if (typeof uuid === 'string') lines.set(uuid, line);
  }
  return { sessionId, transcript, cwd, longResult, longLine: lines.get(longResult)!, longOutput, forkPoint, lines };
}
