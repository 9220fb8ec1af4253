/**
 * Full-text search over node text (FTS5), and the chunked indexer that fills it. The index's rowids order by
 * time (migration 010), so a search reads the newest matches first and ranks only a bounded set of them
 * (search-rank.ts): a one-letter prefix over a million nodes costs about what a rare word costs.
 * The index keeps no copy of the text (migration 013): ranking reads the head of each candidate's text and its
 * length, stored beside the index; the rare snippet whose match lies past the head reads the node's raw line.
 */
import { type NodeKind, type SearchFilters, type SearchHit, type SearchIndexProgress, SNIPPET_CLOSE, SNIPPET_OPEN } from '../../shared/model';
import type { ReadableDB, WritableDB } from './database';
import { FTS_AUTOMERGE, FTS_CRISISMERGE } from './migrations/025-search-merge';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';
import { broadenLastWord, buildFtsSearch, facetTokens, FEW_ROW_KINDS, type FtsSearch, parseSearchText, type ResolvedFilters, searchRowid, SEQ_MASK, unixSeconds } from './search-query';
import { buildSnippet, scoreText, type SearchPattern, toPattern, wordStartTest } from './search-rank';

/**
 * The newest matches ranked per query. A rare word has fewer matches than this, so all of them are ranked;
 * a common word or a short prefix is ranked among its newest CANDIDATES, then continues newest first.
 */
export const SEARCH_CANDIDATES = 100;
/** Characters of a node's text kept beside the index and read to rank it (its whole length still counts). */
export const RANK_HEAD = 384;

/**
 * Migration 039's background rewrite of the rows of FEW_ROW_KINDS indexed before it (search-facet-rewrite.ts):
 * `until` is the last seq indexed then, `done` moves with each slice. Rows above `until` have every facet.
 */
export const FACET_REWRITE_KEYS = { until: 'facet_rewrite_until', done: 'facet_rewrite_upto' } as const;
const FACETS_REWRITTEN_SQL = `SELECT (SELECT value FROM meta WHERE key = '${FACET_REWRITE_KEYS.done}') AS done, (SELECT value FROM meta WHERE key = '${FACET_REWRITE_KEYS.until}') AS until`;

/**
 * Which rows carry their kind×project token: all (nothing was indexed before 039), those of FEW_ROW_KINDS (the
 * rewrite is done), or not known to (the rewrite is under way, or a store without the keys: before 039).
 */
export type PairedRows = 'all' | 'few-row kinds' | 'not yet';

function pairedRows(row: { done: number | null; until: number | null } | undefined): PairedRows {
  if (row === undefined || row.done === null || row.until === null) return 'not yet';
  if (row.until === 0) return 'all';
  return row.done >= row.until ? 'few-row kinds' : 'not yet';
}

interface Bounds {
  readonly match: string;
  readonly min: bigint;
  readonly max: bigint;
}

interface CandidateRow {
  readonly rowid: bigint;
  readonly head: string;
  /** A bigint from SQLite (the statement reads rowids as bigints); small enough for a number. */
  readonly length: bigint | number;
}

