import { describe, expect, it } from 'vitest';
import { matchScore, rankByMatch } from '../../../../renderer/src/palette/palette-match';

describe('palette matching', () => {
  it('finds every typed word, as a substring or as letters in order, and nothing else', () => {
    expect(matchScore('fork', 'Fork from the selected node')).not.toBeNull();
    expect(matchScore('frk sel', 'Fork from the selected node')).not.toBeNull();
    expect(matchScore('fork merge', 'Fork from the selected node')).toBeNull();
    expect(matchScore('', 'anything')).toBe(0);
  });

  it('ranks a word start above a match inside a word, and a match at the start above both', () => {
    const items = ['Show forks…', 'Unforked things', 'Fork from the selected node…'];
    expect(rankByMatch('fork', items, (s) => s, 10)).toEqual(['Fork from the selected node…', 'Show forks…', 'Unforked things']);
  });

  it('keeps the given order between equal matches and stops at the limit', () => {
    expect(rankByMatch('a', ['a1', 'a2', 'a3'], (s) => s, 2)).toEqual(['a1', 'a2']);
  });
});
