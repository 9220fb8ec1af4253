import { describe, expect, it } from 'vitest';
import { claudeSearchText } from '../../../../../electron/importers/claude-code/search-text';
import { claudeReplyFacts } from '../../../../../electron/db/usage-replies';
import { RAW_LIMIT, type ParsedNode } from '../../../../../electron/importers/transcript';
import {
  assistantLine,
  envelope,
  parseLines,
  parseOne,
  SESSION,
  systemLine,
  toolResult,
  toolUse,
  userLine,
} from '../fixtures/claude-lines';

describe('parseClaudeTranscript: user lines', () => {
  it('turns a typed prompt into a user node with every envelope field and the exact raw bytes', async () => {
    const line = userLine('u1', null, 'fix the bug\nin parser.ts');
    const node = await parseOne(line);
    expect(node).toMatchObject({
      sourceId: 'u1',
      parentSourceId: null,
      logicalParentSourceId: null,
      sessionSourceId: SESSION,
      kind: 'user',
      timestamp: '2026-01-02T03:04:05.000Z',
      label: 'fix the bug',
      // Search text is derived from raw by the background indexer, not on the import's hot path.
      text: null,
      toolUses: [],
      toolResults: [],
      spawnedAgentId: null,
      spawnedByToolUseId: null,
      sidechain: false,
      agentId: null,
      model: null,
      cwd: '/repo',
      gitBranch: 'main',
      version: '2.1.39',
      usage: null,
      line: 1,
      offset: 0,
      rawBytes: Buffer.byteLength(line),
    });
    expect(node.raw.toString('utf8')).toBe(line);
    expect(claudeSearchText(node.raw)).toBe('fix the bug\nin parser.ts');
  });

  it('labels a prompt by its text block, not the IDE context block before it', async () => {
    const node = await parseOne(
      userLine('u1', null, [
        { type: 'text', text: '<ide_opened_file>The user opened the file /repo/a.ts in the IDE.</ide_opened_file>' },
        { type: 'text', text: 'Why does this fail?' },
      ]),
    );
    expect(node).toMatchObject({ kind: 'user', label: 'Why does this fail?' });
    expect(searchText(node)).toContain('ide_opened_file');
  });

  it.each([
    ['isMeta', userLine('m', null, [{ type: 'text', text: 'Caveat: generated' }], { isMeta: true }), 'Caveat: generated'],
    ['a slash command', userLine('m', null, '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>'), '/model opus'],
    ['custom command (message first)', userLine('m', null, '<command-message>x is running…</command-message>\n<command-name>/x</command-name>'), '/x'],
    ['local command output', userLine('m', null, '<local-command-stdout>Set model to opus</local-command-stdout>'), 'Output: Set model to opus'],
    ['bash mode input', userLine('m', null, '<bash-input>ls -la</bash-input>'), '! ls -la'],
    ['an interruption', userLine('m', null, [{ type: 'text', text: '[Request interrupted by user for tool use]' }]), '[Request interrupted by user for tool use]'],
    ['a lone reminder', userLine('m', null, [{ type: 'text', text: '<system-reminder>\nhook said hi\n</system-reminder>' }]), 'Reminder: hook said hi'],
  ])('classifies %s as system', async (_what, line, label) => {
    expect(await parseOne(line)).toMatchObject({ kind: 'system', label });
  });

  it('names tool results after the call earlier in the file', async () => {
    const { nodes, problems } = await parseLines([
      assistantLine('a1', 'u0', [toolUse('toolu_1', 'Edit', { file_path: '/repo/src/a.ts', old_string: 'x', new_string: 'y' })]),
      userLine('r1', 'a1', [toolResult('toolu_1', 'The file /repo/src/a.ts has been updated.')]),
      assistantLine('a2', 'r1', [toolUse('toolu_2', 'Edit', { file_path: '/repo/src/b.ts' })]),
      userLine('r2', 'a2', [toolResult('toolu_2', '<tool_use_error>String to replace not found in file.</tool_use_error>', true)], {
        toolUseResult: 'Error: String to replace not found in file.',
      }),
    ]);
    expect(problems).toEqual([]);
    expect(nodes.map((node) => [node.kind, node.label])).toEqual([
      ['tool_call', 'Edit src/a.ts'],
      ['tool_result', '✓ Edit — The file /repo/src/a.ts has been updated.'],
      ['tool_call', 'Edit src/b.ts'],
      ['error', '✗ Edit — String to replace not found in file.'],
    ]);
    expect(nodes[1]?.toolResults).toEqual([{ toolUseId: 'toolu_1', isError: false }]);
    expect(nodes[3]?.toolResults).toEqual([{ toolUseId: 'toolu_2', isError: true }]);
  });

  it('marks a line with several results as error when any failed, and reads block-list result content', async () => {
    const node = await parseOne(
      userLine('r', 'a', [
        toolResult('t1', [{ type: 'text', text: 'fine' }]),
        toolResult('t2', [{ type: 'text', text: 'Exit code 1\nboom' }], true),
      ]),
    );
    expect(node.kind).toBe('error');
    expect(node.label).toBe('✗ tool error (+1) — Exit code 1');
    expect(searchText(node)).toContain('fine');
    expect(searchText(node)).toContain('boom');
  });

  it('takes spawnedAgentId from a Task result', async () => {
    const node = await parseOne(
      userLine('r', 'a', [toolResult('toolu_task', [{ type: 'text', text: 'done' }])], {
        toolUseResult: { status: 'completed', agentId: 'ea02459f', content: [], prompt: 'p', totalDurationMs: 1 },
      }),
    );
    expect(node).toMatchObject({ kind: 'tool_result', spawnedAgentId: 'ea02459f' });
  });

  it('classifies the compaction summary as compaction', async () => {
    const node = await parseOne(
      userLine('cs', 'cb', [{ type: 'text', text: 'This session is being continued from a previous conversation…' }], {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
    );
    expect(node).toMatchObject({ kind: 'compaction', label: 'Compaction summary', parentSourceId: 'cb' });
  });

  it('labels an image-only prompt and keeps user lines with a non-object message as unknown', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    expect(await parseOne(userLine('i', null, [image]))).toMatchObject({ kind: 'user', label: '[image]' });
    const broken = JSON.stringify({ ...envelope('e', null), type: 'user', message: 'error' });
    expect(await parseOne(broken)).toMatchObject({ kind: 'unknown', sourceId: 'e' });
  });
});

describe('parseClaudeTranscript: assistant lines', () => {
  it('labels tool calls and indexes tool names and inputs', async () => {
    const node = await parseOne(assistantLine('a', 'u', [toolUse('toolu_b', 'Bash', { command: 'npm test -- --run', description: 'Run tests' })]));
    expect(node).toMatchObject({
      kind: 'tool_call',
      label: 'Bash: npm test -- --run',
      toolUses: [{ id: 'toolu_b', name: 'Bash' }],
      model: 'claude-opus-4-1',
      usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheCreationTokens: 40 },
    });
    expect(searchText(node)).toContain('Bash');
    expect(searchText(node)).toContain('npm test -- --run');
    expect(searchText(node)).toContain('Run tests');
  });

  it('names the reply a line with usage belongs to and its reported cost, as the store reads them from the raw line', async () => {
    const lines = [
      assistantLine('a', 'u', [{ type: 'text', text: 'done' }]),
      assistantLine('b', 'a', [{ type: 'text', text: 'and "costUSD":9 in the text' }], { costUSD: 0.25 }),
    ];
    const { nodes } = await parseLines(lines);
    expect(nodes.map((node) => node.reply)).toEqual([
      { replyKey: 'msg:msg_a', reportedUsd: null },
      { replyKey: 'msg:msg_b', reportedUsd: 0.25 },
    ]);
    for (const node of nodes) expect(node.reply).toEqual(claudeReplyFacts(node.raw));
    // A line without usage is no reply.
    expect((await parseOne(userLine('u', null, 'hi'))).reply).toBeUndefined();
  });

  it('counts extra calls in the label', async () => {
    const node = await parseOne(
      assistantLine('a', 'u', [toolUse('t1', 'Read', { file_path: '/elsewhere/x.md' }), toolUse('t2', 'Grep', { pattern: 'TODO' })]),
    );
    expect(node.label).toBe('Read /elsewhere/x.md (+1)');
    expect(node.toolUses.map((use) => use.id)).toEqual(['t1', 't2']);
  });

  it.each([
    ['text', [{ type: 'text', text: 'Done. All tests pass.' }], 'assistant', 'Done. All tests pass.'],
    ['thinking only', [{ type: 'thinking', thinking: 'Let me look at the parser', signature: 's' }], 'thinking', 'Thinking: Let me look at the parser'],
    ['redacted thinking', [{ type: 'redacted_thinking', data: 'xyz' }], 'thinking', 'Thinking (redacted)'],
    ['thinking and text', [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'Answer' }], 'assistant', 'Answer'],
    ['no content', [], 'assistant', '(empty response)'],
  ])('classifies %s', async (_what, content, kind, label) => {
    expect(await parseOne(assistantLine('a', 'u', content))).toMatchObject({ kind, label });
  });

  it.each([
    ['isApiErrorMessage', { isApiErrorMessage: true }],
    ['error', { error: 'rate_limit' }],
    ['apiError', { apiError: { message: 'overloaded' } }],
  ])('classifies an assistant line with %s as error', async (_what, extra) => {
    const node = await parseOne(assistantLine('a', 'u', [{ type: 'text', text: 'API Error: 529 overloaded' }], extra));
    expect(node).toMatchObject({ kind: 'error', label: '✗ API Error: 529 overloaded' });
  });
});