export function prepareSearchQueries(db: ReadableDB, derive: DeriveSearchText) {
  const statements = {
    // ORDER BY rowid DESC is the index's own order (newest first): no sort, and it stops at the limit.
    candidates: db.prepare<[Bounds & { limit: number; offset: number }], CandidateRow>(
      `SELECT rowid, head, length FROM node_text
       WHERE node_text MATCH @match AND rowid BETWEEN @min AND @max ORDER BY rowid DESC LIMIT @limit OFFSET @offset`,
    ),
    // The whole text, for a snippet whose match lies past the head: as the indexer derived it.
    nodeText: db.prepare<[bigint], StoredRawColumns & { text: string | null; format: string }>(
      `SELECT ${rawColumns('n')}, n.text, f.format FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.seq = ?`,
    ),
    // Newest first, read lazily: a broadened query's candidates are checked one by one.
    scan: db.prepare<[Bounds], CandidateRow>(
      `SELECT rowid, head, length FROM node_text WHERE node_text MATCH @match AND rowid BETWEEN @min AND @max ORDER BY rowid DESC`,
    ),
    node: db.prepare<[bigint], NodeRow>(
      `SELECT n.session_id, s.title, n.id, n.kind, n.timestamp FROM nodes n JOIN sessions s ON s.id = n.session_id WHERE n.seq = ?`,
    ),
    // Counting stops past the cap: a one-letter query over a million nodes must still answer at once.
    count: db.prepare<[Bounds & { cap: number }], { total: number }>(
      `SELECT count(*) AS total FROM (
         SELECT 1 FROM node_text WHERE node_text MATCH @match AND rowid BETWEEN @min AND @max LIMIT @cap)`,
    ),
    facetsRewritten: db.prepare<[], { done: number | null; until: number | null }>(FACETS_REWRITTEN_SQL),
  };
  statements.candidates.safeIntegers(true);
  statements.scan.safeIntegers(true);
  const lines = prepareRawLineReader(db);
  const fullText = (rowid: bigint): string => {
    const row = statements.nodeText.get(rowid & SEQ_MASK);
    if (row === undefined) return '';
    return row.text ?? derive(lines.line(row), row.format);
  };
  // Once rows carry their kind×project token they always will (new rows are indexed with it): asked until then.
  let paired: PairedRows = 'not yet';
  const pairsFor = (kinds: readonly string[]): boolean => {
    if (paired === 'not yet') paired = pairedRows(statements.facetsRewritten.get());
    return paired === 'all' || (paired === 'few-row kinds' && kinds.every((kind) => FEW_ROW_KINDS.includes(kind as NodeKind)));
  };
  return { ...statements, fullText, pairsFor };
}
export type SearchQueries = ReturnType<typeof prepareSearchQueries>;

interface NodeRow {
  readonly session_id: string;
  readonly title: string;
  readonly id: string;
  readonly kind: string;
  readonly timestamp: string | null;
}

/** Filters as the index sees them: projects become their sessions, dates become seconds. */
function resolveFilters(q: SearchQueries, filters: SearchFilters): ResolvedFilters {
  const seconds = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : (unixSeconds(iso) ?? undefined));
  return {
    kinds: filters.kinds,
    sessionIds: filters.sessionIds,
    projects: filters.projects,
    agent: filters.agent,
    fromSeconds: seconds(filters.from),
    toSeconds: seconds(filters.to),
    // Read only when it could change the query.
    kindByProject: filters.kinds !== undefined && filters.projects !== undefined && q.pairsFor(filters.kinds),
  };
}

function toBounds(search: FtsSearch): Bounds {
  return { match: search.match, min: search.minRowid, max: search.maxRowid };
}

/**
 * The best of the newest SEARCH_CANDIDATES matches first, then older ones newest first. Pages are stable:
 * offset counts through that one order. Never throws on what the user typed: odd input just finds less.
 */
export function searchNodes(q: SearchQueries, input: string, limit: number, offset = 0, filters: SearchFilters = {}): SearchHit[] {
  const search = buildFtsSearch(input, resolveFilters(q, filters));
  if (search === null || limit <= 0) return [];
  const bounds = toBounds(search);
  const newest = offset < SEARCH_CANDIDATES ? q.candidates.all({ ...bounds, limit: SEARCH_CANDIDATES, offset: 0 }) : null;
  return pageOf(q, toPattern(parseSearchText(input)), bounds, newest, limit, offset);
}

/** One page from the newest candidates (read when the page starts among them), then older matches in order. */
function pageOf(q: SearchQueries, pattern: SearchPattern, bounds: Bounds, newest: readonly CandidateRow[] | null, limit: number, offset: number): SearchHit[] {
  if (limit <= 0) return [];
  const page: CandidateRow[] = [];
  if (newest !== null) {
    page.push(...rankCandidates(newest, pattern).slice(offset, offset + limit));
    if (newest.length < SEARCH_CANDIDATES) return hitsOf(q, pattern, page);
  }
  const from = Math.max(offset, SEARCH_CANDIDATES);
  const wanted = offset + limit - from;
  if (wanted > 0) page.push(...q.candidates.all({ ...bounds, limit: wanted, offset: from }));
  return hitsOf(q, pattern, page);
}

