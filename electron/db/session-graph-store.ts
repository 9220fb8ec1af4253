/**
 * The stored graph of a session (migration 022): its transcript nodes in (file_id, line) order as segments of
 * SEGMENT_NODES encoded chunks (shared/session-graph-chunks.ts). The link run extends it after each batch
 * (only the segments the triggers dropped and the last, open one are encoded again); an open reads the
 * segments instead of the rows, and a store from before 022 gets its segments on the first open.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { throwIfAborted } from '../../shared/errors';
import { encodeSessionGraphChunk, GRAPH_PAGE_NODES, type SessionGraphChunk } from '../../shared/session-graph-chunks';
import type { SessionId } from '../../shared/model';
import type { DatabaseHandles, ReadableDB, WritableDB } from './database';
import { FIRST_PAGE, getSessionNodesRun, prepareSessionQueries, type NodePagePosition } from './session-queries';

/** Nodes per segment: one `sessions.graphPage` page, a few ms to encode or send (the renderer counts pages by it). */
export const SEGMENT_NODES = GRAPH_PAGE_NODES;

/** How the stored segments of a session stand; `version` changes whenever any of them is written or dropped. */
export interface StoredGraphState {
  readonly version: string;
  readonly segments: number;
  readonly nodes: number;
  /** The node count the session row says: the stored graph is whole when `nodes` equals it. */
  readonly sessionNodes: number;
}

export interface StoredGraphSegment {
  readonly version: string;
  /** The chunk's JSON text (ASCII), as stored: sent as it is. */
  readonly text: string;
  readonly nodes: number;
  /** How many segments that version has. */
  readonly segments: number;
}

function prepareReads(db: ReadableDB) {
  return {
    state: db.prepare<[string, string], { segments: number; nodes: number; newest: number | null; session_nodes: number | null }>(
      `SELECT count(*) AS segments, coalesce(sum(node_count), 0) AS nodes, max(id) AS newest,
         (SELECT node_count FROM sessions WHERE id = ?) AS session_nodes
       FROM session_graph_segments WHERE session_id = ?`,
    ),
    segmentAt: db.prepare<[string, number], { node_count: number; codec: number; body: Buffer }>(
      'SELECT node_count, codec, body FROM session_graph_segments WHERE session_id = ? ORDER BY last_file, last_line LIMIT 1 OFFSET ?',
    ),
    all: db.prepare<[string], { node_count: number; codec: number; body: Buffer }>(
      'SELECT node_count, codec, body FROM session_graph_segments WHERE session_id = ? ORDER BY last_file, last_line',
    ),
  };
}

function prepareWrites(db: WritableDB) {
  return {
    rows: prepareSessionQueries(db),
    reads: prepareReads(db),
    last: db.prepare<[string], { id: number; last_file: number; last_line: number; node_count: number }>(
      'SELECT id, last_file, last_line, node_count FROM session_graph_segments WHERE session_id = ? ORDER BY last_file DESC, last_line DESC LIMIT 1',
    ),
    before: db.prepare<[string, number, number], { id: number; last_file: number; last_line: number; node_count: number }>(
      `SELECT id, last_file, last_line, node_count FROM session_graph_segments
       WHERE session_id = ? AND (last_file, last_line) < (?, ?) ORDER BY last_file DESC, last_line DESC LIMIT 1`,
    ),
    drop: db.prepare<[number]>('DELETE FROM session_graph_segments WHERE id = ?'),
    dropSession: db.prepare<[string]>('DELETE FROM session_graph_segments WHERE session_id = ?'),
    insert: db.prepare<[string, number, number, number, Buffer]>(
      'INSERT INTO session_graph_segments (session_id, last_file, last_line, node_count, codec, body) VALUES (?, ?, ?, ?, 0, ?)',
    ),
  };
}
export type SessionGraphWrites = ReturnType<typeof prepareWrites>;

export function prepareSessionGraphWrites(db: WritableDB): SessionGraphWrites {
  return prepareWrites(db);
}

const NON_ASCII = /[\u0080-\uffff]/g;

