/**
 * `content-replacement` (Claude Code 2026, issue 13) is carried into every resumable transcript Arbor writes:
 * in order, right after the lines it refers to, with the copy's session id; replacements for lines the copy
 * leaves out (another branch) are not carried. Written with Arbor's own generator.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeProjectDir } from '../../../electron/demo/synthetic';
import { TranscriptBuilder, type Usage } from '../../../electron/demo/transcript-builder';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { Random } from '../../../shared/random';

const USAGE: Usage = { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 };
const SESSION = 'c0a7e4e0-0000-4000-8000-000000000001';
let root: string;
let service: ArborService;
let workspace: string;
const ids: Record<string, string> = {};

function read(b: TranscriptBuilder, path: string): { toolUseId: string; result: string } {
  const toolUseId = b.toolUseId();
  const { calls } = b.assistant([{ type: 'tool_use', id: toolUseId, name: 'Read', input: { file_path: path } }], 'claude-sonnet-4-5', USAGE, 'tool_use');
  const result = b.toolResult(calls[0]!, 'line\n'.repeat(50), { type: 'text', file: { filePath: path, content: 'line\n'.repeat(50), numLines: 50, startLine: 1, totalLines: 50 } });
  return { toolUseId, result };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-replacement-'));
  workspace = join(root, 'app');
  mkdirSync(workspace);
  const b = new TranscriptBuilder({ sessionId: SESSION, cwd: workspace, version: '2.1.300', gitBranch: 'main', slug: 'swift-humming-river' }, new Random(9), new Date('2026-05-01T10:00:00Z'));
  b.userPrompt('read the logs');
  const first = read(b, join(workspace, 'a.log'));
  ids.resultA = first.result;
  b.contentReplacement([{ toolUseId: first.toolUseId, replacement: '[a.log: 50 lines, kept in a file]' }]);
  b.assistant([{ type: 'text', text: 'Read it.' }], 'claude-sonnet-4-5', USAGE, 'end_turn');
  const answer = b.last!;
  b.userPrompt('now b');
  const second = read(b, join(workspace, 'b.log'));
  ids.toolUseB = second.toolUseId;
  // One record naming both results: only A's part belongs to the fork below.
  b.contentReplacement([
    { toolUseId: first.toolUseId, replacement: '[a.log, shorter]' },
    { toolUseId: second.toolUseId, replacement: '[b.log]' },
  ]);
  // A rewind: a new prompt after the first answer; the fork is taken on this branch.
  b.parentNextOn(answer);
  b.userPrompt('actually, summarize a.log');
  b.assistant([{ type: 'text', text: 'It repeats one line.' }], 'claude-sonnet-4-5', USAGE, 'end_turn');
  ids.forkPoint = b.last!;
  const project = join(root, 'home', '.claude', 'projects', encodeProjectDir(workspace));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${SESSION}.jsonl`), b.take().join('\n') + '\n');
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  await service.api['import.run']({ paths: [join(root, 'home', '.claude', 'projects')] });
}, 60_000);

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

it('content-replacement: the resumable transcript of a fork keeps the records, after the lines they refer to', async () => {
  const fork = await service.api['fork.create']({ nodeId: ids.forkPoint!, dir: join(root, 'fork') });
  expect(fork.transcript).not.toBeNull();
  const lines = readFileSync(fork.transcript!, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const types = lines.map((line) => line.type);
  const resultAt = lines.findIndex((line) => line.uuid === ids.resultA);
  expect(resultAt).toBeGreaterThan(0);
  // Both records that name A's result follow it, in the order they were written; B's part is left out.
  expect(lines[resultAt + 1]).toEqual({ type: 'content-replacement', sessionId: fork.resumeSessionId, replacements: [{ toolUseId: expect.any(String), replacement: '[a.log: 50 lines, kept in a file]' }] });
  expect(lines[resultAt + 2]).toEqual({ type: 'content-replacement', sessionId: fork.resumeSessionId, replacements: [{ toolUseId: expect.any(String), replacement: '[a.log, shorter]' }] });
  expect(JSON.stringify(lines)).not.toContain(ids.toolUseB);
  expect(types.filter((type) => type === 'content-replacement')).toHaveLength(2);
  // The fork point is still the last conversational line.
  expect(lines.filter((line) => line.type === 'user' || line.type === 'assistant').at(-1)?.uuid).toBe(ids.forkPoint);
});
