/** Read-side queries for the session list and a session's graph. */
import type { ExtraEdge, ExtraEdgeKind, NodeKind, NodeSummary, SessionSummary, ToolCallRef, ToolOutcome } from '../../shared/model';
import type { ReadableDB } from './database';

/** One listed session as the list queries return it (raw mode: columns in SELECT order, no keyed row objects). */
type SessionTuple = readonly [
  id: string,
  title: string,
  project: string | null,
  startedAt: string | null,
  updatedAt: string | null,
  nodeCount: number,
  fileCount: number,
  branchCount: number,
  bytes: number,
  newestMtimeMs: number | null,
  /** The first file's path, only when the session has no project (the project key is then read from it). */
  firstFile: string | null,
  orphanSubagent: number,
  /** The format that wrote the session (sessions.source). */
  source: string,
];

export interface NodeRow {
  readonly seq: number;
  readonly id: string;
  readonly session_id: string;
  readonly parent_source_id: string | null;
  readonly parent_id: string | null;
  readonly kind: string;
  readonly timestamp: string | null;
  readonly label: string;
  readonly sidechain: number;
  readonly agent_id: string | null;
  readonly model: string | null;
}

export const NODE_COLUMNS =
  'n.seq, n.id, n.session_id, n.parent_source_id, n.parent_id, n.kind, n.timestamp, n.label, n.sidechain, n.agent_id, n.model';

/**
 * The list's columns are all on the session row (migration 017: the files' share kept by triggers on `files`,
 * the sidechain check by the link run), so listing 20k sessions reads 20k rows and nothing else. A session is
 * an orphan subagent when no session transcript of its own was imported (only subagents/agent-*.jsonl files)
 * or none of its lines is off the sidechain.
 */
const SESSION_COLUMNS = `s.id, s.title, s.project, s.started_at, s.updated_at, s.node_count, s.file_count, s.branch_count,
  s.bytes, s.newest_mtime_ms, CASE WHEN s.project IS NULL THEN s.first_file END, (s.main_file = 0 OR s.main_line = 0), s.source`;

/**
 * A session a running import has stored but not linked yet has no title (its id stands in) and no file count:
 * the list leaves it out until its first link sets file_count (node counts and times are kept as nodes are
 * stored), and keeps showing a linked session while more of its nodes arrive.
 */
const LISTED = `s.node_count > 0 AND s.file_count > 0 AND (@needle = '' OR instr(lower(s.title), @needle) > 0 OR instr(lower(coalesce(s.project, '')), @needle) > 0 OR instr(lower(s.id), @needle) > 0)`;

