import { describe, expect, it } from 'vitest';
import { isMergeSummaryText, MERGE_SUMMARY_CLOSE, MERGE_SUMMARY_OPEN, mergeSummaryLabel, renderMergeSummary, SUMMARY_LIMITS, trimText, type MergeSummaryFacts } from '../../../shared/merge-summary';

const facts: MergeSummaryFacts = {
  theirsTitle: 'Add a JSON flag',
  theirsLabel: 'Done: JSON output',
  baseLabel: 'Prompt: count words',
  dir: '/work/app',
  turns: [
    { prompt: 'Add a --json flag', conclusion: 'The flag prints JSON.' },
    { prompt: 'Document it\nin the README', conclusion: null },
  ],
  turnsLeftOut: 0,
  files: [
    { path: 'src/json.ts', status: 'added', changedBy: 'theirs', resolution: 'automatic' },
    { path: 'src/index.ts', status: 'conflicted', changedBy: 'both', conflict: 'content', resolution: 'manual' },
    { path: 'logo.png', status: 'conflicted', changedBy: 'both', conflict: 'binary', resolution: 'theirs' },
    { path: 'src/format.ts', status: 'clean', changedBy: 'ours', resolution: 'automatic' },
    { path: 'old.txt', status: 'deleted', changedBy: 'theirs', resolution: 'base' },
  ],
};

describe('the merge-summary block', () => {
  const text = renderMergeSummary(facts);

  it('opens with the marker line and closes with its tag, so it reads back as a summary', () => {
    expect(text.split('\n')[0]).toBe(MERGE_SUMMARY_OPEN);
    expect(text.endsWith(MERGE_SUMMARY_CLOSE)).toBe(true);
    expect(isMergeSummaryText(text)).toBe(true);
    expect(isMergeSummaryText(`  \n${text}`)).toBe(true);
    expect(isMergeSummaryText('<arbor-merge-summary version="7">later')).toBe(true);
    // A prompt that only mentions the tag is still a prompt.
    expect(isMergeSummaryText(`Why does ${MERGE_SUMMARY_OPEN} appear here?`)).toBe(false);
  });

  it('numbers theirs’ turns with prompt and conclusion, keeping multi-line prompts in their item', () => {
    expect(text).toContain('## Theirs\' turns since the fork point (2)');
    expect(text).toContain('1. User: Add a --json flag\n   - Assistant\'s conclusion: The flag prints JSON.');
    expect(text).toContain('2. User: Document it\n     in the README\n   - Assistant\'s conclusion: (no final reply)');
    expect(text).toContain('the same point (“Prompt: count words”)');
  });

  it('lists the files theirs changed and how the merge settled every file', () => {
    const changed = text.slice(text.indexOf('## Files theirs changed'), text.indexOf('## How the merge settled'));
    expect(changed.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- src/json.ts (added)',
      '- src/index.ts (changed, ours changed it too)',
      '- logo.png (changed, ours changed it too)',
      '- old.txt (deleted)',
    ]);
    const settled = text.slice(text.indexOf('## How the merge settled'));
    expect(settled).toContain('- src/index.ts: conflict (content), resolved by hand');
    expect(settled).toContain("- logo.png: conflict (binary), resolved with theirs' version");
    expect(settled).toContain('- src/format.ts: merged cleanly (ours changed it)');
    expect(settled).toContain("- old.txt: took the base's version (theirs changed it)");
  });

  it('says how many older turns it left out', () => {
    const long = renderMergeSummary({ ...facts, turns: facts.turns.slice(0, 1), turnsLeftOut: 5 });
    expect(long).toContain('(6)');
    expect(long).toContain('(5 earlier turns left out)');
    expect(long).toContain('6. User: Add a --json flag');
  });

  it('is labelled by its counts, never by its text', () => {
    expect(mergeSummaryLabel(text)).toBe("Merge summary: 2 turns of theirs, 5 files");
    expect(mergeSummaryLabel(MERGE_SUMMARY_OPEN)).toBe('Merge summary');
  });
});

describe('trimText', () => {
  it('keeps short text and cuts long text at a word end, saying so', () => {
    expect(trimText('  short  ', 10)).toBe('short');
    const cut = trimText('alpha beta gamma delta epsilon', 18);
    expect(cut).toBe('alpha beta gamma […]');
    expect(trimText('x'.repeat(SUMMARY_LIMITS.prompt * 2), SUMMARY_LIMITS.prompt).length).toBeLessThanOrEqual(SUMMARY_LIMITS.prompt + 4);
  });
});