function hitsOf(q: SearchQueries, pattern: SearchPattern, rows: readonly CandidateRow[]): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const node = q.node.get(row.rowid & SEQ_MASK);
    if (node === undefined) continue;
    // The match may lie past the head that was read to rank it.
    const snippet =
      buildSnippet(row.head, pattern, SNIPPET_OPEN, SNIPPET_CLOSE) ??
      (Number(row.length) > row.head.length ? buildSnippet(q.fullText(row.rowid), pattern, SNIPPET_OPEN, SNIPPET_CLOSE) : null) ??
      row.head.slice(0, 200);
    hits.push({
      sessionId: node.session_id,
      sessionTitle: node.title,
      nodeId: node.id,
      kind: node.kind as NodeKind,
      timestamp: node.timestamp,
      snippet,
    });
  }
  return hits;
}

/**
 * Rows of a broadened query read at most to find the candidates (then the exact query answers). 3000 made a
 * word rare under its 3-letter prefix (flushStatus under "flu", before migration 043) cost 258 ms of CPU on a million messages;
 * 300 costs 48 ms there, with common words and prefixes unchanged (10–16 ms).
 */
const BROAD_SCAN_ROWS = 300;

export interface SearchPage {
  readonly hits: SearchHit[];
  readonly total: number;
  readonly capped: boolean;
}

/**
 * One page with its bounded total. A last word longer than the prefix index is looked up by its indexed
 * prefix and the newest candidates' heads are checked for the whole word (broadenLastWord): the total is then
 * exact when the scan saw every row whole, else "at least" the candidates found. Otherwise the total is the
 * candidates when there are fewer than SEARCH_CANDIDATES, "at least" them for a common phrase, else counted.
 */
export function searchPage(q: SearchQueries, input: string, options: { limit: number; offset: number; cap: number; filters?: SearchFilters }): SearchPage {
  const { limit, offset, cap, filters = {} } = options;
  const resolved = resolveFilters(q, filters);
  const terms = parseSearchText(input);
  const broad = offset < SEARCH_CANDIDATES ? broadenLastWord(terms) : null;
  const broadSearch = broad === null ? null : buildFtsSearch(broad.terms, resolved);
  if (broad !== null && broadSearch !== null) {
    const found: CandidateRow[] = [];
    const startsWord = wordStartTest(broad.word);
    let scanned = 0;
    let exhausted = true;
    for (const row of q.scan.iterate(toBounds(broadSearch))) {
      if (found.length >= SEARCH_CANDIDATES || scanned >= BROAD_SCAN_ROWS) {
        exhausted = false;
        break;
      }
      scanned++;
      if (startsWord(row.head)) found.push(row);
      // The word may lie past the head: this row is not known to miss it, so the scan cannot say "all seen".
      else if (Number(row.length) > row.head.length) exhausted = false;
    }
    // Found enough, or saw every row: answered. Found a page's worth, with rows left unsure because the word may
    // lie past their heads: answered too, as "at least" (FTS5's exact prefix query merges every term the word
    // starts: 270 ms for "session" over a million messages). Else the word is rare under its prefix: ask FTS5.
    if (exhausted || found.length >= Math.min(SEARCH_CANDIDATES, offset + limit)) {
      const pattern = toPattern(terms);
      const page = rankCandidates(found, pattern).slice(offset, offset + limit);
      const hits = hitsOf(q, pattern, page);
      return { hits, total: Math.min(found.length, cap), capped: !exhausted || found.length > cap };
    }
  }
  const search = buildFtsSearch(terms, resolved);
  if (search === null) return { hits: [], total: 0, capped: false };
  const bounds = toBounds(search);
  const newest = offset < SEARCH_CANDIDATES ? q.candidates.all({ ...bounds, limit: SEARCH_CANDIDATES, offset: 0 }) : null;
  const hits = pageOf(q, toPattern(terms), bounds, newest, limit, offset);
  // Fewer matches than candidates asked for: the candidates were all of them, no count needed.
  if (newest !== null && newest.length < SEARCH_CANDIDATES) return { hits, total: Math.min(newest.length, cap), capped: newest.length > cap };
  // A phrase's count checks word positions in every row holding its words ("session is": 20–60 ms for a bounded
  // count over a million messages), and a filter's count walks the text's whole doclist to meet the filter's
  // rows (prompts in one project, "cur": 24 ms for 691 matches; the newest 100 cost 6 ms): both say "at least"
  // the candidates they found instead.
  const costlyCount = terms.some((term) => isPhrase(term.text)) || narrowsByFacet(resolved);
  if (newest !== null && costlyCount && cap >= SEARCH_CANDIDATES) return { hits, total: SEARCH_CANDIDATES, capped: true };
  const total = q.count.get({ ...bounds, cap: cap + 1 })?.total ?? 0;
  return { hits, total: Math.min(total, cap), capped: total > cap };
}

