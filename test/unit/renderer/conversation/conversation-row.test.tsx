import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { NodeDetail, ToolCallDetail } from '../../../../shared/model';
import { ConversationRow } from '../../../../renderer/src/conversation/ConversationRow';
import { createConversationStore, type ConversationStore } from '../../../../renderer/src/conversation/conversation-store';
import { createFakeClient, nodeDetail, nodeSummary } from '../fake-client';

afterEach(cleanup);

const call = (over: Partial<ToolCallDetail>): ToolCallDetail => ({
  id: 'tu1',
  name: 'Bash',
  outcome: 'ok',
  input: {},
  resultNodeId: 'r1',
  resultText: '',
  durationMs: 1200,
  ...over,
});

function show(detail: NodeDetail, selected = false): { store: ConversationStore; selections: string[]; switches: number[] } {
  const store = createConversationStore(createFakeClient());
  store.setState({ details: new Map([[detail.node.id, detail]]) });
  const selections: string[] = [];
  const switches: number[] = [];
  render(
    <ConversationRow
      summary={detail.node}
      kind="message"
      selected={selected}
      ordinal={{ index: 2, of: 3 }}
      store={store}
      onSelect={(id) => selections.push(id)}
      onSwitchBranch={(_id, direction) => switches.push(direction)}
    />,
  );
  return { store, selections, switches };
}

const toolCallNode = (calls: ToolCallDetail[]) =>
  nodeDetail('c1', { node: nodeSummary('c1', { kind: 'tool_call' }), cwd: '/repo', blocks: calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })), toolCalls: calls });