/** ASCII JSON: a byte per character on disk and in a WebSocket frame, and latin1 reads it back without a UTF-8 decode. */
export function chunkText(chunk: SessionGraphChunk): string {
  return JSON.stringify(chunk).replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function stateOf(row: { segments: number; nodes: number; newest: number | null; session_nodes: number | null } | undefined): StoredGraphState {
  const segments = row?.segments ?? 0;
  const nodes = row?.nodes ?? 0;
  const sessionNodes = row?.session_nodes ?? 0;
  // A session whose new nodes are not stored yet is another version too: a page read then says so.
  return { version: `${segments}.${row?.newest ?? 0}${nodes === sessionNodes ? '' : `~${sessionNodes}`}`, segments, nodes, sessionNodes };
}

/**
 * Encodes the session's nodes the stored segments do not cover yet: from the end of the last full segment
 * (the last one, when short, is written again with the nodes that joined it). When the segments then do not
 * add up to the session's node count (nodes stored in the middle of the order by an older writer), they are
 * all written again. Returns whether the stored graph now covers the session (false: a node that does not
 * fit a chunk). Runs inside the caller's transaction.
 */
export function storeSessionGraph(s: SessionGraphWrites, sessionId: SessionId, segmentNodes = SEGMENT_NODES): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    const state = stateOf(s.reads.state.get(sessionId, sessionId));
    if (isWhole(state)) return true;
    if (attempt === 1) s.dropSession.run(sessionId);
    for (let step = extendOne(s, sessionId, segmentNodes); step !== 'done'; step = extendOne(s, sessionId, segmentNodes)) {
      if (step === 'unfit') return false;
    }
  }
  return isWhole(stateOf(s.reads.state.get(sessionId, sessionId)));
}

/** Whole: the segments hold every node the session row counts (a session with no nodes needs none). */
function isWhole(state: StoredGraphState): boolean {
  return state.nodes === state.sessionNodes;
}

/**
 * Writes the next segment past the stored prefix: 'more' when nodes are left after it. With `fullOnly` a run
 * shorter than a segment is not written (the open writes it): the link run during an import would otherwise
 * encode the growing last segment again at every link.
 */
export function extendOne(s: SessionGraphWrites, sessionId: SessionId, segmentNodes = SEGMENT_NODES, fullOnly = false): 'more' | 'done' | 'unfit' {
  let last = s.last.get(sessionId);
  const short = last !== undefined && last.node_count < segmentNodes ? last : undefined;
  if (short !== undefined) last = s.before.get(sessionId, short.last_file, short.last_line);
  const after: NodePagePosition = last === undefined ? FIRST_PAGE : { fileId: last.last_file, line: last.last_line };
  const run = getSessionNodesRun(s.rows, sessionId, after, segmentNodes);
  if (run.last === null || (fullOnly && run.nodes.length < segmentNodes)) return 'done';
  if (short !== undefined) s.drop.run(short.id);
  const chunk = encodeSessionGraphChunk(sessionId, run.nodes);
  if (chunk === null) return 'unfit';
  s.insert.run(sessionId, run.last.fileId, run.last.line, run.nodes.length, Buffer.from(chunkText(chunk), 'latin1'));
  return run.next === null ? 'done' : 'more';
}

/**
 * After a link run: the changed sessions' stored graphs cover their new nodes in full segments (the one call
 * the linker makes); the short rest, at most a segment, is written by the session's next open.
 */
export function storeSessionGraphs(s: SessionGraphWrites, sessionIds: readonly SessionId[], segmentNodes = SEGMENT_NODES): void {
  for (const sessionId of sessionIds) {
    // Counted first, from the session row and the segments' own counts: an append of a few lines cannot fill a
    // segment, and reading the rows past the last full one (up to a segment of them) on every append made an
    // append's cost follow the session's size up to 16k nodes (import-append-reads.test.ts).
    const state = stateOf(s.reads.state.get(sessionId, sessionId));
    const last = s.last.get(sessionId);
    const fullNodes = state.nodes - (last !== undefined && last.node_count < segmentNodes ? last.node_count : 0);
    if (state.sessionNodes - fullNodes < segmentNodes) continue;
    for (let step = extendOne(s, sessionId, segmentNodes, true); step === 'more'; step = extendOne(s, sessionId, segmentNodes, true));
  }
}