/** A filter matched through the facets column (kind, session, project, agent), not the rowid's date range. */
const narrowsByFacet = (filters: ResolvedFilters): boolean =>
  filters.kinds !== undefined || filters.sessionIds !== undefined || filters.projects !== undefined || filters.agent !== undefined;

/** More than one word as the tokenizer sees them (a quoted phrase, or words joined by punctuation). */
const isPhrase = (text: string): boolean => (text.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).length > 1;

function rankCandidates(candidates: readonly CandidateRow[], pattern: SearchPattern): CandidateRow[] {
  const average = candidates.reduce((sum, row) => sum + Number(row.length), 0) / Math.max(1, candidates.length);
  const ranked = candidates.map((row, order) => ({ row, order, score: scoreText(row.head.slice(0, RANK_HEAD), Number(row.length), pattern, average) }));
  // Equal scores (filters only, identical texts): newest first, which is the candidates' order.
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map((entry) => entry.row);
}

/** How many nodes match, counted up to `cap` (more than that reads as `capped`). */
export function countSearchHits(q: SearchQueries, input: string, cap: number, filters: SearchFilters = {}): { total: number; capped: boolean } {
  const search = buildFtsSearch(input, resolveFilters(q, filters));
  if (search === null) return { total: 0, capped: false };
  const total = q.count.get({ ...toBounds(search), cap: cap + 1 })?.total ?? 0;
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}

export interface ChunkRow extends StoredRawColumns {
  readonly seq: number;
  readonly text: string | null;
  readonly project: string | null;
  readonly format: string;
  readonly kind: string;
  readonly session_id: string;
  readonly agent_id: string | null;
  readonly sidechain: number;
  readonly timestamp: string | null;
}

/** What the indexer reads of a node (FROM included): its text or raw line, and what its facets name. */
export const CHUNK_COLUMNS = `n.seq, ${rawColumns('n')}, n.text, f.format, n.kind, n.session_id, s.project, n.agent_id, n.sidechain, n.timestamp
       FROM nodes n JOIN files f ON f.id = n.file_id JOIN sessions s ON s.id = n.session_id`;