describe('ConversationRow', () => {
  it('shows an Edit as +/- lines with the path relative to the working directory', () => {
    show(toolCallNode([call({ name: 'Edit', input: { file_path: '/repo/src/a.ts', old_string: 'one\ntwo', new_string: 'one\nTWO' }, resultText: 'The file has been updated.' })]));
    const diff = screen.getByTestId('conversation-diff');
    expect([...diff.querySelectorAll('.conv-diff__line--removed')].map((l) => l.textContent)).toEqual(['-two']);
    expect([...diff.querySelectorAll('.conv-diff__line--added')].map((l) => l.textContent)).toEqual(['+TWO']);
    expect(screen.getByTestId('conversation-call').textContent).toContain('src/a.ts');
    expect(screen.getByTestId('conversation-call').textContent).not.toContain('/repo/src');
    expect(screen.getByTestId('conversation-call').textContent).not.toContain('has been updated');
  });

  it('shows a failed call in red with the error as text, markup and all, never as HTML', () => {
    show(toolCallNode([call({ name: 'Edit', outcome: 'error', input: {}, resultText: '<tool_use_error>No <b>match</b> for <img src=x onerror=alert(1)></tool_use_error>' })]));
    const error = screen.getByTestId('conversation-error');
    expect(error.textContent).toBe('No <b>match</b> for <img src=x onerror=alert(1)>');
    expect(error.querySelector('b, img')).toBeNull();
    expect(screen.getByTestId('conversation-call').dataset.outcome).toBe('error');
    expect(screen.getByTestId('tool-outcome').textContent).toBe('error');
  });

  it('marks a call with no result "outcome not recorded"', () => {
    show(toolCallNode([call({ name: 'Bash', outcome: 'missing', input: { command: 'npm publish' }, resultNodeId: null, resultText: null, durationMs: null })]));
    expect(screen.getByTestId('tool-outcome').textContent).toBe('outcome not recorded');
    expect(screen.getByTestId('conversation-missing').textContent).toContain('not recorded');
    expect(screen.getByTestId('conversation-call').textContent).toContain('$ npm publish');
  });

  it('renders Bash output colours as spans, not escape codes', () => {
    show(toolCallNode([call({ name: 'Bash', input: { command: 'npm test' }, resultText: '\u001b[32m✓ 3 passed\u001b[0m\n\u001b[31m✗ 1 failed\u001b[0m' })]));
    const output = screen.getByTestId('conversation-output');
    expect(output.textContent).not.toContain('\u001b');
    expect(output.textContent).not.toContain('[32m');
    expect(output.querySelector('.ansi-green-fg')?.textContent).toBe('✓ 3 passed');
    expect(output.querySelector('.ansi-red-fg')?.textContent).toBe('✗ 1 failed');
  });

  it('shows a Read as highlighted code without the line numbers', () => {
    show(toolCallNode([call({ name: 'Read', input: { file_path: '/repo/a.ts' }, resultText: '     1→const a = 1;\n     2→export default a;' })]));
    const code = screen.getByTestId('conversation-code');
    expect(code.textContent).toBe('const a = 1;\nexport default a;');
    expect([...code.querySelectorAll('.tok-keyword')].map((t) => t.textContent)).toEqual(['const', 'export', 'default']);
  });

  it('folds thinking until it is opened, and opens it with one click', () => {
    const { store } = show(nodeDetail('t1', { node: nodeSummary('t1', { kind: 'thinking' }), blocks: [{ type: 'thinking', text: 'I should read the file first.', redacted: false }] }));
    expect(screen.queryByText('I should read the file first.')).toBeNull();
    fireEvent.click(screen.getByText(/Thinking · 1 line/));
    expect(store.getState().open.has('t1')).toBe(true);
    expect(screen.getByText('I should read the file first.')).toBeTruthy();
  });

  it('switches branch with ‹ › without selecting the row, and selects on a click elsewhere', () => {
    const { selections, switches } = show(nodeDetail('u1', { node: nodeSummary('u1', { kind: 'user' }), blocks: [{ type: 'text', text: 'Add a flag' }] }));
    expect(screen.getByTestId('branch-switch').textContent).toContain('branch 2 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Previous branch' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next branch' }));
    expect(switches).toEqual([-1, 1]);
    expect(selections).toEqual([]);
    fireEvent.click(screen.getByText('Add a flag'));
    expect(selections).toEqual(['u1']);
  });

  it('shows the node label until its details arrive', async () => {
    const store = createConversationStore(createFakeClient());
    const summary = nodeSummary('a9', { kind: 'assistant', label: 'Adding the helper' });
    render(<ConversationRow summary={summary} kind="message" selected={false} ordinal={null} store={store} onSelect={() => undefined} />);
    expect(screen.getByText('Adding the helper')).toBeTruthy();
    await act(async () => store.setState({ details: new Map([['a9', nodeDetail('a9', { node: summary, blocks: [{ type: 'text', text: 'Full **reply**' }] })]]) }));
    expect(screen.getByText('reply').tagName).toBe('STRONG');
  });
});

describe('a merge-summary row', () => {
  it('says it is the other branch’s summary, and opens to the block', () => {
    const summary = nodeSummary('m1', { kind: 'merge-summary', label: 'Merge summary: 2 turns of theirs, 3 files' });
    const detail = nodeDetail('m1', { node: summary, blocks: [{ type: 'text', text: '## Theirs\' turns since the fork point (2)' }] });
    const store = createConversationStore(createFakeClient());
    store.setState({ details: new Map([[summary.id, detail]]) });
    render(<ConversationRow summary={summary} kind="compaction" selected={false} ordinal={null} store={store} onSelect={() => undefined} />);
    const divider = screen.getByTestId('conversation-merge-summary');
    expect(divider.textContent).toContain('Merge summary of the other branch');
    expect(divider.textContent).toContain('Merge summary: 2 turns of theirs, 3 files');
    expect(screen.queryByTestId('conversation-compaction')).toBeNull();
    act(() => fireEvent.click(screen.getByText('Merge summary: 2 turns of theirs, 3 files')));
    expect(screen.getByRole('heading', { name: "Theirs' turns since the fork point (2)" })).toBeTruthy();
  });
});
