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
}

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
}

const COLUMNS = 'id, node_id, session_id, parent_id, dir, tree_oid, commit_oid, files, created_at';

export function prepareSnapshotWrites(db: WritableDB) {
  return {
    insert: db.prepare<[SnapshotRow]>(
      `INSERT INTO snapshots (${COLUMNS}) VALUES (@id, @node_id, @session_id, @parent_id, @dir, @tree_oid, @commit_oid, @files, @created_at)`,
    ),
  };
}

export function prepareSnapshotQueries(db: ReadableDB) {
  return {
    byNode: db.prepare<[string], SnapshotRow>(`SELECT ${COLUMNS} FROM snapshots WHERE node_id = ?`),
    bySession: db.prepare<[string], SnapshotRow>(`SELECT ${COLUMNS} FROM snapshots WHERE session_id = ? ORDER BY rowid`),
    // The workspace's session: the most recently active one that ran in the folder.
    sessionOfProject: db.prepare<[string], { id: string }>(
      `SELECT id FROM sessions WHERE project = ? ORDER BY updated_at DESC, id LIMIT 1`,
    ),
  };
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
  };
}