export function prepareSessionQueries(db: ReadableDB) {
  return {
    // Newest first, sessions without a time last (DESC puts NULLs last): the order of sessions_by_activity.
    list: db
      .prepare<[{ needle: string; limit: number; offset: number }], SessionTuple>(
        `SELECT ${SESSION_COLUMNS} FROM sessions s
         WHERE ${LISTED}
         ORDER BY s.updated_at DESC, s.id LIMIT @limit OFFSET @offset`,
      )
      .raw(true),
    count: db.prepare<[{ needle: string }], { total: number }>(
      `SELECT count(*) AS total FROM sessions s WHERE ${LISTED}`,
    ),
    session: db.prepare<[string], SessionTuple>(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`).raw(true),
    nodeIdsOfFile: db.prepare<[string], { id: string }>(`SELECT n.id FROM nodes n JOIN files f ON f.id = n.file_id WHERE f.path = ?`),
    // Rows as arrays (raw mode): a 10k-node graph skips 10k keyed row objects. The order and range come from
    // nodes_by_session (migration 042), the columns from the table: an open reads the stored graph segments
    // (migration 022), and the link run builds those from rows it has just written.
    nodes: db
      .prepare<[string], NodeTuple>(
        `SELECT n.seq, n.id, n.parent_source_id, n.parent_id, n.kind, n.timestamp, n.label, n.sidechain, n.agent_id, n.model
         FROM nodes n WHERE n.session_id = ? ORDER BY n.session_id, n.file_id, n.line`,
      )
      .raw(true),
    // One page of a session's nodes after a (file_id, line) position (keyset paging on the same index), so a
    // huge session is read in slices the service can interleave with other calls and cancel.
    nodesPage: db
      .prepare<[string, number, number, number], PageTuple>(
        `SELECT n.seq, n.id, n.parent_source_id, n.parent_id, n.kind, n.timestamp, n.label, n.sidechain, n.agent_id, n.model, n.file_id, n.line
         FROM nodes n WHERE n.session_id = ? AND (n.file_id, n.line) > (?, ?) ORDER BY n.session_id, n.file_id, n.line LIMIT ?`,
      )
      .raw(true),
    pageEdges: db.prepare<[string, number, number, number, number], { node_seq: number; kind: string; other_id: string }>(
      `SELECT e.node_seq, e.kind, e.other_id FROM nodes n JOIN edges e ON e.node_seq = n.seq
       WHERE n.session_id = ? AND (n.file_id, n.line) > (?, ?) AND (n.file_id, n.line) <= (?, ?)`,
    ),
    pageCalls: db.prepare<[string, number, number, number, number], CallRow>(
      `SELECT c.node_seq, c.tool_use_id, c.name, r.is_error FROM nodes n
       JOIN tool_calls c ON c.node_seq = n.seq LEFT JOIN tool_results r ON r.tool_use_id = c.tool_use_id
       WHERE n.session_id = ? AND (n.file_id, n.line) > (?, ?) AND (n.file_id, n.line) <= (?, ?) ORDER BY c.node_seq, c.ordinal`,
    ),
    edges: db.prepare<[string], { node_seq: number; kind: string; other_id: string }>(
      `SELECT e.node_seq, e.kind, e.other_id FROM nodes n JOIN edges e ON e.node_seq = n.seq WHERE n.session_id = ?`,
    ),
    calls: db.prepare<[string], CallRow>(
      `SELECT c.node_seq, c.tool_use_id, c.name, r.is_error FROM nodes n
       JOIN tool_calls c ON c.node_seq = n.seq LEFT JOIN tool_results r ON r.tool_use_id = c.tool_use_id
       WHERE n.session_id = ? ORDER BY c.node_seq, c.ordinal`,
    ),
    nodeEdges: db.prepare<[number], { node_seq: number; kind: string; other_id: string }>(
      'SELECT node_seq, kind, other_id FROM edges WHERE node_seq = ?',
    ),
    nodeCalls: db.prepare<[number], CallRow>(
      `SELECT c.node_seq, c.tool_use_id, c.name, r.is_error FROM tool_calls c
       LEFT JOIN tool_results r ON r.tool_use_id = c.tool_use_id WHERE c.node_seq = ? ORDER BY c.ordinal`,
    ),
  };
}
export type SessionQueries = ReturnType<typeof prepareSessionQueries>;

/** One node of a session's graph as the `nodes` query returns it (columns in SELECT order). */
type NodeTuple = readonly [
  seq: number,
  id: string,
  parentSourceId: string | null,
  parentId: string | null,
  kind: string,
  timestamp: string | null,
  label: string,
  sidechain: number,
  agentId: string | null,
  model: string | null,
];

type PageTuple = readonly [...NodeTuple, fileId: number, line: number];

interface CallRow {
  readonly node_seq: number;
  readonly tool_use_id: string;
  readonly name: string;
  readonly is_error: number | null;
}

export function toSessionSummary(row: SessionTuple): SessionSummary {
  const [id, title, project, startedAt, updatedAt, nodeCount, fileCount, branchCount, bytes, newestMtimeMs, firstFile, orphan, source] = row;
  return {
    id,
    source: source === 'codex' ? 'codex' : 'claude-code',
    title,
    project,
    startedAt,
    updatedAt,
    nodeCount,
    fileCount,
    branchCount,
    projectKey: project ?? projectFolderOf(firstFile) ?? 'unknown project',
    bytes,
    lastActivityAt: updatedAt ?? (newestMtimeMs !== null ? new Date(newestMtimeMs).toISOString() : startedAt),
    orphanSubagent: orphan !== 0,
  };
}

/**
 * The project folder a transcript sits in (Claude Code keeps one per working directory): the file's folder, or
 * for a subagent file (`<project>/<session>/subagents/[workflows/<wf>/]agent-<id>.jsonl`) the one above its session.
 */
export function projectFolderOf(path: string | null): string | null {
  if (path === null) return null;
  const parts = path.split(/[\\/]/);
  const subagents = parts.lastIndexOf('subagents');
  const folder = subagents >= 2 ? parts.slice(0, subagents - 1) : parts.slice(0, -1);
  const joined = folder.join(path.includes('\\') && !path.includes('/') ? '\\' : '/');
  return joined === '' ? null : joined;
}

export function outcomeOf(isError: number | null): ToolOutcome {
  if (isError === null) return 'missing';
  return isError ? 'error' : 'ok';
}

export function toCallRef(row: CallRow): ToolCallRef {
  return { id: row.tool_use_id, name: row.name, outcome: outcomeOf(row.is_error) };
}

export function toEdge(row: { kind: string; other_id: string }): ExtraEdge {
  return { kind: row.kind as ExtraEdgeKind, nodeId: row.other_id };
}

export function toNodeSummary(row: NodeRow, extraEdges: readonly ExtraEdge[], toolCalls: readonly ToolCallRef[]): NodeSummary {
  return {
    id: row.id,
    sessionId: row.session_id,
    sourceId: row.id,
    parentSourceId: row.parent_source_id,
    parentId: row.parent_id,
    extraEdges,
    kind: row.kind as NodeKind,
    timestamp: row.timestamp,
    label: row.label,
    toolCalls,
    sidechain: row.sidechain !== 0,
    agentId: row.agent_id,
    model: row.model,
  };
}

export function listSessions(
  q: SessionQueries,
  request: { readonly query?: string; readonly limit?: number; readonly offset?: number },
): { sessions: SessionSummary[]; total: number } {
  const needle = (request.query ?? '').trim().toLowerCase();
  const rows = q.list.all({ needle, limit: request.limit ?? -1, offset: request.offset ?? 0 });
  return { sessions: rows.map(toSessionSummary), total: q.count.get({ needle })?.total ?? 0 };
}

export function getSession(q: SessionQueries, sessionId: string): SessionSummary | null {
  const row = q.session.get(sessionId);
  return row ? toSessionSummary(row) : null;
}

/** Shared by every node without extra edges or tool calls (most of them): read-only, never mutated. */
const NO_EDGES: readonly ExtraEdge[] = Object.freeze([]);
const NO_CALLS: readonly ToolCallRef[] = Object.freeze([]);

/** One node row (its first ten columns, as both node queries select them) with its edges and calls. */
function summaryOfRow(
  row: readonly [number, string, string | null, string | null, string, string | null, string, number, string | null, string | null, ...unknown[]],
  sessionId: string,
  edges: ReadonlyMap<number, readonly ExtraEdge[]>,
  calls: ReadonlyMap<number, readonly ToolCallRef[]>,
): NodeSummary {
  const [seq, id, parentSourceId, parentId, kind, timestamp, label, sidechain, agentId, model] = row;
  return {
    id,
    sessionId,
    sourceId: id,
    parentSourceId,
    parentId,
    extraEdges: edges.get(seq) ?? NO_EDGES,
    kind: kind as NodeKind,
    timestamp,
    label,
    toolCalls: calls.get(seq) ?? NO_CALLS,
    sidechain: sidechain !== 0,
    agentId,
    model,
  };
}

/** A session's nodes in transcript order, each with its extra edges and tool calls (outcomes joined). */
export function getSessionNodes(q: SessionQueries, sessionId: string): NodeSummary[] {
  const edges = groupBySeq(q.edges.all(sessionId), toEdge);
  const calls = groupBySeq(q.calls.all(sessionId), toCallRef);
  const rows = q.nodes.all(sessionId);
  const nodes = new Array<NodeSummary>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    nodes[i] = summaryOfRow(rows[i]!, sessionId, edges, calls);
  }
  return nodes;
}

/** Where a page of a session's nodes ended: the next page starts after this (file, line). */
export interface NodePagePosition {
  readonly fileId: number;
  readonly line: number;
}

/** Before every node (file ids and lines start at 1 and 0). */
export const FIRST_PAGE: NodePagePosition = { fileId: -1, line: -1 };

/**
 * Up to `limit` of a session's nodes after `after`, in transcript order, as getSessionNodes builds them;
 * `next` is null after the last page. Concatenating the pages gives exactly getSessionNodes' answer.
 */
export function getSessionNodesPage(
  q: SessionQueries,
  sessionId: string,
  after: NodePagePosition,
  limit: number,
): { nodes: NodeSummary[]; next: NodePagePosition | null } {
  const { nodes, next } = getSessionNodesRun(q, sessionId, after, limit);
  return { nodes, next };
}

/** getSessionNodesPage with the position of the page's last node (null when the page is empty): a stored graph segment ends there. */
export function getSessionNodesRun(
  q: SessionQueries,
  sessionId: string,
  after: NodePagePosition,
  limit: number,
): { nodes: NodeSummary[]; next: NodePagePosition | null; last: NodePagePosition | null } {
  const rows = q.nodesPage.all(sessionId, after.fileId, after.line, limit);
  if (rows.length === 0) return { nodes: [], next: null, last: null };
  const last = rows[rows.length - 1]!;
  const end: NodePagePosition = { fileId: last[10], line: last[11] };
  const range = [sessionId, after.fileId, after.line, end.fileId, end.line] as const;
  const edges = groupBySeq(q.pageEdges.all(...range), toEdge);
  const calls = groupBySeq(q.pageCalls.all(...range), toCallRef);
  const nodes = new Array<NodeSummary>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    nodes[i] = summaryOfRow(rows[i]!, sessionId, edges, calls);
  }
  return { nodes, next: rows.length < limit ? null : end, last: end };
}

export function groupBySeq<R extends { node_seq: number }, T>(rows: readonly R[], map: (row: R) => T): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  for (const row of rows) {
    const list = grouped.get(row.node_seq);
    if (list) list.push(map(row));
    else grouped.set(row.node_seq, [map(row)]);
  }
  return grouped;
}
