import { describe, expect, it } from 'vitest';
import { buildFtsSearch, facetTokens, parseSearchText, searchRowid, SEQ_MASK, toFtsQuery } from '../../../../electron/db/search-query';

describe('toFtsQuery', () => {
  it('quotes every token and prefix-matches the last', () => {
    expect(toFtsQuery('fix parser')).toBe('"fix" "parser"*');
    expect(toFtsQuery('  refactor  ')).toBe('"refactor"*');
  });

  it('turns FTS5 syntax into plain text', () => {
    expect(toFtsQuery('a AND b')).toBe('"a" "AND" "b"*');
    expect(toFtsQuery('NEAR(x y)')).toBe('"NEAR(x" "y)"*');
    expect(toFtsQuery('col:value')).toBe('"col:value"*');
    expect(toFtsQuery('text:(x) OR facets:y')).toBe('"text:(x)" "OR" "facets:y"*');
  });

  it('keeps quoted words together as a phrase: exact when closed, growing while still being typed', () => {
    expect(toFtsQuery('"two words"')).toBe('"two words"');
    expect(toFtsQuery('"two wo')).toBe('"two wo"*');
    expect(toFtsQuery('"quoted')).toBe('"quoted"*');
    expect(toFtsQuery('fix "merge preview" now')).toBe('"fix" "merge preview" "now"*');
    expect(parseSearchText('a "b c" d')).toEqual([
      { text: 'a', prefix: false },
      { text: 'b c', prefix: false },
      { text: 'd', prefix: true },
    ]);
  });

  it('drops tokens that cannot match anything', () => {
    expect(toFtsQuery('"')).toBeNull();
    expect(toFtsQuery('* - ()')).toBeNull();
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery('* x')).toBe('"x"*');
    expect(toFtsQuery('x "" y')).toBe('"x" "y"*');
  });

  it('keeps non-Latin words', () => {
    expect(toFtsQuery('résumé 日本')).toBe('"résumé" "日本"*');
  });
});

describe('buildFtsSearch', () => {
  it('restricts the text to its column and adds one group per filter', () => {
    expect(buildFtsSearch('fix', { kinds: ['user', 'tool_call'] })?.match).toBe('text : ( "fix"* ) AND facets : ( "\ue002kuser" OR "\ue002ktoolcall" )');
    expect(buildFtsSearch('', { agent: 'main' })?.match).toBe('facets : ( "\ue002xmain" )');
  });

  it('matches kinds within projects as one group of pairs once every row has them, and as two groups before', () => {
    const pairOf = (kind: string, project: string): string | undefined =>
      facetTokens({ kind, sessionId: 's', project, agentId: null, sidechain: false }).split(' ')[3];
    const filters = { kinds: ['user', 'error'] as const, projects: ['/a', '/b'], sessionIds: ['S1'] };
    const pairs = ['user', 'error'].flatMap((kind) => ['/a', '/b'].map((project) => `"${pairOf(kind, project)}"`));
    expect(buildFtsSearch('fix', { ...filters, kindByProject: true })?.match).toBe(`text : ( "fix"* ) AND facets : ( ${pairs.join(' OR ')} ) AND facets : ( "ss1" )`);
    const apart = buildFtsSearch('fix', { ...filters, kindByProject: false })?.match;
    expect(apart).toContain('facets : ( "kuser" OR "kerror" ) AND facets : ( "ss1" ) AND facets : ( "p');
    expect(apart).not.toContain('c');
    // A kind alone or a project alone has no pair to use; too many pairs are matched apart.
    expect(buildFtsSearch('fix', { kinds: ['user'], kindByProject: true })?.match).toBe('text : ( "fix"* ) AND facets : ( "kuser" )');
    expect(buildFtsSearch('fix', { projects: ['/a'], kindByProject: true })?.match).not.toContain('c');
    const many = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    expect(buildFtsSearch('fix', { kinds: ['user', 'error'], projects: many, kindByProject: true })?.match).not.toContain('c');
    expect(buildFtsSearch('fix', { kinds: ['user'], projects: [], kindByProject: true })).toBeNull();
  });

  it('finds nothing, without querying, for an empty filter or an empty date range', () => {
    expect(buildFtsSearch('fix', { kinds: [] })).toBeNull();
    expect(buildFtsSearch('fix', { sessionIds: [] })).toBeNull();
    expect(buildFtsSearch('fix', { fromSeconds: 100, toSeconds: 100 })).toBeNull();
    expect(buildFtsSearch('"')).toBeNull();
  });

  it('turns a date range into a rowid range that holds exactly the nodes of those seconds', () => {
    const search = buildFtsSearch('x', { fromSeconds: 1_700_000_000, toSeconds: 1_700_000_060 });
    const inside = searchRowid('2023-11-14T22:13:20.000Z', 42); // 1_700_000_000
    const lastSecond = searchRowid('2023-11-14T22:14:19.999Z', 7);
    const after = searchRowid('2023-11-14T22:14:20.000Z', 1);
    expect(search && inside >= search.minRowid && inside <= search.maxRowid).toBe(true);
    expect(search && lastSecond <= search.maxRowid).toBe(true);
    expect(search && after > search.maxRowid).toBe(true);
  });
});

describe('searchRowid', () => {
  it('orders by time, then seq, and keeps the seq recoverable', () => {
    const older = searchRowid('2024-01-01T00:00:00Z', 900);
    const newer = searchRowid('2025-01-01T00:00:00Z', 3);
    expect(newer > older).toBe(true);
    expect(newer & SEQ_MASK).toBe(3n);
    expect(searchRowid(null, 5)).toBe(5n);
    expect(searchRowid('not a time', 5)).toBe(5n);
    // Far future times are clamped rather than overflowing the 64-bit rowid.
    expect(searchRowid('9999-12-31T00:00:00Z', 1) < 1n << 63n).toBe(true);
  });
});

describe('facetTokens', () => {
  it('names kind, session and agent as tokens no typed word can equal', () => {
    expect(facetTokens({ kind: 'tool_result', sessionId: 'Ab-12', project: null, agentId: null, sidechain: false })).toBe('\ue002ktoolresult \ue002sab12 \ue002xmain');
    expect(facetTokens({ kind: 'assistant', sessionId: 's', project: null, agentId: 'a9f', sidechain: true })).toBe('\ue002kassistant \ue002ss \ue002xsub \ue002xa9f');
  });

  it('names a project by a hash of its whole path, so folders with the same letters stay apart', () => {
    const tokens = (project: string): string[] => facetTokens({ kind: 'user', sessionId: 's', project, agentId: null, sidechain: false }).split(' ');
    const a = tokens('/a/b-c');
    const b = tokens('/ab/c');
    expect(a).toHaveLength(5);
    expect(a[2]).toMatch(/^\ue002p[0-9a-f]{20}$/);
    // The kind within the project: the same hash, then the kind.
    expect(a[3]).toBe(`\ue002c${a[2]?.slice(2)}user`);
    expect(a[3]).not.toBe(b[3]);
    expect(a[2]).not.toBe(b[2]);
    expect(tokens('/a/b-c')[2]).toBe(a[2]);
  });
});
