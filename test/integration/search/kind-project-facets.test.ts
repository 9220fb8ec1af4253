/**
 * Migration 039's kind×project token (search-query.ts): a kind filter with a project filter is matched as one
 * group of pairs once every indexed row has them, and as two groups until the background rewrite of a store
 * indexed before 039 is done (search-facet-rewrite.ts). Answers must be the same rows in the same order either
 * way, for every combination of filters, and right at every point of an unfinished (or crashed) rewrite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { FACET_REWRITE_KEYS, prepareSearchQueries } from '../../../electron/db/search';
import { FEW_ROW_KINDS, facetTokens, searchRowid } from '../../../electron/db/search-query';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import type { NodeKind, SearchFilters } from '../../../shared/model';
import { Random } from '../../../shared/random';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-kind-project-'));
  path = join(dir, 'arbor.sqlite');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const KINDS: readonly NodeKind[] = ['user', 'assistant', 'tool_call', 'tool_result', 'error', 'system'];
const PROJECTS = ['/work/alpha', '/work/beta', '/work/alpha-beta', null] as const;
const WORDS = ['release', 'review', 'parser', 'cursor', 'buffer', 'deploy'];

interface FixtureNode {
  readonly id: string;
  readonly session: string;
  readonly kind: NodeKind;
  readonly project: string | null;
  readonly text: string;
  readonly subagent: boolean;
  readonly time: number;
}

/** Eight sessions over four projects (one unknown), their nodes' times interleaved; returns every node. */
function fill(store: SessionStore): FixtureNode[] {
  const random = new Random(39);
  const all: FixtureNode[] = [];
  for (let s = 0; s < 8; s++) {
    const session = `s${s}`;
    const project = PROJECTS[s % PROJECTS.length] ?? null;
    const nodes: ParsedNode[] = [];
    for (let i = 0; i < 60; i++) {
      const kind = KINDS[random.int(0, KINDS.length - 1)] ?? 'user';
      const text = `${WORDS[random.int(0, WORDS.length - 1)]} ${WORDS[random.int(0, WORDS.length - 1)]} step ${i}`;
      const subagent = random.chance(0.2);
      // Sessions overlap in time, so a page mixes them.
      const time = Date.parse('2025-01-01T00:00:00Z') + (i * 8 + s) * 60_000 + random.int(0, 30) * 1000;
      all.push({ id: `${session}-${i}`, session, kind, project, text, subagent, time });
      nodes.push(
        parsedNode(`${session}-${i}`, i === 0 ? null : `${session}-${i - 1}`, {
          sessionSourceId: session,
          kind,
          text,
          cwd: project,
          timestamp: new Date(time).toISOString(),
          ...(subagent ? { sidechain: true, agentId: 'agent7' } : {}),
        }),
      );
    }
    const writer = store.beginFile(transcriptFile(`/t/${session}.jsonl`, { sessionHint: session }));
    for (const node of inOrder(nodes)) writer.node(node);
    writer.finish({ endOffset: 100, endLine: nodes.length + 1 });
    store.linkChangedSessions();
  }
  while (store.indexNextChunk(100) > 0);
  return all;
}

const filterSets: readonly (SearchFilters & { readonly query: string })[] = [
  { query: 'release', kinds: ['user'], projects: ['/work/alpha'] },
  { query: 'rev', kinds: ['user', 'error'], projects: ['/work/alpha', '/work/beta'] },
  { query: 'parser', kinds: ['assistant'], projects: ['/work/alpha-beta'] },
  { query: '', kinds: ['tool_call', 'tool_result'], projects: ['/work/beta'] },
  { query: 'c', kinds: ['system'], projects: ['/work/alpha'], agent: 'main' },
  { query: 'buffer', kinds: ['user', 'assistant'], projects: ['/work/alpha'], agent: 'subagent' },
  { query: 'deploy', kinds: ['error'], projects: ['/work/beta'], sessionIds: ['s1', 's2'] },
  { query: 'step', kinds: ['user'], projects: ['/work/alpha'], from: '2025-01-01T02:00:00Z', to: '2025-01-01T05:00:00Z' },
  { query: 'step', kinds: [...KINDS], projects: ['/work/alpha', '/work/beta', '/work/alpha-beta'] },
  { query: 'release', kinds: ['user'], projects: ['/work/nowhere'] },
  // Not pairs: a kind alone, a project alone.
  { query: 'release', kinds: ['user'] },
  { query: 'release', projects: ['/work/beta'] },
];

/** Every search as the service asks it (a page and its bounded total), by filter set. */
function answers(store: SessionStore): unknown[] {
  return filterSets.map(({ query, ...filters }) => {
    const page = store.searchPage(query, { limit: 50, offset: 0, cap: 1000, filters });
    const later = store.searchPage(query, { limit: 20, offset: 100, cap: 1000, filters });
    return { ids: page.hits.map((hit) => hit.nodeId), total: page.total, capped: page.capped, later: later.hits.map((hit) => hit.nodeId) };
  });
}

/** The nodes a filter set must find, whatever their order (the fixture's own truth, not the index's). */
function expected(all: readonly FixtureNode[], set: SearchFilters & { readonly query: string }): string[] {
  const word = set.query.toLowerCase();
  return all
    .filter((node) => word === '' || node.text.split(' ').some((w) => w.startsWith(word)))
    .filter((node) => set.kinds === undefined || set.kinds.includes(node.kind))
    .filter((node) => set.projects === undefined || (node.project !== null && set.projects.includes(node.project)))
    .filter((node) => set.sessionIds === undefined || set.sessionIds.includes(node.session))
    .filter((node) => set.agent === undefined || (set.agent === 'main' ? !node.subagent : node.subagent))
    .filter((node) => set.from === undefined || node.time >= Date.parse(set.from))
    .filter((node) => set.to === undefined || node.time < Date.parse(set.to))
    .map((node) => node.id)
    .sort();
}

