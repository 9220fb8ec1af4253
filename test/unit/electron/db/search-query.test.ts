import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../../electron/db/search-query';

describe('toFtsQuery', () => {
  it('quotes every token and prefix-matches the last', () => {
    expect(toFtsQuery('fix parser')).toBe('"fix" "parser"*');
    expect(toFtsQuery('  refactor  ')).toBe('"refactor"*');
  });

  it('turns FTS5 syntax into plain text', () => {
    expect(toFtsQuery('a AND b')).toBe('"a" "AND" "b"*');
    expect(toFtsQuery('"quoted')).toBe('"""quoted"*');
    expect(toFtsQuery('NEAR(x y)')).toBe('"NEAR(x" "y)"*');
    expect(toFtsQuery('col:value')).toBe('"col:value"*');
  });

  it('drops tokens that cannot match anything', () => {
    expect(toFtsQuery('"')).toBeNull();
    expect(toFtsQuery('* - ()')).toBeNull();
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery('* x')).toBe('"x"*');
  });

  it('keeps non-Latin words', () => {
    expect(toFtsQuery('résumé 日本')).toBe('"résumé" "日本"*');
  });
});
