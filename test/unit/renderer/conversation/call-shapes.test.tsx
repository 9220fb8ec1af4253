/**
 * Tool calls drawn by their format-neutral shape (a Codex shell command, patch, plan, MCP call), in the
 * conversation's rows and in the inspector: never as the call's JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ToolCallDetail, ToolCallShape } from '../../../../shared/model';
import { ToolCallRow } from '../../../../renderer/src/conversation/ToolCallRow';
import { ToolCallView } from '../../../../renderer/src/inspector/ToolCallView';
import { ContentBlockView } from '../../../../renderer/src/inspector/ContentBlockView';

afterEach(cleanup);

const call = (shape: ToolCallShape, over: Partial<ToolCallDetail> = {}): ToolCallDetail => ({
  id: 'call_1',
  name: 'exec_command',
  outcome: 'ok',
  input: { cmd: 'unused', workdir: '/work/app' },
  resultNodeId: 'r1',
  resultText: '',
  durationMs: 1500,
  shape,
  ...over,
});

const patch: ToolCallShape = {
  kind: 'patch',
  files: [
    { action: 'add', path: 'docs/new.md', movePath: null, lines: [{ kind: 'added', text: '# New' }] },
    { action: 'move', path: '/work/app/src/a.ts', movePath: '/work/app/src/b.ts', lines: [{ kind: 'hunk', text: 'function a()' }, { kind: 'removed', text: 'old' }, { kind: 'added', text: 'new' }] },
    { action: 'delete', path: 'src/gone.ts', movePath: null, lines: [] },
  ],
};

describe('ToolCallRow, shaped calls', () => {
  it('shows a shell call as its command with its output in colour, its exit code and duration, and no JSON', () => {
    render(<ToolCallRow call={call({ kind: 'shell', command: 'npm test -- dates' }, { outcome: 'error', exitCode: 1, resultText: '\u001b[31mFAIL\u001b[0m dates.test.ts' })} cwd="/work/app" full={false} />);
    const row = screen.getByTestId('conversation-call');
    expect(screen.getByTestId('conversation-command').textContent).toBe('$ npm test -- dates');
    const output = screen.getByTestId('conversation-output');
    expect(output.textContent).toBe('FAIL dates.test.ts');
    expect(output.querySelector('.ansi-red-fg')?.textContent).toBe('FAIL');
    expect(screen.getByTestId('conversation-exit-code').textContent).toBe('exit 1');
    expect(row.querySelector('.conv-call__duration')?.textContent).toBe('1.50 s');
    expect(row.textContent).not.toContain('"cmd"');
    expect(row.textContent).not.toContain('\u001b');
  });

  it('marks a shell call with no output as outcome not recorded', () => {
    render(<ToolCallRow call={call({ kind: 'shell', command: 'git status --short' }, { outcome: 'missing', resultNodeId: null, resultText: null, durationMs: null })} cwd={null} full={false} />);
    expect(screen.getByTestId('conversation-missing')).toBeTruthy();
    expect(screen.getByTestId('tool-outcome').textContent).toBe('outcome not recorded');
  });

  it('shows a patch as one diff per file under Add, Move and Delete heads, paths relative to the folder', () => {
    // Run through the shell: still named as the patch it is.
    render(<ToolCallRow call={call(patch, { name: 'shell', resultText: 'Success. Updated the following files:' })} cwd="/work/app" full={false} />);
    expect(screen.getByTestId('conversation-call').querySelector('.conv-call__name')?.textContent).toBe('apply_patch');
    const files = screen.getAllByTestId('conversation-patch-file');
    expect(files.map((file) => file.dataset.action)).toEqual(['add', 'move', 'delete']);
    expect(files[1]!.querySelector('.conv-patch__head')?.textContent).toBe('Movesrc/a.ts → src/b.ts');
    expect([...files[1]!.querySelectorAll('.conv-diff__line')].map((line) => line.textContent)).toEqual(['@@function a()', '-old', '+new']);
    const row = screen.getByTestId('conversation-call');
    expect(row.textContent).toContain('docs/new.md and 2 more files');
    expect(row.textContent).not.toContain('Success.');
    expect(row.textContent).not.toContain('*** Begin Patch');
  });

  it('shows a plan as a checklist and says how far it got', () => {
    const plan: ToolCallShape = { kind: 'plan', explanation: 'Test first.', steps: [{ step: 'Write the test', status: 'completed' }, { step: 'Fix it', status: 'in_progress' }, { step: 'Ship', status: 'pending' }] };
    render(<ToolCallRow call={call(plan, { name: 'update_plan', resultText: 'Plan updated' })} cwd={null} full={false} />);
    const checklist = screen.getByTestId('conversation-plan');
    expect([...checklist.querySelectorAll('li')].map((li) => [li.dataset.status, li.textContent])).toEqual([
      ['completed', '✓Write the test'],
      ['in_progress', '◐Fix it'],
      ['pending', '○Ship'],
    ]);
    expect(screen.getByTestId('conversation-call').textContent).toContain('1 of 3 steps done');
    expect(screen.getByTestId('conversation-call').textContent).not.toContain('Plan updated');
  });

  it('shows an MCP call as a compact row naming the server, the tool and its main argument', () => {
    render(<ToolCallRow call={call({ kind: 'brief', tool: 'github/get_issue', argument: 'acme/app' }, { name: 'mcp__github__get_issue', resultText: '{"title":"bug"}' })} cwd={null} full={false} />);
    const row = screen.getByTestId('conversation-call');
    expect(row.querySelector('.conv-call__name')?.textContent).toBe('github/get_issue');
    expect(row.querySelector('.conv-call__subject')?.textContent).toBe('acme/app');
    expect(row.querySelector('.conv-input')).toBeNull();
  });
});

describe('the inspector, shaped calls', () => {
  it('shows a shell call as its command and coloured output, with the raw input folded away', () => {
    render(<ToolCallView call={call({ kind: 'shell', command: 'ls' }, { exitCode: 0, resultText: '\u001b[32mok\u001b[0m' })} onOpenNode={() => {}} />);
    expect(screen.getByTestId('conversation-command').textContent).toBe('$ ls');
    expect(screen.getByTestId('conversation-output').querySelector('.ansi-green-fg')?.textContent).toBe('ok');
    expect(screen.getByTestId('conversation-exit-code').textContent).toBe('exit 0');
    expect(screen.getByText('Raw input').closest('details')?.open).toBe(false);
  });

  it('shows a patch per file', () => {
    render(<ToolCallView call={call(patch, { name: 'apply_patch' })} cwd="/work/app" onOpenNode={() => {}} />);
    expect(screen.getAllByTestId('conversation-patch-file')).toHaveLength(3);
  });

  it('shows a web search with no call id as the tool and its query, not as JSON', () => {
    render(<ContentBlockView block={{ type: 'tool_use', id: '', name: 'web_search', input: { type: 'search', query: 'zstd' }, shape: { kind: 'brief', tool: 'web_search', argument: 'zstd' } }} />);
    const row = screen.getByTestId('conversation-call');
    expect(row.textContent).toBe('web_searchzstd');
  });
});