describe('parseClaudeTranscript: system, progress and unknown lines', () => {
  it('reads compact_boundary as compaction with its logical parent', async () => {
    const node = await parseOne(
      systemLine('cb', null, {
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        logicalParentUuid: 'last',
        compactMetadata: { trigger: 'auto', preTokens: 123_456 },
      }),
    );
    expect(node).toMatchObject({ kind: 'compaction', label: 'Compacted (auto, 123k tokens)', parentSourceId: null, logicalParentSourceId: 'last' });
  });

  it.each([
    [{ subtype: 'microcompact_boundary', microcompactMetadata: { trigger: 'manual', preTokens: 900 } }, 'compaction', 'Microcompacted (manual, 900 tokens)'],
    [{ subtype: 'api_error', retryAttempt: 2, maxRetries: 10, error: { message: 'Overloaded' } }, 'error', '✗ API error (retry 2/10): Overloaded'],
    [{ subtype: 'turn_duration', durationMs: 247_515, messageCount: 103 }, 'system', 'Turn finished (4m 8s, 103 messages)'],
    [{ subtype: 'stop_hook_summary', hookCount: 2, hookErrors: ['x'] }, 'system', 'Stop hooks: 2 ran, 1 failed'],
    [{ subtype: 'local_command', content: '<command-name>/clear</command-name>' }, 'system', '/clear'],
    [{ content: 'Claude Opus 4 limit reached, now using Sonnet 4', level: 'warning' }, 'system', 'Claude Opus 4 limit reached, now using Sonnet 4'],
    [{ subtype: 'bridge_status' }, 'system', 'System: bridge_status'],
  ])('reads system line %j', async (fields, kind, label) => {
    expect(await parseOne(systemLine('s', 'p', fields))).toMatchObject({ kind, label });
  });

  it.each([
    [{ type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash' } }, 'Hook PostToolUse:Bash'],
    [{ type: 'progress', data: { type: 'bash_progress', elapsedTimeSeconds: 9 } }, 'Bash running (9s)'],
    [{ type: 'attachment', attachment: { type: 'hook_success', hookName: 'Stop' } }, 'Hook Stop: success'],
    [{ type: 'attachment', attachment: { type: 'skill_listing', content: 'x' } }, 'Attachment: skill_listing'],
    [{ type: 'saved_hook_context', hookName: 'SessionStart', content: ['x'] }, 'Hook context: SessionStart'],
  ])('reads %j as progress', async (fields, label) => {
    const node = await parseOne(JSON.stringify({ ...envelope('p', 'x'), ...fields }));
    expect(node).toMatchObject({ kind: 'progress', label });
  });

  it('keeps an unknown type with a uuid as an unknown node, and one without as a record', async () => {
    const { nodes, records, problems } = await parseLines([
      JSON.stringify({ ...envelope('n1', 'p'), type: 'teleport', payload: 1 }),
      JSON.stringify({ type: 'teleport-state', target: 'Fixing bugs', sessionId: SESSION }),
    ]);
    expect(problems).toEqual([]);
    expect(nodes).toMatchObject([{ sourceId: 'n1', kind: 'unknown', label: 'Unknown line type "teleport"' }]);
    expect(records).toMatchObject([{ type: 'teleport-state', refSourceId: null, summary: null, sessionSourceId: SESSION, line: 2 }]);
  });

  it('keeps summary, file-history-snapshot and queue lines as records pointing at their node', async () => {
    const lines = [
      JSON.stringify({ type: 'summary', summary: 'Fix bug in a.py', leafUuid: 'R1' }),
      JSON.stringify({ type: 'file-history-snapshot', messageId: 'U2', isSnapshotUpdate: false, snapshot: { messageId: 'U2', trackedFileBackups: {} } }),
      JSON.stringify({ type: 'file-history-snapshot', isSnapshotUpdate: true, snapshot: { messageId: 'U3', trackedFileBackups: {} } }),
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', content: 'later', sessionId: SESSION }),
    ];
    const { records, nodes } = await parseLines(lines);
    expect(nodes).toEqual([]);
    expect(records.map((record) => [record.type, record.refSourceId, record.summary, record.line])).toEqual([
      ['summary', 'R1', 'Fix bug in a.py', 1],
      ['file-history-snapshot', 'U2', null, 2],
      ['file-history-snapshot', 'U3', null, 3],
      ['queue-operation', null, null, 4],
    ]);
    expect(records[1]?.offset).toBe(Buffer.byteLength(lines[0] ?? '') + 1);
    expect(records[0]?.raw.toString()).toBe(lines[0]);
  });
});

describe('parseClaudeTranscript: bad lines', () => {
  it('reports each bad line with its number and imports the rest', async () => {
    const good1 = userLine('u1', null, 'first');
    const good2 = userLine('u2', 'u1', 'second');
    const { nodes, problems } = await parseLines([
      good1,
      '"massive error"',
      '42',
      '[1]',
      'null',
      '{"silly": "this"}',
      '{"type":"user","uuid":"cut","message":{"content":"trunc',
      'this is not json',
      '',
      '   ',
      good2,
    ]);
    expect(nodes.map((node) => [node.sourceId, node.line])).toEqual([
      ['u1', 1],
      ['u2', 11],
    ]);
    expect(problems.map((problem) => problem.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(problems[0]?.reason).toMatch(/not a transcript entry: a JSON string/);
    expect(problems[2]?.reason).toMatch(/array/);
    expect(problems[4]?.reason).toMatch(/without "type" or "uuid"/);
    expect(problems[5]?.reason).toMatch(/^truncated JSON/);
    expect(problems[6]?.reason).toMatch(/^not valid JSON/);
    expect(problems.every((problem) => problem.file.endsWith(`${SESSION}.jsonl`))).toBe(true);
  });

  it('accepts a UTF-8 byte-order mark on the first line', async () => {
    const { nodes, problems } = await parseLines([`\ufeff${userLine('u1', null, 'hi')}`]);
    expect(problems).toEqual([]);
    expect(nodes[0]?.raw.toString()).toBe(userLine('u1', null, 'hi'));
  });

  it('keeps duplicate uuids as separate nodes for the store to dedupe', async () => {
    const { nodes } = await parseLines([userLine('dup', null, 'a'), userLine('dup', null, 'b')]);
    expect(nodes.map((node) => node.label)).toEqual(['a', 'b']);
  });
});

describe('parseClaudeTranscript: node shape', () => {
  // The states change gave nodes two more optional fields by spreads: the corpus's nodes came in 6 shapes instead
  // of 2, and every read of a node's fields in the writer (and the worker's clone of it) went megamorphic.
  it('gives every node the same fields in the same order, whatever the line carries', async () => {
    const { nodes } = await parseLines([
      userLine('u1', null, 'edit a.ts'),
      assistantLine('a1', 'u1', [toolUse('t1', 'Edit', { file_path: '/repo/a.ts', old_string: 'x', new_string: 'y' })]),
      userLine('r1', 'a1', [toolResult('t1', 'The file /repo/a.ts has been updated.')]),
      assistantLine('a2', 'r1', [toolUse('t2', 'Read', { file_path: '/repo/b.ts' })]),
      userLine('r2', 'a2', [toolResult('t2', 'contents')]),
      userLine('r3', 'r2', [toolResult('t9', 'a result whose call is not in the file')]),
      systemLine('s1', 'r3', { subtype: 'a-subtype-not-modelled', content: 'x' }),
      assistantLine('a3', 's1', [{ type: 'text', text: 'done' }], { version: '9.9.9' }),
    ]);
    // Lines of each kind the fields depend on: a result kept with its ids, a line read to rebuild file states, a
    // reply, a result of a call not named, a finding.
    expect(nodes.some((node) => node.resultIds !== undefined)).toBe(true);
    expect(nodes.some((node) => node.readForStates === true)).toBe(true);
    expect(nodes.some((node) => node.reply !== undefined)).toBe(true);
    expect(nodes.some((node) => node.unnamedResultOf !== undefined)).toBe(true);
    expect(nodes.some((node) => node.formatFindings !== undefined)).toBe(true);
    expect(new Set(nodes.map((node) => Object.keys(node).join(','))).size).toBe(1);
  });
});

describe('parseClaudeTranscript: limits', () => {
  it('bounds label and search text, and cuts raw at RAW_LIMIT', async () => {
    const prompt = 'word '.repeat(1_000_000); // ~5 MB on one line
    const node = await parseOne(userLine('big', null, prompt));
    expect(node.label.length).toBeLessThanOrEqual(120);
    expect(node.label.endsWith('…')).toBe(true);
    // Longer than what is stored: its text is extracted at once (it could not be read back from the cut raw).
    expect(node.text).toContain('word word');
    expect(Buffer.byteLength(node.text ?? '')).toBeLessThanOrEqual(32 * 1024);
    expect(node.raw.length).toBe(RAW_LIMIT);
    expect(node.rawBytes).toBeGreaterThan(RAW_LIMIT);
  });

  it('bounds search text in bytes for non-ASCII text', async () => {
    const node = await parseOne(userLine('cjk', null, '木'.repeat(40_000)));
    const text = searchText(node);
    expect(text.startsWith('木木')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32 * 1024);
    expect(text.endsWith('\ufffd')).toBe(false);
  });
});

/** What the full-text index gets for a node: the parser's text, else the text derived from its raw line. */
function searchText(node: ParsedNode): string {
  return node.text ?? claudeSearchText(node.raw);
}
