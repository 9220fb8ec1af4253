import { describe, expect, it } from 'vitest';
import { summarizeEntry } from '../../../../../electron/importers/claude-code/entry-summary';
import { MERGE_SUMMARY_FIELD, renderMergeSummary } from '../../../../../shared/merge-summary';

const block = renderMergeSummary({ theirsTitle: null, theirsLabel: 'theirs', baseLabel: null, dir: '/w', turns: [{ prompt: 'Add JSON', conclusion: 'Done.' }], turnsLeftOut: 0, files: [] });
const userLine = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', uuid: 'u1', message: { role: 'user', content }, ...extra });
const summarize = (entry: Record<string, unknown>, withText = true) => summarizeEntry(entry, 'user', '/w', new Map(), withText);

describe('reading back the merge-summary block', () => {
  it('is a merge-summary node with its own label, never a prompt or a title', () => {
    for (const entry of [userLine([{ type: 'text', text: block }], { [MERGE_SUMMARY_FIELD]: { version: 1 } }), userLine(block)]) {
      for (const withText of [true, false]) {
        const summary = summarize(entry, withText);
        expect(summary.kind).toBe('merge-summary');
        expect(summary.label).toBe('Merge summary: 1 turn of theirs, 0 files');
        expect(summary.promptText).toBeNull();
      }
    }
    expect(summarize(userLine(block)).text).toContain('Add JSON');
  });

  it('leaves prompts that mention the tag, and tool results, as they were', () => {
    expect(summarize(userLine(`What is ${block.split('\n')[0]}?`)).kind).toBe('user');
    const result = userLine([{ type: 'tool_result', tool_use_id: 't1', content: block }]);
    expect(summarize(result).kind).toBe('tool_result');
  });
});
