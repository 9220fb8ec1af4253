/** Manual snapshot records (migration 004): written once per capture, read to answer for snapshot nodes. */
import type { ReadableDB, WritableDB } from './database';

export interface SnapshotRecord {
  readonly id: string;
  readonly nodeId: string;
  readonly sessionId: string;
  readonly parentId: string | null;
  readonly dir: string;
  readonly treeOid: string;
  readonly commitOid: string | null;
  readonly files: number;
  readonly createdAt: string;
  /** Why it was taken (default 'manual'). */
  readonly kind?: SnapshotKind;
  /** Hook snapshots: the tool call the capture followed. */
  readonly toolUseId?: string | null;
  /** Merge snapshots: the second parent (theirs). */
  readonly secondParentId?: string | null;
}

export type SnapshotKind = 'manual' | 'hook' | 'fork' | 'merge';

interface SnapshotRow {
  readonly id: string;
  readonly node_id: string;
  readonly session_id: string;
  readonly parent_id: string | null;
  readonly dir: string;
  readonly tree_oid: string;
  readonly commit_oid: string | null;
  readonly files: number;
  readonly created_at: string;
  readonly kind: SnapshotKind;
  readonly tool_use_id: string | null;
  readonly second_parent_id: string | null;
}

const COLUMNS = 'id, node_id, session_id, parent_id, dir, tree_oid, commit_oid, files, created_at, kind, tool_use_id, second_parent_id';

export function prepareSnapshotWrites(db: WritableDB) {
  return {
    insert: db.prepare<[SnapshotRow]>(
      `INSERT INTO snapshots (${COLUMNS}) VALUES (@id, @node_id, @session_id, @parent_id, @dir, @tree_oid, @commit_oid, @files, @created_at, @kind, @tool_use_id, @second_parent_id)`,
    ),
  };
}

export function prepareSnapshotQueries(db: ReadableDB) {
  return {
    byNode: db.prepare<[string], SnapshotRow>(`SELECT ${COLUMNS} FROM snapshots WHERE node_id = ?`),
    bySession: db.prepare<[string], SnapshotRow>(`SELECT ${COLUMNS} FROM snapshots WHERE session_id = ? ORDER BY rowid`),
    byToolUse: db.prepare<[string], SnapshotRow>(`SELECT ${COLUMNS} FROM snapshots WHERE tool_use_id = ? ORDER BY rowid`),
    // Per session with snapshots, a version that changes whenever one is added or removed (count, newest rowid).
    versions: db.prepare<[], { session_id: string; count: number; last: number }>(
      'SELECT session_id, COUNT(*) AS count, MAX(rowid) AS last FROM snapshots GROUP BY session_id',
    ),
    // The workspace's session: the most recently active one that ran in the folder.
    sessionOfProject: db.prepare<[string], { id: string }>(
      `SELECT id FROM sessions WHERE project = ? ORDER BY updated_at DESC, id LIMIT 1`,
    ),
    // Where a tool call lives: the node carrying the call and the one carrying its result (either may be missing).
    toolCallNodes: db.prepare<[{ id: string }], { call_node_id: string | null; session_id: string | null; result_node_id: string | null }>(
      `SELECT (SELECT n.id FROM tool_calls c JOIN nodes n ON n.seq = c.node_seq WHERE c.tool_use_id = @id LIMIT 1) AS call_node_id,
              (SELECT n.session_id FROM tool_calls c JOIN nodes n ON n.seq = c.node_seq WHERE c.tool_use_id = @id LIMIT 1) AS session_id,
              (SELECT n.id FROM tool_results r JOIN nodes n ON n.seq = r.node_seq WHERE r.tool_use_id = @id) AS result_node_id`,
    ),
  };
}

/** The nodes of an imported tool call (FORMATS.md §1.9: a hook snapshot joins its call by tool_use_id). */
export interface ToolCallNodes {
  readonly callNodeId: string | null;
  readonly sessionId: string | null;
  readonly resultNodeId: string | null;
}

export function findToolCallNodes(q: SnapshotQueries, toolUseId: string): ToolCallNodes | null {
  const row = q.toolCallNodes.get({ id: toolUseId });
  if (row === undefined || (row.call_node_id === null && row.result_node_id === null)) return null;
  return { callNodeId: row.call_node_id, sessionId: row.session_id, resultNodeId: row.result_node_id };
}

export type SnapshotWrites = ReturnType<typeof prepareSnapshotWrites>;
export type SnapshotQueries = ReturnType<typeof prepareSnapshotQueries>;

export function insertSnapshot(w: SnapshotWrites, record: SnapshotRecord): void {
  w.insert.run({
    id: record.id,
    node_id: record.nodeId,
    session_id: record.sessionId,
    parent_id: record.parentId,
    dir: record.dir,
    tree_oid: record.treeOid,
    commit_oid: record.commitOid,
    files: record.files,
    created_at: record.createdAt,
    kind: record.kind ?? 'manual',
    tool_use_id: record.toolUseId ?? null,
    second_parent_id: record.secondParentId ?? null,
  });
}

export function toSnapshotRecord(row: SnapshotRow): SnapshotRecord {
  return {
    id: row.id,
    nodeId: row.node_id,
    sessionId: row.session_id,
    parentId: row.parent_id,
    dir: row.dir,
    treeOid: row.tree_oid,
    commitOid: row.commit_oid,
    files: row.files,
    createdAt: row.created_at,
    kind: row.kind,
    toolUseId: row.tool_use_id,
    secondParentId: row.second_parent_id,
  };
}

/** Deletes a snapshot's record by its node id (a fork's branch node, removed with the fork). */
export function prepareSnapshotRemoval(db: WritableDB) {
  return db.prepare<[string]>('DELETE FROM snapshots WHERE node_id = ?');
}
