import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_CANDIDATES } from '../../../../electron/db/search';
import { openSessionStore, type SessionStore } from '../../../../electron/db/session-store';
import type { ParsedNode, TranscriptFile } from '../../../../electron/importers/transcript';
import { Random } from '../../../../shared/random';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../../shared/model';
import { inOrder, parsedNode, transcriptFile } from '../../../integration/db/parsed-fixtures';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-search-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: TranscriptFile, nodes: readonly ParsedNode[]): void {
  const writer = store.beginFile(file);
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: file.size, endLine: nodes.length + 1 });
  store.linkChangedSessions();
}

function indexAll(): void {
  while (store.indexNextChunk(50) > 0);
}

/** A session of `texts`, one node each, a minute apart from `start`. */
function session(id: string, start: string, texts: readonly string[], extra: (i: number) => Partial<ParsedNode> = () => ({})): void {
  const t0 = Date.parse(start);
  importFile(
    transcriptFile(`/t/${id}.jsonl`, { sessionHint: id }),
    inOrder(
      texts.map((text, i) =>
        parsedNode(`${id}-${i}`, i === 0 ? null : `${id}-${i - 1}`, {
          sessionSourceId: id,
          text,
          timestamp: new Date(t0 + i * 60_000).toISOString(),
          ...extra(i),
        }),
      ),
    ),
  );
}

const ids = (query: string, limit = 50, offset = 0, filters = {}): string[] => store.search(query, limit, offset, filters).map((hit) => hit.nodeId);

describe('search order', () => {
  it('answers newest first across sessions imported oldest-last (import order is not time order)', () => {
    // Equal texts score alike, so time alone orders them.
    session('newer', '2025-06-01T10:00:00Z', ['deploy the parser', 'deploy the parser']);
    session('older', '2024-01-01T10:00:00Z', ['deploy the parser', 'deploy the parser']);
    indexAll();
    expect(ids('deploy')).toEqual(['newer-1', 'newer-0', 'older-1', 'older-0']);
  });

  it('ranks a common word among its newest matches only, then pages on through older ones', () => {
    // The oldest nodes say it most often: ranked over every match they would come first.
    const texts = Array.from({ length: SEARCH_CANDIDATES + 30 }, (_, i) => (i < 30 ? 'token token token token' : `token number ${i}`));
    texts[texts.length - 5] = 'token token of the newest ones';
    session('s', '2025-01-01T00:00:00Z', texts);
    indexAll();
    const first = ids('token', 10);
    expect(first[0]).toBe(`s-${texts.length - 5}`);
    expect(first.some((id) => Number(id.slice(2)) < 30)).toBe(false);
    const all = new Set<string>();
    for (let offset = 0; offset < texts.length + 10; offset += 40) for (const id of ids('token', 40, offset)) all.add(id);
    expect(all.size).toBe(texts.length);
    // Past the ranked ones: newest first.
    expect(ids('token', 3, SEARCH_CANDIDATES)).toEqual(['s-29', 's-28', 's-27']);
    expect(store.countSearch('token', 50)).toEqual({ total: 50, capped: true });
    expect(store.countSearch('token', 1000)).toEqual({ total: texts.length, capped: false });
  });
});

describe('phrases and words', () => {
  beforeEach(() => {
    session('s', '2025-01-01T00:00:00Z', ['the merge preview shows conflicts', 'preview of the merge', 'merged previews']);
    indexAll();
  });

  it('matches quoted words as a phrase and unquoted words anywhere', () => {
    expect(ids('"merge preview"').sort()).toEqual(['s-0']);
    expect(ids('merge preview').sort()).toEqual(['s-0', 's-1']);
    // Only the last word grows: "merge" is whole, "previ" a prefix.
    expect(ids('merge previ').sort()).toEqual(['s-0', 's-1']);
    expect(ids('merg previ')).toEqual([]);
    expect(ids('"merge preview" conflicts').sort()).toEqual(['s-0']);
    // A closed phrase is exact; one still being typed grows its last word.
    expect(ids('"merge previ"')).toEqual([]);
    expect(ids('"merge previ').sort()).toEqual(['s-0']);
  });

  it('highlights a phrase as one run in its snippet', () => {
    const [hit] = store.search('"merge preview"', 5);
    expect(hit?.snippet).toBe(`the ${SNIPPET_OPEN}merge preview${SNIPPET_CLOSE} shows conflicts`);
    expect(store.search('previ', 5).find((h) => h.nodeId === 's-2')?.snippet).toBe(`merged ${SNIPPET_OPEN}previews${SNIPPET_CLOSE}`);
  });

  it('never throws on odd input (a fuzz of FTS5 syntax and punctuation)', () => {
    const random = new Random(7);
    const pieces = ['"', '*', '(', ')', 'AND', 'OR', 'NOT', 'NEAR(', ':', '-', '^', '+', "'", '\\', '{', '}', 'merge', 'prev', ' ', ' ', 'text:', 'facets:', '\ue002kuser', 'é', '日本', ''];
    for (let i = 0; i < 500; i++) {
      let query = '';
      for (let n = random.int(1, 8); n > 0; n--) query += random.pick(pieces);
      expect(() => store.search(query, 10), query).not.toThrow();
      expect(() => store.countSearch(query, 10), query).not.toThrow();
    }
    // Facet tokens cannot be searched for as text, nor can a column filter be typed.
    expect(ids('\ue002kassistant')).toEqual([]);
    expect(ids('facets:kassistant')).toEqual([]);
  });
});

