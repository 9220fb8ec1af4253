/**
 * Turns what a person typed, and the filters they chose, into a safe FTS5 query. Every word and phrase is
 * quoted (so `"`, `*`, `AND`, `NEAR(`, `-`, `col:` are plain text); words outside quotes must all occur,
 * anywhere; text in double quotes must occur as a phrase; the last word (or an unclosed phrase) is
 * prefix-matched for search-as-you-type.
 */
import { createHash } from 'node:crypto';
import type { NodeKind } from '../../shared/model';

/** Words and phrases kept per query: a pasted paragraph should not become a thousand-term query. */
const MAX_TERMS = 32;
/** Sessions (or projects) one filter may name. */
export const MAX_FILTER_SESSIONS = 1000;
/** The low bits of a full-text rowid hold the node's seq; the high bits its time (migration 010). */
const SEQ_BITS = 31n;
export const SEQ_MASK = (1n << SEQ_BITS) - 1n;
const MAX_SECONDS = 2 ** 32 - 1;
/**
 * Facet tokens start with a private-use character: the tokenizer keeps it as part of the token, so they can
 * never equal, nor share a prefix index entry with, a word of the text.
 */
const FACET = '\ue002';

/** A term that can match something: it has a letter or a digit (anything else indexes to nothing). */
const matchable = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);
const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** A word or a quoted phrase as typed; `prefix` when its last word may still grow. */
export interface SearchTerm {
  readonly text: string;
  readonly prefix: boolean;
}

/** The words and phrases of what was typed, in order; those that cannot match are dropped. */
export function parseSearchText(input: string): SearchTerm[] {
  const terms: { text: string; prefix: boolean }[] = [];
  let rest = input;
  while (rest.length > 0 && terms.length < MAX_TERMS) {
    const open = rest.indexOf('"');
    const words = open === -1 ? rest : rest.slice(0, open);
    for (const word of words.split(/\s+/u)) {
      if (matchable(word)) terms.push({ text: word, prefix: false });
    }
    if (open === -1) break;
    const close = rest.indexOf('"', open + 1);
    const phrase = rest.slice(open + 1, close === -1 ? undefined : close).trim();
    // A closed phrase is exact; one still being typed matches its last word as a prefix.
    if (matchable(phrase)) terms.push({ text: phrase, prefix: close === -1 });
    rest = close === -1 ? '' : rest.slice(close + 1);
  }
  const kept = terms.slice(0, MAX_TERMS);
  const last = kept.at(-1);
  // Only the last term grows as the user types; earlier words are whole. A closed phrase stays exact.
  if (last !== undefined && !input.trimEnd().endsWith('"')) last.prefix = true;
  return kept;
}

/** The text part of the query (`text` column only), or null when nothing in it can match. */
export function toFtsQuery(input: string | readonly SearchTerm[]): string | null {
  const terms = typeof input === 'string' ? parseSearchText(input) : input;
  if (terms.length === 0) return null;
  return terms.map((term) => quote(term.text) + (term.prefix ? '*' : '')).join(' ');
}

/** The longest prefix the index keeps (migration 043; 3 from 010): a longer one makes FTS5 merge every term it starts. */
const INDEXED_PREFIX = 2;

/**
 * For a last word of more letters than the prefix index holds, still being typed: the same terms with that
 * word cut to an indexed prefix (answered at once), and the folded word that candidates must then contain.
 * A word like "session" starts thousands of terms in a big store (session, sessions, sessionId…), and FTS5
 * merges all their doclists before the first row: ~70 ms over a million nodes.
 */
export function broadenLastWord(terms: readonly SearchTerm[]): { terms: SearchTerm[]; word: string } | null {
  const last = terms.at(-1);
  if (last === undefined || !last.prefix) return null;
  const tokens = last.text.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
  const token = tokens[0];
  if (tokens.length !== 1 || token === undefined) return null;
  const letters = [...token];
  if (letters.length <= INDEXED_PREFIX) return null;
  return { terms: [...terms.slice(0, -1), { text: letters.slice(0, INDEXED_PREFIX).join(''), prefix: true }], word: token };
}

export interface FacetSource {
  readonly kind: string;
  readonly sessionId: string;
  /** The session's project (its folder) when known as the node is indexed. */
  readonly project: string | null;
  readonly agentId: string | null;
  readonly sidechain: boolean;
}

const facetId = (id: string): string => id.toLowerCase().replace(/[^a-z0-9]/g, '');
const kindFacet = (kind: string): string => `${FACET}k${facetId(kind)}`;
const sessionFacet = (sessionId: string): string => `${FACET}s${facetId(sessionId)}`;
// A folder's letters alone would make /a/b-c and /ab/c one project: a hash of the whole path cannot.
const projectFacet = (project: string): string => `${FACET}p${createHash('sha256').update(project).digest('hex').slice(0, 20)}`;
/**
 * A kind within a project, one token (migration 039): "prompts in this project" matched the kind's token and the
 * project's, and FTS5 walked the project's doclist (on ~42% of rows in the bench) to meet the kind's scattered
 * rows: 9–10 ms over a million messages. The pair's own doclist holds only the rows that match both. The hash has
 * a fixed length, so the kind after it cannot run into it.
 */
