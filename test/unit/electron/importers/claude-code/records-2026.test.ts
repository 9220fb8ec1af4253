/**
 * Claude Code's 2026 record types, system subtypes and content blocks (issue 13), each written by Arbor's own
 * generator (electron/demo/transcript-builder.ts) and read by the parser; tests are named after the shape.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptBuilder } from '../../../../../electron/demo/transcript-builder';
import { readNodeContent } from '../../../../../electron/importers/claude-code/node-content';
import { BLOCK_TYPES, RECORD_TYPES, SYSTEM_SUBTYPES } from '../../../../../electron/importers/claude-code/records-2026';
import { Random } from '../../../../../shared/random';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFile, parseLines, SESSION, tempDir } from '../fixtures/claude-lines';

const MODEL = 'claude-opus-4-5';
const USAGE = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 };

function builder(): TranscriptBuilder {
  return new TranscriptBuilder({ sessionId: SESSION, cwd: '/repo', version: '2.1.300', gitBranch: 'main', slug: 'quiet-folded-river' }, new Random(13), new Date('2026-05-01T10:00:00Z'));
}

describe('2026 records', () => {
  it('relocated: kept as a record beside the line before it, later lines carry the new folder', async () => {
    const b = builder();
    const prompt = b.userPrompt('move on');
    b.relocated('/moved/repo');
    b.userPrompt('after the move');
    const { nodes, records, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(records).toMatchObject([{ type: 'relocated', refSourceId: null, sessionSourceId: SESSION, line: 2 }]);
    expect(nodes.map((node) => node.cwd)).toEqual(['/repo', '/moved/repo']);
    expect(nodes[0]!.sourceId).toBe(prompt);
  });

  it('worktree-state: entering and leaving (null) a worktree are records; the folder goes back to originalCwd', async () => {
    const b = builder();
    b.userPrompt('start');
    b.worktreeState({ originalCwd: '/repo', worktreePath: '/repo/.claude/worktrees/fix', worktreeName: 'fix', worktreeBranch: 'worktree-fix' });
    b.userPrompt('in the worktree');
    b.worktreeState(null);
    b.userPrompt('back');
    const { nodes, records, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(records.map((record) => record.type)).toEqual(['worktree-state', 'worktree-state']);
    expect(nodes.map((node) => node.cwd)).toEqual(['/repo', '/repo/.claude/worktrees/fix', '/repo']);
  });

  it('file-history-delta: references the message whose edit it backs up, by its messageId', async () => {
    const b = builder();
    const prompt = b.userPrompt('edit a.ts');
    b.fileHistoryDelta(prompt, 'a.ts', { backupFileName: '0123456789abcdef@v2', version: 2, backupTime: b.timestamp() });
    const { records } = await parseLines(b.take());
    expect(records).toMatchObject([{ type: 'file-history-delta', refSourceId: prompt }]);
  });

  it('custom-title and ai-title: their text is kept with the record', async () => {
    const b = builder();
    b.userPrompt('hello');
    b.aiTitle('Fix the loader');
    b.customTitle('  My loader work  ');
    const { records } = await parseLines(b.take());
    expect(records.map((record) => [record.type, record.summary])).toEqual([
      ['ai-title', 'Fix the loader'],
      ['custom-title', 'My loader work'],
    ]);
  });

  it('content-replacement: kept as a record beside the result it replaces', async () => {
    const b = builder();
    b.userPrompt('read it');
    const { calls } = b.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/big.log' } }], MODEL, USAGE, 'tool_use');
    const result = b.toolResult(calls[0]!, 'x'.repeat(100), { type: 'text' });
    b.contentReplacement([{ toolUseId: 'toolu_1', replacement: '[output saved to a file]' }]);
    const { records, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(records).toMatchObject([{ type: 'content-replacement', refSourceId: null, line: 4 }]);
    expect(result).toBeTruthy();
  });

  it('an unknown record type and an unknown content block never stop an import: kept opaque', async () => {
    const b = builder();
    b.userPrompt('one');
    b.record({ type: 'teleport-session', sessionId: SESSION, target: 'web' });
    b.assistant([{ type: 'hologram_block', tool_use_id: 'x', content: 'shimmer' } as never], MODEL, USAGE, 'end_turn');
    b.userPrompt('two');
    const { nodes, records, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(records.map((record) => record.type)).toEqual(['teleport-session']);
    expect(nodes.map((node) => node.kind)).toEqual(['user', 'assistant', 'user']);
    expect(readNodeContent(nodes[1]!.raw.toString('utf8')).blocks).toEqual([{ type: 'other', blockType: 'hologram_block', json: { type: 'hologram_block', tool_use_id: 'x', content: 'shimmer' } }]);
  });
});

describe('2026 system lines', () => {
  it('model_refusal_fallback: shown by the words Claude Code wrote, and says the model fell back from X to Y without them', async () => {
    const b = builder();
    b.modelFallback('claude-opus-4-5', 'claude-sonnet-4-5', 'cyber');
    b.system('model_refusal_fallback', { originalModel: 'claude-opus-4-5', fallbackModel: 'claude-sonnet-4-5', apiRefusalCategory: 'cyber' });
    const { nodes, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(nodes[0]).toMatchObject({ kind: 'system', label: 'claude-opus-4-5 declined this request; continuing with claude-sonnet-4-5' });
    expect(nodes[1]).toMatchObject({ kind: 'system', label: 'Model fell back from claude-opus-4-5 to claude-sonnet-4-5 (cyber)' });
    expect(readNodeContent(nodes[1]!.raw.toString('utf8')).blocks[0]).toEqual({ type: 'text', text: 'Model fell back from claude-opus-4-5 to claude-sonnet-4-5 (cyber)' });
  });

  it('agents_killed and scheduled_task_fire (the subtypes real transcripts carry): shown by their content', async () => {
    const b = builder();
    b.agentsKilled('2 background agents stopped');
    b.scheduledTaskFire('Running scheduled task: nightly tests');
    b.system('agents_killed', {});
    const { nodes } = await parseLines(b.take());
    expect(nodes.map((node) => [node.kind, node.label])).toEqual([
      ['system', '2 background agents stopped'],
      ['system', 'Running scheduled task: nightly tests'],
      ['system', 'Agents killed'],
    ]);
  });
});

describe('2026 content blocks', () => {
  it('advisor tool use and result: the call is a tool call, its result line says what the advisor answered', async () => {
    const b = builder();
    b.userPrompt('plan the refactor');
    b.assistant(
      [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'advisor', input: { question: 'Is the plan sound?' } },
        { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'advisor_result', text: 'Split the parser first.' } },
        { type: 'text', text: 'Following the advice.' },
      ],
      MODEL,
      USAGE,
      'end_turn',
    );
    const { nodes, problems } = await parseLines(b.take());
    expect(problems).toEqual([]);
    expect(nodes.map((node) => [node.kind, node.label])).toEqual([
      ['user', 'plan the refactor'],
      ['tool_call', expect.stringContaining('advisor')],
      ['assistant', 'Advisor: Split the parser first.'],
      ['assistant', 'Following the advice.'],
    ]);
    // Server tools are answered in the message: no pairing with a tool_result line.
    expect(nodes[1]!.toolUses).toEqual([]);
    expect(readNodeContent(nodes[2]!.raw.toString('utf8')).blocks[0]).toEqual({ type: 'text', text: 'Advisor: Split the parser first.' });
  });
});

describe('every line accounted for (parser)', () => {
  it('a line whose strings hold invalid UTF-8 is reported with file and line, and its raw bytes are kept', async () => {
    const b = builder();
    b.userPrompt('fine');
    b.userPrompt('caf\u00e9 BAD');
    const lines = b.take();
    const good = Buffer.from(lines[1]!, 'utf8');
    // Replace the two bytes of "é" by a lone 0xE9 (Latin-1), which is not UTF-8.
    const at = good.indexOf(Buffer.from('\u00e9', 'utf8'));
    const bad = Buffer.concat([good.subarray(0, at), Buffer.from([0xe9]), good.subarray(at + 2)]);
    const { dir, cleanup } = await tempDir();
    const path = join(dir, `${SESSION}.jsonl`);
    await writeFile(path, Buffer.concat([Buffer.from(`${lines[0]!}\n`), bad, Buffer.from('\n')]));
    const { nodes, problems } = await parseFile(path).finally(cleanup);
    expect(problems).toEqual([{ file: path, line: 2, reason: expect.stringMatching(/^invalid UTF-8 at byte \d+ of the line/) }]);
    expect(nodes).toHaveLength(2);
    expect(nodes[1]!.raw.equals(bad)).toBe(true);
  });
});

it('lists what it models in three exported registries', () => {
  expect(RECORD_TYPES).toEqual(['relocated', 'worktree-state', 'file-history-delta', 'custom-title', 'ai-title', 'content-replacement']);
  // Named as real 2.1.x transcripts name them (records-2026.ts): the model_fallback, agent_killed and
  // scheduled_task are not what Claude Code writes.
  expect(SYSTEM_SUBTYPES).toEqual(['model_refusal_fallback', 'model_consent_fallback', 'agents_killed', 'scheduled_task_fire']);
  expect(BLOCK_TYPES).toContain('advisor_tool_result');
});
