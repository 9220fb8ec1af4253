/**
 * After nodes land, a session is re-linked as a whole: parents resolved (dangling → null), parent cycles
 * broken, extra edges added (compaction's logical parent, subagent roots → the call that spawned them),
 * and its summary row recomputed (title, project, times, counts, real branch points).
 */
import type { ImportProblem, SessionId } from '../../shared/model';
import type { WritableDB } from './database';
import { isTitleWorthy } from './session-title';

/** First lines looked at for a title: enough to pass a run of caveats and command echoes, bounded. */
const TITLE_CANDIDATES = 40;

interface LinkRow {
  readonly seq: number;
  readonly id: string;
  readonly file_id: number;
  readonly line: number;
  readonly parent_source_id: string | null;
  readonly parent_id: string | null;
  readonly logical_parent_source_id: string | null;
  readonly spawned_by_tool_use_id: string | null;
  readonly agent_id: string | null;
  readonly kind: string;
  readonly timestamp: string | null;
}

export function prepareLinkStatements(db: WritableDB) {
  return {
    dirtySessions: db.prepare<[], { id: string }>('SELECT id FROM sessions WHERE dirty = 1'),
    sessionNodes: db.prepare<[string], LinkRow>(
      `SELECT seq, id, file_id, line, parent_source_id, parent_id, logical_parent_source_id, spawned_by_tool_use_id,
              agent_id, kind, timestamp
       FROM nodes WHERE session_id = ? ORDER BY file_id, line`,
    ),
    sessionFiles: db.prepare<[string], { id: number; path: string; role: string; agent_id: string | null; first_cwd: string | null }>(
      'SELECT id, path, role, agent_id, first_cwd FROM files WHERE session_id = ? ORDER BY id',
    ),
    existingNodes: db.prepare<[string], { id: string }>('SELECT id FROM nodes WHERE id IN (SELECT value FROM json_each(?))'),
    setParent: db.prepare<[string | null, number]>('UPDATE nodes SET parent_id = ? WHERE seq = ?'),
    insertEdge: db.prepare<[number, string, string]>('INSERT OR IGNORE INTO edges (node_seq, kind, other_id) VALUES (?, ?, ?)'),
    spawnOf: db.prepare<[string], { id: string }>(
      `SELECT n.id FROM agent_spawns s JOIN tool_calls c ON c.tool_use_id = s.tool_use_id JOIN nodes n ON n.seq = c.node_seq
       WHERE s.agent_id = ? LIMIT 1`,
    ),
    callNode: db.prepare<[string], { id: string }>(
      'SELECT n.id FROM tool_calls c JOIN nodes n ON n.seq = c.node_seq WHERE c.tool_use_id = ? LIMIT 1',
    ),
    summaries: db.prepare<[], { ref_source_id: string; summary: string }>(
      `SELECT ref_source_id, summary FROM records
       WHERE type = 'summary' AND ref_by_key = 1 AND summary IS NOT NULL AND summary != '' ORDER BY id`,
    ),
    // The first few, since the first "user" lines are often caveats or command echoes (isTitleWorthy).
    firstPrompts: db.prepare<[string], { label: string }>(
      `SELECT label FROM nodes WHERE session_id = ? AND kind = 'user' AND label != '' ORDER BY file_id, line LIMIT ${TITLE_CANDIDATES}`,
    ),
    // Sessions without a typed prompt (an away summary, a resumed tail) are titled by their first readable
    // step: an answer, else a recap, never a compaction summary (and isTitleWorthy drops notices). Answers come
    // first because an informational notice's label is its text, which isTitleWorthy cannot tell from a recap.
    firstReadable: db.prepare<[string], { label: string }>(
      `SELECT label FROM nodes WHERE session_id = ? AND kind IN ('assistant', 'system') AND label != ''
       ORDER BY kind != 'assistant', file_id, line LIMIT ${TITLE_CANDIDATES}`,
    ),
    updateSession: db.prepare(
      `UPDATE sessions SET title = ?, project = ?, started_at = ?, updated_at = ?, node_count = ?, file_count = ?,
         branch_count = ?, dirty = 0 WHERE id = ?`,
    ),
  };
}
export type LinkStatements = ReturnType<typeof prepareLinkStatements>;

/** Summary records by the node they describe (the last written wins): loaded once per link run. */
export function loadSummaries(statements: LinkStatements): ReadonlyMap<string, string> {
  return new Map(statements.summaries.all().map((row) => [row.ref_source_id, row.summary]));
}