describe('filters', () => {
  beforeEach(() => {
    session('a', '2025-01-01T00:00:00Z', ['release notes', 'release build', 'release subagent'], (i) => ({
      kind: i === 0 ? 'user' : 'assistant',
      cwd: '/work/alpha',
      ...(i === 2 ? { sidechain: true, agentId: 'agent7' } : {}),
    }));
    session('b', '2025-03-01T00:00:00Z', ['release plan', 'release done'], (i) => ({ kind: i === 0 ? 'user' : 'tool_result', cwd: '/work/beta' }));
    indexAll();
  });

  it('narrows by kind, session, project, agent and date, all together', () => {
    expect(ids('release', 50, 0, { kinds: ['user'] }).sort()).toEqual(['a-0', 'b-0']);
    expect(ids('release', 50, 0, { kinds: ['user', 'tool_result'] }).sort()).toEqual(['a-0', 'b-0', 'b-1']);
    expect(ids('release', 50, 0, { sessionIds: ['b'] }).sort()).toEqual(['b-0', 'b-1']);
    expect(ids('release', 50, 0, { projects: ['/work/alpha'] }).sort()).toEqual(['a-0', 'a-1', 'a-2']);
    expect(ids('release', 50, 0, { agent: 'subagent' })).toEqual(['a-2']);
    expect(ids('release', 50, 0, { agent: 'agent7' })).toEqual(['a-2']);
    expect(ids('release', 50, 0, { agent: 'main' }).sort()).toEqual(['a-0', 'a-1', 'b-0', 'b-1']);
    expect(ids('release', 50, 0, { from: '2025-02-01' }).sort()).toEqual(['b-0', 'b-1']);
    expect(ids('release', 50, 0, { to: '2025-01-01T00:01:00Z' })).toEqual(['a-0']);
    expect(ids('release', 50, 0, { projects: ['/work/alpha'], kinds: ['assistant'], agent: 'main' })).toEqual(['a-1']);
    expect(ids('release', 50, 0, { projects: ['/work/nowhere'] })).toEqual([]);
    expect(store.countSearch('release', 100, { kinds: ['user'] })).toEqual({ total: 2, capped: false });
  });

  it('lists the newest nodes passing the filters when no text is typed', () => {
    expect(ids('', 50, 0, { kinds: ['user'] })).toEqual(['b-0', 'a-0']);
    expect(ids('', 50, 0)).toEqual([]);
  });
});

describe('index progress', () => {
  it('says how much is indexed while searching answers from that part', () => {
    session('s', '2025-01-01T00:00:00Z', Array.from({ length: 10 }, (_, i) => `halfway ${i}`));
    expect(store.indexProgress()).toEqual({ indexed: 0, total: 10 });
    store.indexNextChunk(5);
    expect(store.indexProgress()).toEqual({ indexed: 5, total: 10 });
    expect(ids('halfway').sort()).toEqual(['s-0', 's-1', 's-2', 's-3', 's-4']);
    indexAll();
    expect(store.indexProgress()).toEqual({ indexed: 10, total: 10 });
  });
});

describe('a last word longer than the prefix index', () => {
  it('finds the same nodes through its indexed prefix as the exact prefix query would', () => {
    const texts = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? `sessions ${i}` : i % 3 === 1 ? `sesame ${i}` : `session_id ${i}`));
    session('s', '2025-01-01T00:00:00Z', texts);
    indexAll();
    const broad = store.searchPage('sessi', { limit: 200, offset: 0, cap: 1000 });
    const expected = texts.map((text, i) => (text.startsWith('sessi') ? `s-${i}` : null)).filter((id) => id !== null);
    expect(broad.hits.map((hit) => hit.nodeId).sort()).toEqual([...expected].sort());
    expect(broad).toMatchObject({ total: expected.length, capped: false });
    expect(broad.hits.every((hit) => hit.snippet.includes(`${SNIPPET_OPEN}sessi`))).toBe(true);
  });
});

