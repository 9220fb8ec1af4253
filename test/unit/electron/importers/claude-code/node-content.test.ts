import { describe, expect, it } from 'vitest';
import { readNodeContent, readToolResults, readToolUseResult } from '../../../../../electron/importers/claude-code';
import { assistantLine, envelope, systemLine, toolResult, toolUse, userLine } from '../fixtures/claude-lines';

const PNG_BASE64 = Buffer.alloc(3000, 7).toString('base64');

describe('readNodeContent', () => {
  it('turns string content into a text block and reads the envelope', () => {
    expect(readNodeContent(userLine('u', null, 'hello'))).toEqual({
      blocks: [{ type: 'text', text: 'hello' }],
      usage: null,
      cwd: '/repo',
      gitBranch: 'main',
      version: '2.1.39',
      model: null,
    });
  });

  it('normalizes assistant blocks and reads model and usage', () => {
    const content = readNodeContent(
      assistantLine('a', 'u', [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'answer' },
        toolUse('toolu_1', 'Bash', { command: 'ls' }),
        { type: 'server_tool_use', id: 'srv', name: 'web_search', input: { query: 'q' } },
      ]),
    );
    expect(content.blocks).toEqual([
      { type: 'thinking', text: 'plan', redacted: false },
      { type: 'thinking', text: '', redacted: true },
      { type: 'text', text: 'answer' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
      { type: 'other', blockType: 'server_tool_use', json: { type: 'server_tool_use', id: 'srv', name: 'web_search', input: { query: 'q' } } },
    ]);
    expect(content.model).toBe('claude-opus-4-1');
    expect(content.usage).toEqual({ inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheCreationTokens: 40 });
  });

  it('reads tool results from strings and block lists, and images as sizes without their base64', () => {
    const raw = userLine('r', 'a', [
      toolResult('t1', 'plain'),
      toolResult('t2', [{ type: 'text', text: 'line 1' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }, { type: 'text', text: 'line 2' }], true),
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG_BASE64 } },
      'a bare string',
    ]);
    const { blocks } = readNodeContent(raw);
    expect(blocks).toEqual([
      { type: 'tool_result', toolUseId: 't1', text: 'plain', isError: false },
      { type: 'tool_result', toolUseId: 't2', text: 'line 1\n[image]\nline 2', isError: true },
      { type: 'image', mediaType: 'image/png', bytes: 3000 },
      { type: 'image', mediaType: 'image/jpeg', bytes: 3000 },
      { type: 'text', text: 'a bare string' },
    ]);
    expect(JSON.stringify(blocks)).not.toContain(PNG_BASE64.slice(0, 100));
    expect(readToolResults(raw)).toEqual([
      { toolUseId: 't1', text: 'plain', isError: false },
      { toolUseId: 't2', text: 'line 1\n[image]\nline 2', isError: true },
    ]);
  });

  it('strips base64 from documents kept as other blocks', () => {
    const raw = userLine('u', null, [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PNG_BASE64 } }]);
    const [block] = readNodeContent(raw).blocks;
    expect(block).toEqual({
      type: 'other',
      blockType: 'document',
      json: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: '[base64, 3000 bytes]' } },
    });
  });

  it('shows a system line as its content plus its details', () => {
    const { blocks } = readNodeContent(
      systemLine('cb', null, { subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'auto', preTokens: 5 } }),
    );
    expect(blocks).toEqual([
      { type: 'text', text: 'Conversation compacted' },
      { type: 'other', blockType: 'system:compact_boundary', json: { compactMetadata: { trigger: 'auto', preTokens: 5 } } },
    ]);
    expect(readNodeContent(systemLine('s', 'p', { subtype: 'turn_duration', durationMs: 3 })).blocks[0]).toEqual({ type: 'text', text: 'System: turn_duration' });
  });

  it('keeps progress, attachment and unknown lines as other blocks', () => {
    const progress = JSON.stringify({ ...envelope('p', 'x'), type: 'progress', data: { type: 'bash_progress', output: 'ok' } });
    expect(readNodeContent(progress).blocks).toEqual([{ type: 'other', blockType: 'progress:bash_progress', json: { type: 'bash_progress', output: 'ok' } }]);
    const attachment = JSON.stringify({ ...envelope('t', 'x'), type: 'attachment', attachment: { type: 'hook_success', stdout: 'hi' } });
    expect(readNodeContent(attachment).blocks[0]).toMatchObject({ blockType: 'attachment:hook_success' });
    const unknown = JSON.stringify({ ...envelope('n', 'x'), type: 'teleport', content: 'c', payload: { a: 1 } });
    expect(readNodeContent(unknown).blocks).toEqual([{ type: 'other', blockType: 'teleport', json: { content: 'c', payload: { a: 1 } } }]);
  });

  it('cuts very long strings in other blocks but not in tool inputs', () => {
    const long = 'y'.repeat(100_000);
    const raw = assistantLine('a', 'u', [toolUse('t', 'Write', { content: long }), { type: 'mystery', blob: long }]);
    const [use, other] = readNodeContent(raw).blocks;
    expect(use).toMatchObject({ type: 'tool_use', input: { content: long } });
    const json = other?.type === 'other' ? (other.json as { blob: string }) : { blob: '' };
    expect(json.blob.length).toBeLessThan(70_000);
    expect(json.blob).toMatch(/more chars\]$/);
  });

  it('survives a raw line cut at RAW_LIMIT', () => {
    expect(readNodeContent(userLine('u', null, 'long').slice(0, 30)).blocks).toEqual([{ type: 'other', blockType: 'unreadable', json: null }]);
  });
});

describe('readToolUseResult', () => {
  it('returns toolUseResult exactly as written, or null', () => {
    const result = { filePath: '/repo/a.py', originalFile: 'x\n', structuredPatch: [{ oldStart: 1, lines: ['-x', '+y'] }] };
    expect(readToolUseResult(userLine('r', 'a', [toolResult('t', 'ok')], { toolUseResult: result }))).toEqual(result);
    expect(readToolUseResult(userLine('u', null, 'hi'))).toBeNull();
    expect(readToolUseResult('not json')).toBeNull();
  });
});
