import { describe, expect, it } from 'vitest';
import type { ConversationRow } from '../../../../renderer/src/conversation/branch-path';
import { createRowEstimates, estimatedStart, rowSort } from '../../../../renderer/src/conversation/row-estimates';
import { nodeSummary } from '../fake-client';

const nodes = [
  nodeSummary('u1', { kind: 'user' }),
  nodeSummary('b1', { kind: 'tool_call', toolCalls: [{ id: 't1', name: 'Bash', outcome: 'ok' }] }),
  nodeSummary('r1', { kind: 'tool_call', toolCalls: [{ id: 't2', name: 'Read', outcome: 'ok' }] }),
  nodeSummary('u2', { kind: 'user' }),
  nodeSummary('b2', { kind: 'tool_call', toolCalls: [{ id: 't3', name: 'Bash', outcome: 'ok' }] }),
  nodeSummary('s1', { kind: 'system' }),
];
const rows: ConversationRow[] = nodes.map((node, i) => ({ node: i, kind: node.kind === 'system' ? 'annotation' : 'message', agentRuns: [], ordinal: null }));

describe('row estimates', () => {
  it('tells rows apart by kind and, for a tool call, by the tools it calls', () => {
    expect(rowSort(rows[1]!, nodes[1]!)).toBe('tool_call:Bash');
    expect(rowSort(rows[2]!, nodes[2]!)).toBe('tool_call:Read');
    expect(rowSort(rows[5]!, nodes[5]!)).toBe('annotation');
    const estimates = createRowEstimates();
    const sorts = estimates.sortsOf(rows, nodes);
    expect(sorts[0]).toBe(sorts[3]);
    expect(sorts[1]).toBe(sorts[4]);
    expect(sorts[1]).not.toBe(sorts[2]);
  });

  it('guesses by kind until rows of a sort are measured, then at their mean height', () => {
    const estimates = createRowEstimates();
    const sorts = estimates.sortsOf(rows, nodes);
    const first = Array.from(sorts, (sort) => estimates.estimate(sort));
    expect(first[0]).toBeGreaterThan(first[5]!); // a prompt is taller than a one-line annotation
    estimates.observe(sorts[1]!, 'b1', 300);
    estimates.observe(sorts[4]!, 'b2', 340);
    expect(estimates.estimate(sorts[1]!)).toBe(320);
    // The Read call's sort learned nothing from the Bash calls.
    expect(estimates.estimate(sorts[2]!)).toBe(first[2]);
  });

  it('counts only the first height of a node, so a row opened and measured again does not skew its sort', () => {
    const estimates = createRowEstimates();
    const sorts = estimates.sortsOf(rows, nodes);
    estimates.observe(sorts[0]!, 'u1', 100);
    estimates.observe(sorts[0]!, 'u1', 900);
    estimates.observe(sorts[0]!, 'u2', 0); // not laid out: says nothing
    expect(estimates.estimate(sorts[0]!)).toBe(100);
  });

  it('keeps what it learned across branches (the sorts of a new branch are the same numbers)', () => {
    const estimates = createRowEstimates();
    const before = estimates.sortsOf(rows, nodes);
    estimates.observe(before[1]!, 'b1', 250);
    const other = estimates.sortsOf([rows[4]!, rows[0]!], nodes);
    expect(other[0]).toBe(before[1]);
    expect(estimates.estimate(other[0]!)).toBe(250);
  });

  it('places a row at the sum of the heights before it', () => {
    expect(estimatedStart(0, () => 50)).toBe(0);
    expect(estimatedStart(3, (row) => 10 * (row + 1))).toBe(60);
  });
});
