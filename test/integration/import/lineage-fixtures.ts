/**
 * Claude Code 2026 lineage shapes (issue 13), written with Arbor's own transcript generator
 * (electron/demo/transcript-builder.ts) and imported through the real service over a temp data folder.
 */
import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TranscriptBuilder, type ToolCall, type Usage } from '../../../electron/demo/transcript-builder';
import { structuredPatch } from '../../../electron/demo/structured-patch';
import { Random } from '../../../shared/random';

export const CWD = '/home/dev/app';
const MODEL = 'claude-opus-4-5';
const USAGE: Usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 };
const START = new Date(Date.UTC(2026, 2, 1, 9));

export function builder(random: Random, sessionId: string, options: { agentId?: string; startMinutes?: number } = {}): TranscriptBuilder {
  const scope = { sessionId, cwd: CWD, version: '2.1.200', gitBranch: 'main', slug: 'lineage-test', ...(options.agentId ? { agentId: options.agentId } : {}) };
  return new TranscriptBuilder(scope, random, new Date(START.getTime() + (options.startMinutes ?? 0) * 60_000));
}

/** A prompt, then the assistant writes `file` (whole content; `before` is its previous content), its result and a reply. */
export function editTurn(b: TranscriptBuilder, prompt: string, file: string, content: string, before?: string): { prompt: string; result: string; reply: string } {
  const promptId = b.userPrompt(prompt);
  b.advance(1000);
  const filePath = join(CWD, file);
  const id = b.toolUseId();
  const message = b.assistant([{ type: 'tool_use', id, name: 'Write', input: { file_path: filePath, content } }], MODEL, USAGE, 'tool_use');
  const call: ToolCall = message.calls[0]!;
  const toolUseResult = {
    type: before === undefined ? 'create' : 'update',
    filePath,
    content,
    structuredPatch: before === undefined ? [] : structuredPatch(before, content),
    originalFile: before ?? null,
  };
  const result = b.toolResult(call, before === undefined ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`, toolUseResult);
  b.advance(1000);
  const reply = b.assistant([{ type: 'text', text: `Wrote ${file}.` }], MODEL, USAGE, 'end_turn').uuids[0]!;
  return { prompt: promptId, result, reply };
}

/** A turn that only talks (no file changes). */
export function talkTurn(b: TranscriptBuilder, prompt: string, answer: string): { prompt: string; reply: string } {
  const promptId = b.userPrompt(prompt);
  b.advance(500);
  const reply = b.assistant([{ type: 'text', text: answer }], MODEL, USAGE, 'end_turn').uuids[0]!;
  return { prompt: promptId, reply };
}

/** An Agent call and its result naming the agent (toolUseResult.agentId), as a 2.1.x main thread writes them. */
export function agentCall(b: TranscriptBuilder, agentId: string | null, description: string): { call: string; result: string } {
  const id = b.toolUseId();
  const message = b.assistant([{ type: 'tool_use', id, name: 'Agent', input: { description, prompt: description, subagent_type: 'general-purpose' } }], MODEL, USAGE, 'tool_use');
  const call = message.calls[0]!;
  const result = b.toolResult(call, [{ type: 'text', text: 'done' }], agentId === null ? { status: 'completed' } : { status: 'completed', agentId });
  return { call: call.lineUuid, result };
}

export function writeLines(path: string, lines: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
}

export function appendLines(path: string, lines: readonly string[]): void {
  appendFileSync(path, lines.map((line) => `${line}\n`).join(''));
}

export function random(seed: number): Random {
  return new Random(seed);
}