const kindProjectFacet = (kind: string, project: string): string =>
  `${FACET}c${createHash('sha256').update(project).digest('hex').slice(0, 20)}${facetId(kind)}`;
/** Kind×project pairs one query may name; beyond that the two groups are matched apart, as before 039. */
export const MAX_KIND_PROJECT_PAIRS = 64;
/**
 * The kinds whose rows a store indexed before 039 gets pairs for (search-facet-rewrite.ts): a few in a hundred
 * rows each (prompts 2.8%, errors 0.7%, system lines 1.4% in the bench), scattered over time, so FTS5 walks far
 * to meet them with a project. Pairs for them are ~5% of a store's rows to index again (all rows took 0.4–1.3
 * cpu-ms each, hours for a big store). The other kinds fill a page within the newest rows either way.
 */
export const FEW_ROW_KINDS: readonly NodeKind[] = ['user', 'error', 'system', 'compaction', 'merge-summary'];
const agentFacet = (agent: string): string =>
  agent === 'main' ? `${FACET}xmain` : agent === 'subagent' ? `${FACET}xsub` : `${FACET}x${facetId(agent)}`;

/** The facets column of a node: what the filters match, as tokens. */
export function facetTokens(node: FacetSource): string {
  const tokens = [kindFacet(node.kind), sessionFacet(node.sessionId)];
  if (node.project !== null) tokens.push(projectFacet(node.project), kindProjectFacet(node.kind, node.project));
  if (node.sidechain || node.agentId !== null) {
    tokens.push(agentFacet('subagent'));
    if (node.agentId !== null) tokens.push(agentFacet(node.agentId));
  } else {
    tokens.push(agentFacet('main'));
  }
  return tokens.join(' ');
}

/** Unix seconds of an ISO time, clamped to what the rowid holds; null when it is not a time. */
export function unixSeconds(iso: string): number | null {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_SECONDS, Math.max(0, Math.floor(ms / 1000)));
}

/** A node's full-text rowid: newer nodes get larger ones; a node without a time sorts oldest. */
export function searchRowid(timestamp: string | null, seq: number): bigint {
  const seconds = timestamp === null ? 0 : (unixSeconds(timestamp) ?? 0);
  return (BigInt(seconds) << SEQ_BITS) | (BigInt(seq) & SEQ_MASK);
}

export interface ResolvedFilters {
  readonly kinds?: readonly NodeKind[];
  /** Sessions to search in; empty = nothing can match. */
  readonly sessionIds?: readonly string[];
  /** Projects to search in (the sessions' folders); empty = nothing can match. */
  readonly projects?: readonly string[];
  readonly agent?: string;
  readonly fromSeconds?: number;
  readonly toSeconds?: number;
  /**
   * Every indexed row of the filter's kinds carries its kind×project token (search-facet-rewrite.ts): a kind
   * filter with a project filter is matched as one group of pairs. Otherwise as two groups.
   */
  readonly kindByProject?: boolean;
}

export interface FtsSearch {
  readonly match: string;
  /** Inclusive rowid bounds (the date range). */
  readonly minRowid: bigint;
  readonly maxRowid: bigint;
}

const ALL_ROWIDS = { min: 0n, max: (1n << 63n) - 1n };

/**
 * The whole query: the text part AND one group per filter. Null when nothing can match (no matchable text
 * and no filter, an empty session list, an empty date range).
 */
export function buildFtsSearch(input: string | readonly SearchTerm[], filters: ResolvedFilters = {}): FtsSearch | null {
  const parts: string[] = [];
  const text = toFtsQuery(input);
  if (text !== null) parts.push(`text : ( ${text} )`);
  const anyOf = (tokens: readonly string[]): string => `facets : ( ${tokens.map(quote).join(' OR ')} )`;
  const kinds = filters.kinds;
  const projects = filters.projects?.slice(0, MAX_FILTER_SESSIONS);
  if (kinds?.length === 0 || projects?.length === 0) return null;
  const pairs = filters.kindByProject === true && kinds !== undefined && projects !== undefined && kinds.length * projects.length <= MAX_KIND_PROJECT_PAIRS;
  if (pairs) parts.push(anyOf(kinds.flatMap((kind) => projects.map((project) => kindProjectFacet(kind, project)))));
  else if (kinds !== undefined) parts.push(anyOf(kinds.map(kindFacet)));
  if (filters.sessionIds !== undefined) {
    if (filters.sessionIds.length === 0) return null;
    parts.push(anyOf(filters.sessionIds.slice(0, MAX_FILTER_SESSIONS).map(sessionFacet)));
  }
  if (!pairs && projects !== undefined) parts.push(anyOf(projects.map(projectFacet)));
  if (filters.agent !== undefined) parts.push(anyOf([agentFacet(filters.agent)]));
  if (parts.length === 0) return null;
  const minRowid = filters.fromSeconds === undefined ? ALL_ROWIDS.min : BigInt(filters.fromSeconds) << SEQ_BITS;
  const maxRowid = filters.toSeconds === undefined ? ALL_ROWIDS.max : (BigInt(filters.toSeconds) << SEQ_BITS) - 1n;
  if (maxRowid < minRowid) return null;
  return { match: parts.join(' AND '), minRowid, maxRowid };
}