/** The read side the service uses: states from the read connection, segments from the bulk one, a first build on the writer. */
export interface StoredGraphs {
  state(sessionId: SessionId): StoredGraphState;
  /**
   * The stored graph, whole, for this session: built from the rows when it is missing or behind (a store from
   * before migration 022, an import that crashed between its batch and its link). Null when it cannot be
   * (a read-only store, the writer busy with an import, a node that does not fit a chunk): read the rows.
   */
  ensure(sessionId: SessionId, signal?: AbortSignal): Promise<StoredGraphState | null>;
  /** The segment at `index` in order, with the version it belongs to, read in one transaction; null past the end. */
  segment(sessionId: SessionId, index: number): StoredGraphSegment | null;
  /** Every segment's text at one version (null when it is not whole). */
  texts(sessionId: SessionId): { readonly version: string; readonly texts: string[] } | null;
}

/**
 * Runs `work` in an immediate write transaction, or returns null at once when another connection holds the
 * write lock (an import's worker): the caller is on the thread that answers requests and must not wait the
 * busy timeout.
 */
function withoutWaiting<T>(db: WritableDB, work: () => T): T | null {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return db.transaction(work).immediate();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return null;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

function textOf(row: { codec: number; body: Buffer }): string {
  return row.body.toString('latin1');
}

export function createStoredGraphs(handles: DatabaseHandles): StoredGraphs {
  const reads = prepareReads(handles.read);
  let writes: SessionGraphWrites | null = null;
  const whole = (state: StoredGraphState) => state.segments > 0 && isWhole(state);
  // A page's segment and a session's every segment are read on the connection that maps nothing (database.ts, bulk):
  // every mapped page read stays in the process's RSS, and the 62 pages of a 1M-node session are 126 MB of them.
  const pageReads = handles.bulk === handles.read ? reads : prepareReads(handles.bulk);
  const segment = handles.bulk.transaction((sessionId: SessionId, index: number): StoredGraphSegment | null => {
    const state = stateOf(pageReads.state.get(sessionId, sessionId));
    const row = pageReads.segmentAt.get(sessionId, index);
    return row === undefined ? null : { version: state.version, text: textOf(row), nodes: row.node_count, segments: state.segments };
  }).deferred;
  const texts = handles.bulk.transaction((sessionId: SessionId) => {
    const state = stateOf(pageReads.state.get(sessionId, sessionId));
    if (!whole(state)) return null;
    return { version: state.version, texts: pageReads.all.all(sessionId).map(textOf) };
  });
  return {
    state: (sessionId) => stateOf(reads.state.get(sessionId, sessionId)),
    async ensure(sessionId, signal) {
      let state = stateOf(reads.state.get(sessionId, sessionId));
      if (state.segments > 0 && isWhole(state)) return state;
      if (handles.readOnly || state.sessionNodes === 0) return null;
      writes ??= prepareWrites(handles.write);
      const s = writes;
      // One segment per write transaction, the event loop given back between them: a first build of a 1M-node
      // session is seconds of work that other calls need not wait behind. Each step reads the rows it encodes
      // inside its own transaction, so a segment always says what the rows said when it was written.
      for (let attempt = 0; attempt < 2 && !isWhole(state); attempt++) {
        // Still short after extending: nodes landed in the middle of the order; write them all again.
        if (attempt === 1 && withoutWaiting(handles.write, () => s.dropSession.run(sessionId)) === null) return null;
        for (;;) {
          const step = withoutWaiting(handles.write, () => extendOne(s, sessionId));
          if (step === null || step === 'unfit') return null;
          if (step === 'done') break;
          await nextTurn();
          throwIfAborted(signal);
        }
        state = stateOf(reads.state.get(sessionId, sessionId));
      }
      return state.segments > 0 && isWhole(state) ? state : null;
    },
    segment: (sessionId, index) => segment(sessionId, index),
    texts: (sessionId) => texts(sessionId),
  };
}
