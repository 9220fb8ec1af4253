/**
 * What a stored Codex line reads back as: each tool call with its format-neutral shape (a shell command, a
 * per-file patch, a plan, a named tool with its argument), outputs with their exit code, reasoning as thinking.
 * The lines come from Arbor's rollout generator.
 */
import { describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../../../electron/demo/codex-rollout';
import { readCodexNodeContent } from '../../../../../electron/importers/codex';
import { codexCallLabel, shellCommandText } from '../../../../../electron/importers/codex/tool-labels';
import type { ContentBlock } from '../../../../../shared/model';

const scope = { id: '019e0000-0000-7000-8000-00000000c0de', cwd: '/work/app' };

function line(lines: readonly string[], test: (payload: Record<string, unknown>) => boolean): string {
  const found = lines.find((raw) => test((JSON.parse(raw) as { payload: Record<string, unknown> }).payload));
  if (found === undefined) throw new Error('no such line');
  return found;
}

const ofType = (type: string) => (payload: Record<string, unknown>) => payload.type === type;

function toolUse(raw: string): Extract<ContentBlock, { type: 'tool_use' }> {
  const block = readCodexNodeContent(raw).blocks.find((b) => b.type === 'tool_use');
  if (block?.type !== 'tool_use') throw new Error('no tool_use block');
  return block;
}

function responseLine(payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: '2026-11-30T09:00:00.000Z', type: 'response_item', payload });
}

describe('readCodexNodeContent, legacy history', () => {
  it('reads exec_command as its command, and its output with the exit code it reports', () => {
    const lines = new RolloutBuilder(scope).user('go').command('npm test', { exitCode: 1, output: '\u001b[31mFAIL\u001b[0m dates' }).take();
    expect(toolUse(line(lines, ofType('function_call'))).shape).toEqual({ kind: 'shell', command: 'npm test' });
    const result = readCodexNodeContent(line(lines, ofType('function_call_output'))).blocks[0];
    expect(result).toMatchObject({ type: 'tool_result', isError: true, exitCode: 1, text: '\u001b[31mFAIL\u001b[0m dates' });
  });

  it('reads an argv shell call as the shell would show it, and unwraps bash -lc to its script', () => {
    const lines = new RolloutBuilder(scope)
      .user('go')
      .tool('shell', { command: ['bash', '-lc', 'cd src && ls -la'] }, 'ok')
      .tool('shell', { command: ['rg', '-n', "it's here", 'src dir'] }, 'ok')
      .take();
    const calls = lines.filter((raw) => raw.includes('"function_call"'));
    expect(toolUse(calls[0]!).shape).toEqual({ kind: 'shell', command: 'cd src && ls -la' });
    expect(toolUse(calls[1]!).shape).toEqual({ kind: 'shell', command: `rg -n 'it'\\''s here' 'src dir'` });
    expect(shellCommandText(['/bin/zsh', '-lc', 'echo hi'])).toBe('echo hi');
    expect(shellCommandText(['python3', '-c', 'print(1)'])).toBe("python3 -c 'print(1)'");
  });

  it('reads apply_patch as a custom tool call into per-file changes (Add, Update, Delete, Move)', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/new.md',
      '+# New',
      '+text',
      '*** Update File: src/a.ts',
      '*** Move to: src/b.ts',
      '@@ function a()',
      ' keep',
      '-old',
      '+new',
      '*** Delete File: src/gone.ts',
      '*** End Patch',
    ].join('\n');
    const raw = responseLine({ type: 'custom_tool_call', status: 'completed', call_id: 'c1', name: 'apply_patch', input: patch });
    expect(toolUse(raw).shape).toEqual({
      kind: 'patch',
      files: [
        { action: 'add', path: 'docs/new.md', movePath: null, lines: [{ kind: 'added', text: '# New' }, { kind: 'added', text: 'text' }] },
        {
          action: 'move',
          path: 'src/a.ts',
          movePath: 'src/b.ts',
          lines: [
            { kind: 'hunk', text: 'function a()' },
            { kind: 'same', text: 'keep' },
            { kind: 'removed', text: 'old' },
            { kind: 'added', text: 'new' },
          ],
        },
        { action: 'delete', path: 'src/gone.ts', movePath: null, lines: [] },
      ],
    });
  });

  it('reads apply_patch run through a shell (an argv or a heredoc) as the patch, not as a command', () => {
    const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch';
    const argv = responseLine({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['apply_patch', patch] }), call_id: 'c2' });
    const heredoc = responseLine({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }), call_id: 'c3' });
    for (const raw of [argv, heredoc]) {
      const shape = toolUse(raw).shape;
      expect(shape?.kind).toBe('patch');
      expect(shape?.kind === 'patch' ? shape.files.map((f) => [f.action, f.path, f.lines.map((l) => l.kind)]) : null).toEqual([['update', 'a.py', ['hunk', 'removed', 'added']]]);
    }
    expect(codexCallLabel('shell', { command: ['apply_patch', patch] }, null)).toBe('apply_patch: Update a.py');
  });

  it('reads update_plan as a checklist with its explanation', () => {
    const lines = new RolloutBuilder(scope)
      .user('go')
      .plan([{ step: 'Write the test', status: 'completed' }, { step: 'Fix it', status: 'in_progress' }, { step: 'Ship', status: 'pending' }], 'Test first.')
      .take();
    expect(toolUse(line(lines, ofType('function_call'))).shape).toEqual({
      kind: 'plan',
      explanation: 'Test first.',
      steps: [
        { step: 'Write the test', status: 'completed' },
        { step: 'Fix it', status: 'in_progress' },
        { step: 'Ship', status: 'pending' },
      ],
    });
  });

  it('reads web_search, view_image and MCP calls as the tool and its main argument', () => {
    const lines = new RolloutBuilder(scope)
      .user('go')
      .webSearch('zstd streaming decoder')
      .tool('view_image', { path: '/work/app/shot.png' }, 'ok')
      .tool('mcp__github__get_issue', { repo: 'acme/app', number: 7 }, '{"title":"bug"}')
      .take();
    expect(toolUse(line(lines, ofType('web_search_call'))).shape).toEqual({ kind: 'brief', tool: 'web_search', argument: 'zstd streaming decoder' });
    const calls = lines.filter((raw) => raw.includes('"function_call"'));
    expect(toolUse(calls[0]!).shape).toEqual({ kind: 'brief', tool: 'view_image', argument: '/work/app/shot.png' });
    expect(toolUse(calls[1]!).shape).toEqual({ kind: 'brief', tool: 'github/get_issue', argument: 'acme/app' });
    // Newer builds put the server in a namespace beside the tool's own name.
    const namespaced = responseLine({ type: 'function_call', name: 'js', namespace: 'mcp__node_repl__', arguments: '{"title":"Connect browser","code":"1"}', call_id: 'c4' });
    expect(toolUse(namespaced).shape).toEqual({ kind: 'brief', tool: 'node_repl/js', argument: 'Connect browser' });
  });

  it('reads a reasoning summary as thinking', () => {
    const lines = new RolloutBuilder(scope).user('go').reasoning('Look at the test first').take();
    expect(readCodexNodeContent(line(lines, ofType('reasoning'))).blocks).toEqual([{ type: 'thinking', text: 'Look at the test first', redacted: false }]);
  });

  it('leaves a call it has no shape for with its input only', () => {
    const lines = new RolloutBuilder(scope).user('go').tool('write_stdin', { session_id: 3, chars: '' }, 'ok').take();
    const block = toolUse(line(lines, ofType('function_call')));
    expect(block.shape).toBeUndefined();
    expect(block.input).toEqual({ session_id: 3, chars: '' });
  });
});