describe('search totals', () => {
  it('counts a query with fewer matches than candidates from the candidates themselves, exactly', () => {
    session('s', '2025-01-01T00:00:00Z', ['the cursor handling code', 'cursor and handling apart', 'more cursor handling', 'nothing here']);
    indexAll();
    expect(store.searchPage('"cursor handling"', { limit: 1, offset: 0, cap: 1000 })).toMatchObject({ total: 2, capped: false });
    expect(store.searchPage('"cursor handling"', { limit: 1, offset: 0, cap: 1 })).toMatchObject({ total: 1, capped: true });
    expect(store.searchPage('cursor', { limit: 1, offset: 0, cap: 1000 })).toMatchObject({ total: 3, capped: false });
  });

  it('regression: a common phrase says "at least" its candidates instead of checking word positions in every row (20–60 ms on 1M messages)', () => {
    const texts = Array.from({ length: SEARCH_CANDIDATES + 40 }, (_, i) => (i % 7 === 0 ? `session ${i} is it` : `the session is open ${i}`));
    session('s', '2025-01-01T00:00:00Z', texts);
    indexAll();
    const phrase = store.searchPage('"session is"', { limit: 50, offset: 0, cap: 1000 });
    expect(phrase.hits).toHaveLength(50);
    expect(phrase.hits.every((hit) => hit.snippet.includes(`${SNIPPET_OPEN}session is${SNIPPET_CLOSE}`))).toBe(true);
    expect(phrase).toMatchObject({ total: SEARCH_CANDIDATES, capped: true });
    // Words are still counted (cheap): every row has both.
    expect(store.searchPage('session is', { limit: 1, offset: 0, cap: 1000 })).toMatchObject({ total: texts.length, capped: false });
  });

  it('regression: a filtered query with a full candidate set says "at least" them instead of walking the whole doclist to meet the filter (24 ms for prompts in a project on 1M messages)', () => {
    const texts = Array.from({ length: SEARCH_CANDIDATES + 40 }, (_, i) => `cursor moved ${i}`);
    session('s', '2025-01-01T00:00:00Z', texts, (i) => ({ kind: i % 2 === 0 ? 'user' : 'assistant' }));
    indexAll();
    const filtered = store.searchPage('cu', { limit: 50, offset: 0, cap: 1000, filters: { kinds: ['user', 'assistant'] } });
    expect(filtered.hits).toHaveLength(50);
    expect(filtered).toMatchObject({ total: SEARCH_CANDIDATES, capped: true });
    // Fewer matches than candidates: still exact, from the candidates themselves.
    expect(store.searchPage('cu', { limit: 50, offset: 0, cap: 1000, filters: { kinds: ['user'] } })).toMatchObject({ total: texts.length / 2, capped: false });
    // A date range narrows the rowids, not the doclist walk: still counted.
    expect(store.searchPage('cu', { limit: 1, offset: 0, cap: 1000, filters: { from: '2024-12-31' } })).toMatchObject({ total: texts.length, capped: false });
  });
});

describe('search over heads of texts', () => {
  const filler = 'lorem '.repeat(100);
  it('finds a word that lies past the stored head of every text through FTS5 itself', () => {
    session('s', '2025-01-01T00:00:00Z', Array.from({ length: 40 }, (_, i) => `${filler} sessionizer ${i}`));
    indexAll();
    const page = store.searchPage('sessioni', { limit: 50, offset: 0, cap: 1000 });
    expect(page).toMatchObject({ total: 40, capped: false });
    expect(page.hits[0]?.snippet).toContain(`${SNIPPET_OPEN}sessionizer${SNIPPET_CLOSE}`);
  });

  it('answers a page from the heads that hold the word, as "at least", when other texts hold it past their heads', () => {
    session('s', '2025-01-01T00:00:00Z', Array.from({ length: 160 }, (_, i) => (i % 2 === 0 ? `sessionizer first ${i}` : `${filler} sessionizer ${i}`)));
    indexAll();
    const page = store.searchPage('sessioni', { limit: 50, offset: 0, cap: 1000 });
    expect(page.hits).toHaveLength(50);
    expect(page.capped).toBe(true);
    expect(page.total).toBeGreaterThanOrEqual(50);
  });
});
