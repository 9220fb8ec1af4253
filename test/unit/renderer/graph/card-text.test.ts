import { describe, expect, it } from 'vitest';
import { cardText, mainArgument, NO_OUTPUT } from '../../../../renderer/src/graph/card-text';
import { buildSessionTree } from '../../../../shared/graph/session-tree';
import type { NodeSummary, ToolCallRef } from '../../../../shared/model';
import { SessionBuilder } from '../../shared/graph/session-builder';

function withCalls(nodes: NodeSummary[], id: string, calls: readonly ToolCallRef[]): void {
  const at = nodes.findIndex((node) => node.id === id);
  nodes[at] = { ...nodes[at]!, toolCalls: calls };
}

function cards(s: SessionBuilder) {
  const tree = buildSessionTree(s.nodes);
  const source = { nodes: s.nodes, parent: tree.tree.parent };
  return (id: string) => cardText(source, tree.indexById.get(id)!);
}

describe('card text', () => {
  it('a call card shows its tool and main argument; a result card names its call', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt', label: 'Check the repo state and tell me what changed since yesterday' });
    const call = s.add('tool_call', prompt, { id: 'call', label: 'Bash: git status' });
    s.add('tool_result', call, { id: 'result', label: '✓ Bash — On branch main' });
    const card = cards(s);
    expect(card('call')).toMatchObject({ title: 'Bash', text: 'git status', failed: false, outcomeMissing: false });
    expect(card('result')).toMatchObject({ title: '← Bash: git status', text: 'On branch main', failed: false });
    // A prompt shows its first words in full (two lines on the card), not ~22 characters.
    expect(card('prompt')).toMatchObject({ title: 'Prompt', text: 'Check the repo state and tell me what changed since yesterday' });
  });

  it('a failed call is marked on its own card; an empty result says (no output)', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null, { id: 'prompt' });
    const call = s.add('tool_call', prompt, { id: 'call', label: 'Edit src/a.ts' });
    withCalls(s.nodes, 'call', [{ id: 't1', name: 'Edit', outcome: 'error' }]);
    s.add('error', call, { id: 'result', label: '✗ Edit — String to replace not found' });
    const quiet = s.add('tool_call', prompt, { id: 'quiet', label: 'Bash: true' });
    s.add('tool_result', quiet, { id: 'empty', label: '✓ Bash' });
    const lost = s.add('tool_call', prompt, { id: 'lost', label: 'Read README.md' });
    withCalls(s.nodes, 'lost', [{ id: 't3', name: 'Read', outcome: 'missing' }]);
    const card = cards(s);
    expect(card('call')).toMatchObject({ title: 'Edit', text: 'src/a.ts', failed: true });
    expect(card('result')).toMatchObject({ title: '← Edit src/a.ts', text: 'String to replace not found', failed: true });
    expect(card('empty')).toMatchObject({ title: '← Bash: true', text: NO_OUTPUT, failed: false });
    expect(card(lost)).toMatchObject({ failed: false, outcomeMissing: true });
  });

  it('a result finds its call past parallel calls, and never in an earlier turn', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const read = s.add('tool_call', prompt, { id: 'read', label: 'Read a.ts' });
    withCalls(s.nodes, 'read', [{ id: 'r', name: 'Read', outcome: 'ok' }]);
    const bash = s.add('tool_call', read, { id: 'bash', label: 'Bash: npm test' });
    const readResult = s.add('tool_result', bash, { id: 'read-result', label: '✓ Read — export const a = 1' });
    const next = s.add('user', readResult, { id: 'next' });
    s.add('tool_result', next, { id: 'orphan', label: '✓ Grep — 3 matches' });
    const card = cards(s);
    expect(card('read-result').title).toBe('← Read a.ts');
    expect(card('orphan').title).toBe('← Grep');
  });

  it('thinking, API errors and two calls in one line read without their prefixes', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('thinking', prompt, { id: 'think', label: 'Thinking: the tests fail because' });
    s.add('error', prompt, { id: 'api', label: '✗ API error (retry 1/10): overloaded' });
    s.add('tool_call', prompt, { id: 'two', label: 'Read a.ts (+1)' });
    withCalls(s.nodes, 'two', [
      { id: 'x', name: 'Read', outcome: 'ok' },
      { id: 'y', name: 'Read', outcome: 'ok' },
    ]);
    const card = cards(s);
    expect(card('think')).toMatchObject({ title: 'Thinking', text: 'the tests fail because' });
    expect(card('api')).toMatchObject({ title: 'Error', text: 'API error (retry 1/10): overloaded', failed: true });
    expect(card('two')).toMatchObject({ title: 'Read +1', text: 'a.ts (+1)' });
    expect(mainArgument('Grep', 'Grep "TODO" in src')).toBe('"TODO" in src');
    s.add('progress', prompt, { id: 'hook', label: 'Hook PostToolUse:Edit' });
    s.add('progress', prompt, { id: 'bash', label: 'Bash progress (3 lines)' });
    const more = cards(s);
    expect(more('hook')).toMatchObject({ title: 'Hook', text: 'PostToolUse:Edit' });
    expect(more('bash')).toMatchObject({ title: 'Progress', text: 'Bash progress (3 lines)' });
    expect(mainArgument('Read', 'Read')).toBe('');
  });

  it('forks and merges are named by folder and short id, so two forks never look the same', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('system', prompt, { id: 'fork-3f9a2c1d-aaaa', label: 'Fork → /home/me/tally-fork-1 (4 files)' });
    s.add('system', prompt, { id: 'fork-7b21e0aa-bbbb', label: 'Fork → /home/me/tally-fork-2 (4 files)' });
    const tree = buildSessionTree(s.nodes);
    const source = { nodes: s.nodes, parent: tree.tree.parent };
    const first = cardText(source, 1, { nodeId: 'fork-3f9a2c1d-aaaa', kind: 'fork', dir: '/home/me/tally-fork-1' });
    const second = cardText(source, 2, { nodeId: 'fork-7b21e0aa-bbbb', kind: 'fork', dir: '/home/me/tally-fork-2/' });
    expect(first).toMatchObject({ title: 'Fork 3f9a2c1', text: 'tally-fork-1 · 4 files' });
    expect(second).toMatchObject({ title: 'Fork 7b21e0a', text: 'tally-fork-2 · 4 files' });
  });
});