export function prepareIndexStatements(db: WritableDB) {
  return {
    watermark: db.prepare<[], { value: number }>(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`),
    chunk: db.prepare<[number, number], ChunkRow>(`SELECT ${CHUNK_COLUMNS} WHERE n.seq > ? ORDER BY n.seq LIMIT ?`),
    insert: db.prepare<[bigint, string, string, string, number]>('INSERT INTO node_text (rowid, text, facets, head, length) VALUES (?, ?, ?, ?, ?)'),
    setWatermark: db.prepare<[number]>(`UPDATE meta SET value = ? WHERE key = 'fts_indexed_upto'`),
    // Migration 025: the watermark when the index was last merged into one segment (no row = never).
    mergeState: db.prepare<[], { indexed: number; merged: number | null }>(
      `SELECT (SELECT value FROM meta WHERE key = 'fts_indexed_upto') AS indexed, (SELECT value FROM meta WHERE key = 'fts_merged_upto') AS merged`,
    ),
    // A negative page count: merge toward one segment whatever the levels hold, doing at most that much work.
    merge: db.prepare(`INSERT INTO node_text (node_text, rank) VALUES ('merge', -${MERGE_STEP_PAGES})`),
    totalChanges: db.prepare<[], { changes: number }>('SELECT total_changes() AS changes'),
    // Whether the rows stored so far make a merge due once indexed (indexMergeDue's test, on the newest seq).
    backlog: db.prepare<[], { newest: number; merged: number | null }>(
      `SELECT coalesce((SELECT max(seq) FROM nodes), 0) AS newest, (SELECT value FROM meta WHERE key = 'fts_merged_upto') AS merged`,
    ),
    automerge: db.prepare<[], { v: number }>(`SELECT v FROM node_text_config WHERE k = 'automerge'`),
    // Integers bound from JS would be REAL, which FTS5 rejects for these settings.
    setConfig: db.prepare<[string, bigint]>('INSERT INTO node_text (node_text, rank) VALUES (?, ?)'),
    setMerged: db.prepare<[number]>(`INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_merged_upto', ?)`),
    // From the watermark, not by counting the rows past it: the indexer asks before every run and each step of it,
    // and counting the 90k rows a 239 MB import left took 8-16 ms of the write worker an append then waited for
    // (issue 12). seq only grows, so a newest seq past the watermark means a row is pending (0 is exact); rows
    // deleted before they were indexed leave gaps, so the figure may count more than remain (a progress total).
    pending: db.prepare<[], { pending: number }>(
      `SELECT max(0, coalesce((SELECT max(seq) FROM nodes), 0) - coalesce((SELECT value FROM meta WHERE key = 'fts_indexed_upto'), 0)) AS pending`,
    ),
    lines: prepareRawLineReader(db),
    // seq only grows (AUTOINCREMENT), so the watermark over the newest seq is the share indexed, read in O(1) on
    // every search instead of counting a million rows. A deletion can take the newest nodes and leave the
    // watermark above max(seq) (new nodes still get seqs above it): everything left is indexed, so the share is
    // clamped here, where it is read, not by each reader.
    progress: db.prepare<[], { indexed: number; total: number }>(
      `SELECT min(coalesce((SELECT value FROM meta WHERE key = 'fts_indexed_upto'), 0), total) AS indexed, total
       FROM (SELECT coalesce((SELECT max(seq) FROM nodes), 0) AS total)`,
    ),
  };
}
export type IndexStatements = ReturnType<typeof prepareIndexStatements>;

/**
 * A node's search text from its stored raw line, for nodes whose parser deferred it (`nodes.text` null):
 * the import stays lean and the format's reader re-reads the line here, in the background.
 */
export type DeriveSearchText = (raw: Buffer, format: string) => string;

/** Raw bytes read per chunk at most (a chunk also stops at `rows` and at CHUNK_TEXT_CHARS): bounds its memory. */
const CHUNK_RAW_BYTES = 32 * 1024 * 1024;
/**
 * Characters of text indexed per chunk at most. Each chunk is one transaction, and FTS5 writes each one as a new
 * segment, which its automerge writes again once a level holds 16 of them (and the WAL doubles every write):
 * 1000-row chunks (about 0.7 MB of text) wrote 2.64× a 239 MB transcript to index it, 2 MB of text per chunk
 * 2.06× (31 segments: merged again), 4 MB 1.22× (16 segments), where one transaction for the whole index writes
 * about 2× the index (1.13× the transcript). FTS5 holds a chunk's postings in memory until it commits (migration
 * 037's `hashsize` lets it hold this much); a chunk of 4 MB of text took about 1.3 s of CPU.
 */
export const CHUNK_TEXT_CHARS = 4 * 1024 * 1024;

export interface IndexedRow {
  readonly rowid: bigint;
  readonly text: string;
  readonly row: ChunkRow;
}

/**
 * Indexes the next `rows` nodes (fewer when their raw lines or their text are large) in one transaction; returns
 * how many it consumed (0 = up to date). Stored text wins; null text is derived from raw; empty text is not indexed.
 */
export function indexNextChunk(db: WritableDB, s: IndexStatements, rows: number, derive?: DeriveSearchText): number {
  const chunk = startIndexChunk(db, s, rows, derive);
  try {
    return chunk.advance(Infinity) ?? 0;
  } finally {
    // Only reached open when a statement threw: nothing of the chunk is kept.
    chunk.interrupt();
  }
}

/**
 * One chunk of indexNextChunk done in slices of time, its transaction held open between them, so that the thread
 * running it can take a message meanwhile (issue 12: an append that arrived as a 4 MB chunk began waited ~1.3 s of
 * CPU for it). The chunk is still one transaction and so one FTS5 segment: slicing it writes nothing more.
 */
export interface IndexChunk {
  /** Works for about `budgetMs`; the rows consumed once the chunk has committed (0 = up to date), null while work remains. */
  advance(budgetMs: number): number | null;
  /**
   * Ends a chunk not yet committed by rolling it back (cheap: FTS5 holds its postings in memory until the commit, so
   * nothing was written), so that the connection can be written at once; returns the rows it had consumed so far.
   */
  interrupt(): number;
}

/** Rows read per statement while a chunk gathers its rows: small, so a slice can stop between them. */
const GATHER_ROWS = 64;

export function startIndexChunk(db: WritableDB, s: IndexStatements, rows: number, derive?: DeriveSearchText, now: () => number = () => performance.now()): IndexChunk {
  const wanted = Math.max(1, rows);
  const indexed: IndexedRow[] = [];
  let state: 'new' | 'gather' | 'insert' | 'ended' = 'new';
  let cursor = 0;
  let last: ChunkRow | undefined;
  let consumed = 0;
  let bytes = 0;
  let chars = 0;
  let inserted = 0;
  // Inside a transaction already (a caller's write group), the chunk is a savepoint in it.
  let nested = false;
  const begin = (): void => {
    nested = db.inTransaction;
    db.prepare(nested ? 'SAVEPOINT index_chunk' : 'BEGIN IMMEDIATE').run();
  };
  const commit = (): void => void db.prepare(nested ? 'RELEASE index_chunk' : 'COMMIT').run();
  const rollback = (): void => {
    if (!db.inTransaction) return; // a failed statement may have rolled it back already
    if (!nested) return void db.prepare('ROLLBACK').run();
    db.prepare('ROLLBACK TO index_chunk').run();
    db.prepare('RELEASE index_chunk').run();
  };

  /** Reads and derives the chunk's rows in seq order until one of its bounds; true once it has them all. */
  function gather(deadline: number): boolean {
    for (;;) {
      const asked = Math.min(GATHER_ROWS, wanted - consumed);
      // Read before their text is worked out: the connection cannot run a statement while another iterates.
      const batch = s.chunk.all(cursor, asked);
      for (const row of batch) {
        const text = row.text ?? (derive === undefined ? '' : derive(s.lines.line(row), row.format));
        if (text.length > 0) indexed.push({ rowid: searchRowid(row.timestamp, row.seq), text, row });
        last = row;
        cursor = row.seq;
        consumed++;
        chars += text.length;
        bytes += row.raw_length ?? row.raw.length;
        if (chars >= CHUNK_TEXT_CHARS || bytes >= CHUNK_RAW_BYTES || consumed >= wanted) return true;
        if (now() >= deadline) return false;
      }
      if (batch.length < asked) return true;
    }
  }

  function insert(deadline: number): boolean {
    while (inserted < indexed.length) {
      insertIndexedRow(s.insert, indexed[inserted]!);
      inserted++;
      if (now() >= deadline) return false;
    }
    return true;
  }

  return {
    advance(budgetMs) {
      if (state === 'ended') throw new Error('this index chunk has ended');
      const deadline = now() + budgetMs;
      if (state === 'new') {
        begin();
        setMergePolicy(s);
        cursor = s.watermark.get()?.value ?? 0;
        state = 'gather';
      }
      if (state === 'gather') {
        if (!gather(deadline)) return null;
        if (last === undefined) {
          rollback();
          state = 'ended';
          return 0;
        }
        // In rowid order: FTS5 writes out what it holds whenever a rowid is lower than the one before (a chunk
        // spanning sessions, or lines whose times go back), which would make one segment per step back.
        indexed.sort((a, b) => (a.rowid < b.rowid ? -1 : a.rowid > b.rowid ? 1 : 0));
        state = 'insert';
        if (now() >= deadline) return null;
      }
      if (!insert(deadline)) return null;
      s.setWatermark.run(last!.seq);
      commit();
      state = 'ended';
      return consumed;
    },
    interrupt() {
      if (state === 'ended') return 0;
      const begun = state !== 'new';
      state = 'ended';
      if (begun) rollback();
      return consumed;
    },
  };
}

/** A chunk's rows with their text, in rowid order, and the last row consumed (the chunk's new watermark). */
export interface ChunkTexts {
  readonly indexed: IndexedRow[];
  readonly last: ChunkRow | undefined;
  readonly consumed: number;
  /** The rows consumed, text or not, in seq order. */
  readonly rows: readonly ChunkRow[];
}

/**
 * The rows of one chunk (fewer when their raw lines or their text are large) with their search text: stored
 * text wins, null text is derived from the raw line, empty text is not indexed. Sorted by rowid.
 */
export function readChunkTexts(rows: Iterable<ChunkRow>, lines: IndexStatements['lines'], derive?: DeriveSearchText): ChunkTexts {
  const chunk: ChunkRow[] = [];
  const indexed: IndexedRow[] = [];
  let last: ChunkRow | undefined;
  let consumed = 0;
  let bytes = 0;
  let chars = 0;
  // Collected first: the connection cannot run the inserts while the SELECT is still iterating.
  for (const row of rows) {
    chunk.push(row);
    bytes += row.raw_length ?? row.raw.length;
    if (bytes >= CHUNK_RAW_BYTES) break;
  }
  // Text is worked out once the SELECT is done (a block row's line is read with a statement of its own).
  for (const row of chunk) {
    const text = row.text ?? (derive === undefined ? '' : derive(lines.line(row), row.format));
    if (text.length > 0) indexed.push({ rowid: searchRowid(row.timestamp, row.seq), text, row });
    last = row;
    consumed++;
    chars += text.length;
    if (chars >= CHUNK_TEXT_CHARS) break;
  }
  // In rowid order: FTS5 writes out what it holds whenever a rowid is lower than the one before (a chunk
  // spanning sessions, or lines whose times go back), which would make one segment per step back.
  indexed.sort((a, b) => (a.rowid < b.rowid ? -1 : a.rowid > b.rowid ? 1 : 0));
  return { indexed, last, consumed, rows: chunk.slice(0, consumed) };
}

/** Writes a chunk's rows into the index with their facets as this version names them. */
export function insertIndexed(insert: IndexStatements['insert'], indexed: readonly IndexedRow[]): void {
  for (const item of indexed) insertIndexedRow(insert, item);
}

/** Writes one row into the index with its facets as this version names them. */
function insertIndexedRow(insert: IndexStatements['insert'], { rowid, text, row }: IndexedRow): void {
  const facets = facetTokens({ kind: row.kind, sessionId: row.session_id, project: row.project, agentId: row.agent_id, sidechain: row.sidechain !== 0 });
  insert.run(rowid, text, facets, textHead(text), text.length);
}

/** The first RANK_HEAD characters, not cutting a character in two (a lone surrogate is not text). */
export function textHead(text: string): string {
  if (text.length <= RANK_HEAD) return text;
  const code = text.charCodeAt(RANK_HEAD - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? RANK_HEAD - 1 : RANK_HEAD);
}

/**
 * One merge of FTS5's segments per this many pages (of about 4 KB) at most: a step is one short transaction,
 * so an import waiting for the write worker waits for one step, not for the whole merge (33 s at 1M messages).
 */
const MERGE_STEP_PAGES = 256;
/**
 * Fewer rows than this since the last merge are not worth merging for: a small index has few segments, and
 * the merge writes the whole index again (twice, with the WAL): a third of what indexing 30k messages wrote.
 */
const MERGE_FROM_ROWS = 100_000;

/**
 * Whether the index should be merged into one segment now: it has at least doubled since it last was (so
 * merging writes at most about twice the index over its life, whatever the imports), by MERGE_FROM_ROWS at least.
 * One segment instead of a dozen is what a search reads per term; until then automerge keeps levels few.
 */
export function indexMergeDue(s: IndexStatements): boolean {
  const state = s.mergeState.get();
  return state !== undefined && mergeDueAt(state.indexed, state.merged);
}

const mergeDueAt = (indexed: number, merged: number | null): boolean => merged !== null && indexed - merged >= MERGE_FROM_ROWS && indexed - merged >= merged;

/**
 * Segments of one level that force a merge inside the writing transaction while automerge is off (FTS5 takes at most
 * 1999): a 2.5 GB transcript makes about 160 chunks, and a crisis merge of 64 of them (about 450 MB of segments) in
 * one chunk's commit would hold the write worker for tens of seconds. Searches meanwhile read each segment's terms.
 */
export const BULK_CRISISMERGE = 1000;

/**
 * FTS5's merge settings for the chunk about to be written. While the rows stored make a merge due once they are
 * indexed (indexMergeDue), automerge is off: that merge rewrites every segment into one anyway, and automerge had
 * already written each row again at each level it passed (issue 12: indexing a 1 GB transcript wrote 3.2× its
 * input, its segments 2.7× the index). Otherwise (appends, small imports) FTS5 keeps merging 16 a level (migration
 * 025). Stored in the index's config, so a run stopped mid-way leaves it for the next run to set again.
 */
function setMergePolicy(s: IndexStatements): void {
  const backlog = s.backlog.get();
  const bulk = backlog !== undefined && mergeDueAt(backlog.newest, backlog.merged);
  const automerge = bulk ? 0 : FTS_AUTOMERGE;
  if (s.automerge.get()?.v === automerge) return;
  s.setConfig.run('automerge', BigInt(automerge));
  s.setConfig.run('crisismerge', BigInt(bulk ? BULK_CRISISMERGE : FTS_CRISISMERGE));
}

/**
 * Merges up to MERGE_STEP_PAGES of the index toward one segment, once indexing is up to date; returns 1 while
 * work remains, 0 once merged (or not due). Interrupted by an import, it goes on where FTS5 left it.
 */
export function mergeIndexStep(db: WritableDB, s: IndexStatements): number {
  return db.transaction(() => {
    if (!indexMergeDue(s)) return 0;
    const before = s.totalChanges.get()?.changes ?? 0;
    s.merge.run();
    // FTS5 counts a change per page it wrote: fewer than 2 means there was nothing left to merge.
    if ((s.totalChanges.get()?.changes ?? 0) - before >= 2) return 1;
    s.setMerged.run(s.mergeState.get()?.indexed ?? 0);
    return 0;
  })();
}

/**
 * FTS5 pages (of about 4 KB) a merge transaction writes before it commits. Each 'merge' step trims what it consumed
 * from every input segment, rewriting their first leaves and the 64 KiB pages around them: one step per transaction
 * (MERGE_STEP_PAGES) wrote those pages again at every step, several times the merge's own output (issue 12: a 1 GB
 * transcript's indexing wrote 4.8× its input). Many steps in one transaction write them once per commit: about
 * 10 MB a commit for the 64 segments of a 1 GB transcript indexed without automerge (its merge wrote 1663 MB to the
 * WAL at 2048 pages a commit, 832 MB at 8192, 528 MB at 65536, 479 MB in one transaction). A commit of 65536 pages
 * keeps the WAL near 256 MB plus the fold bound; the merge is sliced, so its length does not hold up a write.
 */
export const MERGE_COMMIT_PAGES = 65536;

/**
 * mergeIndexStep's work done in slices of time, many steps in one transaction held open between the slices (see
 * MERGE_COMMIT_PAGES). `advance` commits once the transaction has written MERGE_COMMIT_PAGES, returning 1 while work
 * remains, 0 once merged (or not due); `interrupt` commits what is done (every step leaves a whole index), so that
 * the connection can be written at once.
 */
export function startIndexMerge(db: WritableDB, s: IndexStatements, now: () => number = () => performance.now()): IndexChunk {
  let state: 'new' | 'open' | 'ended' = 'new';
  let written = 0;
  const end = (): void => {
    state = 'ended';
    if (db.inTransaction) db.prepare('COMMIT').run();
  };
  return {
    advance(budgetMs) {
      if (state === 'ended') throw new Error('this index merge has ended');
      const deadline = now() + budgetMs;
      if (state === 'new') {
        if (!indexMergeDue(s)) {
          state = 'ended';
          return 0;
        }
        db.prepare('BEGIN IMMEDIATE').run();
        state = 'open';
      }
      for (;;) {
        const before = s.totalChanges.get()?.changes ?? 0;
        s.merge.run();
        const changes = (s.totalChanges.get()?.changes ?? 0) - before;
        // FTS5 counts a change per page it wrote: fewer than 2 means there was nothing left to merge.
        if (changes < 2) {
          s.setMerged.run(s.mergeState.get()?.indexed ?? 0);
          end();
          return 0;
        }
        written += changes;
        if (written >= MERGE_COMMIT_PAGES) {
          end();
          return 1;
        }
        if (now() >= deadline) return null;
      }
    },
    interrupt() {
      if (state !== 'open') return 0;
      end();
      return 1;
    },
  };
}

/** Nodes not yet indexed: exactly 0 when none is, else the seqs past the watermark (see `pending`). */
export function pendingIndexRows(s: IndexStatements): number {
  return s.pending.get()?.pending ?? 0;
}

/** Nodes indexed so far out of all stored (by seq: approximate when an import's batch was rolled back). */
export function indexProgress(s: IndexStatements): SearchIndexProgress {
  return s.progress.get() ?? { indexed: 0, total: 0 };
}
