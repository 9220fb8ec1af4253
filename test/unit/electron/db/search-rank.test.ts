import { describe, expect, it } from 'vitest';
import { buildSnippet, scoreText, toPattern } from '../../../../electron/db/search-rank';
import { parseSearchText } from '../../../../electron/db/search-query';

const pattern = (input: string) => toPattern(parseSearchText(input));
const snippet = (text: string, input: string) => buildSnippet(text, pattern(input), '[', ']');

describe('buildSnippet', () => {
  it('marks whole words, a growing last word, and phrases as one run', () => {
    expect(snippet('Fix the parser now', 'parser')).toBe('Fix the [parser] now');
    expect(snippet('Fix the parser now', 'fix pars')).toBe('[Fix] the [parser] now');
    expect(snippet('the merge preview shows', '"merge preview"')).toBe('the [merge preview] shows');
  });

  it('folds case and diacritics as the index does', () => {
    expect(snippet('Un RÉSUMÉ rapide', 'resume')).toBe('Un [RÉSUMÉ] rapide');
  });

  it('reads arrows, dashes and ticks as separators, as with non-ASCII letters beside them', () => {
    expect(snippet('Parser → Fixed ✓ — résumé next', 'fixed')).toBe('Parser → [Fixed] ✓ — résumé next');
    expect(snippet('Parser → Fixed ✓ — done', 'fixed')).toBe('Parser → [Fixed] ✓ — done');
    expect(snippet('a→FixedParser✓', 'fixedp')).toBe('a→[FixedParser]✓');
    expect(snippet('ｆｉｘｅｄ → fixed', 'fixed')).toBe('ｆｉｘｅｄ → [fixed]');
  });

  it('cuts long text around the first match', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[60] = 'needle';
    const cut = snippet(words.join(' '), 'needle') ?? '';
    expect(cut.startsWith('…w55 ')).toBe(true);
    expect(cut).toContain('[needle]');
    expect(cut.endsWith('…')).toBe(true);
  });

  it('regression: a snippet that reaches the end of the text keeps its last characters (a final full stop was cut off)', () => {
    expect(snippet('Add a --top N option.', 'option')).toBe('Add a --top N [option].');
    expect(snippet('Run it!) ', 'run')).toBe('[Run] it!) ');
  });

  it('says when nothing matches, so the caller can read further', () => {
    expect(snippet('nothing here', 'needle')).toBeNull();
  });
});

describe('scoreText', () => {
  it('prefers more occurrences and shorter texts', () => {
    const p = pattern('token');
    expect(scoreText('token token token', 17, p, 20)).toBeGreaterThan(scoreText('token once', 10, p, 20));
    expect(scoreText('token short', 11, p, 20)).toBeGreaterThan(scoreText('token short', 400, p, 20));
    expect(scoreText('nothing', 7, p, 20)).toBe(0);
  });

  it('scores ASCII text by its native counters exactly as by its tokens (a non-ASCII word sends text to the tokens)', () => {
    const texts = ['the the the buffer', 'Session_sessions sessionId: session', 'x-cursor handling, cursor  handling!', 'flush→status flushStatus', 'the buffer the buffer the'];
    const queries = ['the', 'sess', 'session', '"cursor handling"', '"the the"', 'the buf', 'flush', '"the buffer the"'];
    for (const text of texts) {
      for (const query of queries) {
        const p = pattern(query);
        // ' é' adds a token no query matches, and makes the text take the tokenizing path.
        expect(scoreText(text, 40, p, 30), `${query} in ${text}`).toBe(scoreText(`${text} é`, 40, p, 30));
      }
    }
    expect(scoreText('the the the', 11, pattern('"the the"'), 11)).toBeGreaterThan(scoreText('the the', 11, pattern('"the the"'), 11));
  });
});
