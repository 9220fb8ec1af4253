import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Inspector } from '../../../../renderer/src/inspector/Inspector';
import { LongText } from '../../../../renderer/src/inspector/LongText';
import { render } from '@testing-library/react';
import { createFakeClient, nodeDetail, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';
import type { NodeDetail } from '../../../../shared/model';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

afterEach(cleanup);

async function show(detail: NodeDetail) {
  const client = createFakeClient({ 'nodes.get': () => detail });
  const view = renderWithStore(<Inspector />, client);
  await act(() => view.store.getState().selectNode(detail.node.id));
  return view;
}

describe('Inspector', () => {
  it('says what it will show before a session is open, and asks for a selection once one is', async () => {
    const view = renderWithStore(<Inspector />);
    expect(screen.getByTestId('inspector').textContent).toContain('Open a session');
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1' });
    });
    expect(screen.getByTestId('inspector').textContent).toContain('Select a node');
  });

  it('shows kind, model, tokens and tool calls with outcome and duration', async () => {
    const longResult = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    await show(
      nodeDetail('t1', {
        node: nodeSummary('t1', { kind: 'tool_call', model: 'claude-sonnet-4', toolCalls: [] }),
        usage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 0, cacheCreationTokens: 0 },
        blocks: [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } }],
        toolCalls: [
          { id: 'tu1', name: 'Bash', outcome: 'ok', input: { command: 'ls' }, resultNodeId: 'r1', resultText: longResult, durationMs: 1500 },
          { id: 'tu2', name: 'Edit', outcome: 'missing', input: {}, resultNodeId: null, resultText: null, durationMs: null },
        ],
      }),
    );
    expect(screen.getByTestId('inspector-kind').textContent).toBe('Tool call');
    expect(screen.getByText('claude-sonnet-4')).toBeTruthy();
    expect(screen.getByTestId('inspector').textContent).toMatch(/in 1,200/);
    expect(screen.getAllByTestId('tool-outcome').map((e) => e.textContent)).toEqual(['ok', 'outcome not recorded']);
    expect(screen.getByText('1.50 s')).toBeTruthy();
    // The tool_use block is drawn once, as the tool call.
    expect(screen.getAllByText('Bash')).toHaveLength(1);
    expect(screen.getByTestId('inspector').textContent).not.toContain('line 99');
    fireEvent.click(screen.getByText('Show all 100 lines'));
    expect(screen.getByTestId('inspector').textContent).toContain('line 99');
  });

  it('shows failed tool results as errors and toggles raw JSON', async () => {
    await show(
      nodeDetail('e1', {
        node: nodeSummary('e1', { kind: 'error' }),
        blocks: [{ type: 'tool_result', toolUseId: 'tu9', text: 'No such file', isError: true }],
        raw: '{"type":"user","uuid":"e1"}',
      }),
    );
    expect(screen.getByTestId('inspector-kind').getAttribute('data-kind')).toBe('error');
    expect(screen.getByTestId('tool-outcome').textContent).toBe('error');
    fireEvent.click(screen.getByText('Raw JSON'));
    expect(screen.getByTestId('inspector').textContent).toContain('"uuid": "e1"');
  });

  it('renders thinking collapsed and markdown text without raw HTML', async () => {
    await show(
      nodeDetail('a1', {
        blocks: [
          { type: 'thinking', text: 'secret plan', redacted: false },
          { type: 'text', text: 'Hello <script>alert(1)</script> **world**' },
        ],
      }),
    );
    const details = screen.getByTestId('inspector').querySelector('details.thinking-block') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(screen.getByTestId('inspector').querySelector('script')).toBeNull();
    expect(screen.getByText('world').tagName).toBe('STRONG');
  });

  it('collapses one huge line by characters', () => {
    const { container } = render(<LongText text={'x'.repeat(20_000)} />);
    expect(container.querySelector('pre')!.textContent!.length).toBeLessThan(7000);
    fireEvent.click(screen.getByText('Show all 20000 characters'));
    expect(container.querySelector('pre')!.textContent!.length).toBe(20_000);
  });

  it('keeps the case of a tool id inside an upper-cased label', async () => {
    await show(nodeDetail('r1', { blocks: [{ type: 'tool_result', toolUseId: 'toolu_01AbCd', text: 'done', isError: false }] }));
    const id = screen.getByText('toolu_01AbCd');
    expect(id.tagName).toBe('CODE');
    expect(id.closest('.field-label')).not.toBeNull();
    // The label's CSS upper-cases its words; the id's own rule must undo that (happy-dom loads no CSS).
    const css = readFileSync(resolve(__dirname, '../../../../renderer/src/styles/app.css'), 'utf8');
    const rule = /\.field-label code,[^{]*\{([^}]*)\}/.exec(css);
    expect(rule?.[1]).toMatch(/text-transform:\s*none/);
  });

  it('answers a click at once with what the graph knows (kind, label, id) while the record is on its way (52–89 ms at 50k waited on nodes.get)', async () => {
    let answer: (detail: NodeDetail) => void = () => undefined;
    const detail = nodeDetail('t1', { node: nodeSummary('t1', { kind: 'tool_call', label: 'Bash: ls' }) });
    const client = createFakeClient({ 'nodes.get': () => new Promise<NodeDetail>((done) => (answer = done)) });
    const view = renderWithStore(<Inspector />, client);
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', graph: { session: { id: 's1' }, nodes: [nodeSummary('t0'), detail.node] } as never });
    });
    let selected: Promise<void> = Promise.resolve();
    await act(async () => {
      selected = view.store.getState().selectNode('t1');
    });
    const preview = screen.getByTestId('inspector-preview');
    expect(preview.textContent).toContain('Bash: ls');
    expect(preview.textContent).toContain(detail.node.sourceId);
    expect(preview.getAttribute('aria-busy')).toBe('true');
    await act(async () => {
      answer(detail);
      await selected;
    });
    expect(screen.queryByTestId('inspector-preview')).toBeNull();
    expect(screen.getByTestId('inspector-kind').getAttribute('data-kind')).toBe('tool_call');
  });

  it("marks the Source line of a session whose transcript was deleted as kept in Arbor's store, and only that session's", async () => {
    const detail = nodeDetail('p1', { file: '/home/u/.claude/projects/app/s1.jsonl', line: 7 });
    const view = await show(detail);
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', sessions: [session('s1', { sourceDeleted: true }), session('s2')] });
    });
    const mark = screen.getByTestId('source-deleted-source');
    expect(mark.textContent).toBe('source deleted — kept in Arbor’s store');
    expect(mark.getAttribute('title')).toMatch(/no longer on disk/);
    expect(mark.closest('dd')?.textContent).toContain('s1.jsonl:7');
    await act(async () => {
      view.store.setState({ selectedSessionId: 's2' });
    });
    expect(screen.queryByTestId('source-deleted-source')).toBeNull();
    expect(screen.getByTestId('inspector').textContent).toContain('s1.jsonl:7');
  });
});