const pairsUsed = (store: SessionStore, kinds: readonly NodeKind[] = ['user', 'error']): boolean => prepareSearchQueries(store.handles.read, () => '').pairsFor(kinds);

/** Makes the store what the version before 039 left: facets without the pairs, and no rewrite recorded. */
function asBefore039(all: readonly FixtureNode[]): void {
  const db = new Database(path) as WritableDB;
  try {
    const rows = db
      .prepare('SELECT n.seq, n.id, n.timestamp, n.kind, n.session_id, s.project, n.agent_id, n.sidechain, n.text FROM nodes n JOIN sessions s ON s.id = n.session_id')
      .all() as { seq: number; id: string; timestamp: string; kind: string; session_id: string; project: string | null; agent_id: string | null; sidechain: number; text: string }[];
    expect(rows).toHaveLength(all.length);
    db.transaction(() => {
      for (const row of rows) {
        const rowid = searchRowid(row.timestamp, row.seq);
        const facets = facetTokens({ kind: row.kind, sessionId: row.session_id, project: row.project, agentId: row.agent_id, sidechain: row.sidechain !== 0 })
          .split(' ')
          .filter((token) => !token.startsWith('\ue002c'))
          .join(' ');
        db.prepare('DELETE FROM node_text WHERE rowid = ?').run(rowid);
        db.prepare('INSERT INTO node_text (rowid, text, facets, head, length) VALUES (?, ?, ?, ?, ?)').run(rowid, row.text, facets, row.text, row.text.length);
      }
      db.prepare('DELETE FROM meta WHERE key IN (?, ?)').run(FACET_REWRITE_KEYS.until, FACET_REWRITE_KEYS.done);
    })();
  } finally {
    db.close();
  }
}

/** Rows holding one kind×project pair's token, asked of the index directly. */
function pairRows(store: SessionStore, kind: string, project: string): number {
  const token = facetTokens({ kind, sessionId: 'x', project, agentId: null, sidechain: false }).split(' ')[3] ?? '';
  return (store.handles.read.prepare('SELECT count(*) AS n FROM node_text WHERE node_text MATCH ?').get(`facets : "${token}"`) as { n: number }).n;
}

it('a store indexed since 039 matches kinds within projects as pairs at once, finding what the filters say', () => {
  const store = openSessionStore(path);
  try {
    const all = fill(store);
    expect(store.pendingFacetRewriteRows()).toBe(0);
    expect(pairsUsed(store, KINDS)).toBe(true);
    for (const set of filterSets) {
      const { query, ...filters } = set;
      const found = store.searchPage(query, { limit: 1000, offset: 0, cap: 1000, filters }).hits.map((hit) => hit.nodeId);
      const truth = expected(all, set);
      // A common word's page is its newest candidates (search.ts): all of them passing the filters.
      if (truth.length < 100) expect(found.sort(), JSON.stringify(set)).toEqual(truth);
      else expect(found.length >= 50 && found.every((id) => truth.includes(id)), JSON.stringify(set)).toBe(true);
    }
    expect(pairRows(store, 'user', '/work/alpha')).toBe(all.filter((node) => node.kind === 'user' && node.project === '/work/alpha').length);
  } finally {
    store.close();
  }
});

it('migration 039 on a store made by the previous version: answers stay the same before, during (and after a crash in) the rewrite, and after it', () => {
  let store = openSessionStore(path);
  let all: FixtureNode[];
  let fresh: unknown[];
  try {
    all = fill(store);
    fresh = answers(store);
  } finally {
    store.close();
  }
  asBefore039(all);
  const few = all.filter((node) => FEW_ROW_KINDS.includes(node.kind));
  expect(few.length).toBeGreaterThan(100);

  store = openSessionStore(path);
  try {
    // The migration read nothing: every row of a few-row kind is left to rewrite; searches match kind and project apart.
    expect(store.pendingFacetRewriteRows()).toBe(few.length);
    expect(pairsUsed(store)).toBe(false);
    expect(pairRows(store, 'user', '/work/alpha')).toBe(0);
    expect(answers(store)).toEqual(fresh);
    expect(store.rewriteFacetsChunk(40)).toBe(40);
    expect(store.rewriteFacetsChunk(37)).toBe(37);
    expect(pairsUsed(store)).toBe(false);
    expect(answers(store)).toEqual(fresh);
  } finally {
    // A crash between slices: what was rewritten is kept with its watermark.
    store.close();
  }

  store = openSessionStore(path);
  try {
    expect(store.pendingFacetRewriteRows()).toBe(few.length - 77);
    expect(answers(store)).toEqual(fresh);
    let slices = 0;
    while (store.rewriteFacetsChunk(16) > 0) slices++;
    expect(slices).toBe(Math.ceil((few.length - 77) / 16));
    expect(store.pendingFacetRewriteRows()).toBe(0);
    expect(pairsUsed(store)).toBe(true);
    // Only the few-row kinds were indexed again: the others keep matching kind and project apart.
    expect(pairsUsed(store, ['user', 'assistant'])).toBe(false);
    for (const kind of KINDS) {
      for (const project of ['/work/alpha', '/work/beta', '/work/alpha-beta']) {
        const rows = all.filter((node) => node.kind === kind && node.project === project).length;
        expect(pairRows(store, kind, project)).toBe(FEW_ROW_KINDS.includes(kind) ? rows : 0);
      }
    }
    expect(answers(store)).toEqual(fresh);
    // Each row is in the index once: the rewrite replaced rows, it did not add them.
    expect(store.countSearch('step', 10_000)).toEqual({ total: all.length, capped: false });
  } finally {
    store.close();
  }
});