describe('readCodexNodeContent, paginated history', () => {
  const paginated = { ...scope, mode: 'paginated' as const };
  const item = (type: string) => (payload: Record<string, unknown>) =>
    payload.type === 'item_completed' && (payload.item as { type?: string } | undefined)?.type === type;

  it('reads a command execution as its command with its output and exit code on the same line', () => {
    const lines = new RolloutBuilder(paginated).user('go').command('make', { exitCode: 2, output: 'boom' }).take();
    const blocks = readCodexNodeContent(line(lines, item('CommandExecution'))).blocks;
    expect(blocks[0]).toMatchObject({ type: 'tool_use', shape: { kind: 'shell', command: 'make' } });
    expect(blocks[1]).toMatchObject({ type: 'tool_result', isError: true, exitCode: 2, text: 'boom' });
  });

  it('reads a file change item as per-file changes', () => {
    const lines = new RolloutBuilder(paginated).user('go').patch('src/a.ts', 'old', 'new', true).take();
    expect(toolUse(line(lines, item('FileChange'))).shape).toEqual({
      kind: 'patch',
      files: [{ action: 'update', path: '/work/app/src/a.ts', movePath: null, lines: [{ kind: 'removed', text: 'old' }, { kind: 'added', text: 'new' }] }],
    });
  });

  it('reads reasoning, plans and web searches', () => {
    const lines = new RolloutBuilder(paginated)
      .user('go')
      .reasoning('Think about it')
      .plan([{ step: 'One', status: 'completed' }, { step: 'Two', status: 'pending' }])
      .webSearch('codex rollout')
      .take();
    expect(readCodexNodeContent(line(lines, item('Reasoning'))).blocks).toEqual([{ type: 'thinking', text: 'Think about it', redacted: false }]);
    expect(toolUse(line(lines, item('Plan'))).shape).toEqual({ kind: 'plan', explanation: null, steps: [{ step: 'One', status: 'completed' }, { step: 'Two', status: 'pending' }] });
    expect(toolUse(line(lines, item('WebSearch'))).shape).toEqual({ kind: 'brief', tool: 'web_search', argument: 'codex rollout' });
  });
});