/** Re-links one session; returns the problems found (cycles broken). Run inside a transaction. */
export function linkSession(
  statements: LinkStatements,
  sessionId: SessionId,
  summaries: ReadonlyMap<string, string>,
): ImportProblem[] {
  const s = statements;
  const rows = s.sessionNodes.all(sessionId);
  const files = s.sessionFiles.all(sessionId);
  const filePath = new Map(files.map((file) => [file.id, file.path]));
  const byId = new Map(rows.map((row) => [row.id, row]));

  // Parents outside this session (rare) are looked up in one query.
  const outside = new Set<string>();
  for (const row of rows) {
    for (const ref of [row.parent_source_id, row.logical_parent_source_id]) {
      if (ref !== null && !byId.has(ref)) outside.add(ref);
    }
  }
  const existsOutside = new Set(
    outside.size === 0 ? [] : s.existingNodes.all(JSON.stringify([...outside])).map((row) => row.id),
  );
  const exists = (id: string): boolean => byId.has(id) || existsOutside.has(id);

  const parent = new Map<string, string | null>();
  for (const row of rows) {
    parent.set(row.id, row.parent_source_id !== null && exists(row.parent_source_id) ? row.parent_source_id : null);
  }
  const problems = breakCycles(rows, parent).map((row) => ({
    file: filePath.get(row.file_id) ?? '',
    line: row.line,
    reason: `parent cycle: ${row.id} made a root (its parentUuid ${row.parent_source_id} leads back to itself)`,
  }));
  for (const row of rows) {
    const wanted = parent.get(row.id) ?? null;
    if (wanted !== row.parent_id) s.setParent.run(wanted, row.seq);
  }

  linkExtraEdges(s, rows, files, exists);

  let startedAt: string | null = null;
  let updatedAt: string | null = null;
  for (const row of rows) {
    if (row.timestamp === null) continue;
    if (startedAt === null || row.timestamp < startedAt) startedAt = row.timestamp;
    if (updatedAt === null || row.timestamp > updatedAt) updatedAt = row.timestamp;
  }
  const title =
    summaryTitle(rows, summaries) ??
    s.firstPrompts.all(sessionId).find((row) => isTitleWorthy(row.label))?.label ??
    s.firstReadable.all(sessionId).find((row) => isTitleWorthy(row.label))?.label ??
    sessionId;
  const project = files.find((file) => file.first_cwd !== null)?.first_cwd ?? null;
  s.updateSession.run(
    title, project, startedAt, updatedAt, rows.length, files.length, countBranchPoints(rows, parent), sessionId,
  );
  return problems;
}

/** The transcript's own title: a summary record pointing at one of the session's nodes (the newest such node). */
function summaryTitle(rows: readonly LinkRow[], summaries: ReadonlyMap<string, string>): string | null {
  if (summaries.size === 0) return null;
  for (let index = rows.length - 1; index >= 0; index--) {
    const title = summaries.get(rows[index]!.id);
    if (title !== undefined) return title;
  }
  return null;
}

/** Breaks every parent cycle at its earliest node in transcript order; returns the nodes made roots. */
function breakCycles(rows: readonly LinkRow[], parent: Map<string, string | null>): LinkRow[] {
  const order = new Map(rows.map((row, index) => [row.id, index]));
  const state = new Map<string, 'walking' | 'done'>();
  const broken: LinkRow[] = [];
  for (const row of rows) {
    if (state.has(row.id)) continue;
    const path: string[] = [];
    let current: string | null = row.id;
    while (current !== null && order.has(current) && !state.has(current)) {
      state.set(current, 'walking');
      path.push(current);
      current = parent.get(current) ?? null;
    }
    if (current !== null && state.get(current) === 'walking') {
      const cycle = path.slice(path.indexOf(current));
      const earliest = cycle.reduce((a, b) => ((order.get(a) ?? 0) <= (order.get(b) ?? 0) ? a : b));
      parent.set(earliest, null);
      broken.push(rows[order.get(earliest) ?? 0]!);
    }
    for (const id of path) state.set(id, 'done');
  }
  return broken;
}

function linkExtraEdges(
  s: LinkStatements,
  rows: readonly LinkRow[],
  files: readonly { id: number; role: string; agent_id: string | null }[],
  exists: (id: string) => boolean,
): void {
  const subagentFiles = new Map(files.filter((file) => file.role === 'subagent').map((file) => [file.id, file]));
  for (const row of rows) {
    if (row.logical_parent_source_id !== null && exists(row.logical_parent_source_id)) {
      s.insertEdge.run(row.seq, 'logical', row.logical_parent_source_id);
    }
    let spawner: string | undefined;
    if (row.spawned_by_tool_use_id !== null) spawner = s.callNode.get(row.spawned_by_tool_use_id)?.id;
    const file = subagentFiles.get(row.file_id);
    const agentId = file?.agent_id ?? row.agent_id;
    if (spawner === undefined && file !== undefined && row.parent_source_id === null && agentId !== null) {
      spawner = s.spawnOf.get(agentId)?.id;
    }
    if (spawner !== undefined && spawner !== row.id) s.insertEdge.run(row.seq, 'subagent', spawner);
  }
}

/**
 * Real branch points only (FORMATS.md §1.5): a node with ≥2 typed-prompt children at different times.
 * Tool-result continuations, progress/hook leaves and same-timestamp replays are recording artifacts.
 */
function countBranchPoints(rows: readonly LinkRow[], parent: ReadonlyMap<string, string | null>): number {
  const promptTimes = new Map<string, Set<string>>();
  for (const row of rows) {
    const parentId = parent.get(row.id);
    if (row.kind !== 'user' || parentId === null || parentId === undefined) continue;
    const times = promptTimes.get(parentId) ?? new Set<string>();
    times.add(row.timestamp ?? `line:${row.line}`);
    promptTimes.set(parentId, times);
  }
  let count = 0;
  for (const times of promptTimes.values()) if (times.size >= 2) count++;
  return count;
}
