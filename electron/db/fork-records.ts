/**
 * Forks made in Arbor (migration 007). A fork's row and its branch node (a `fork` snapshot) are written and
 * removed together, in one transaction, so the graph never shows a branch Arbor has no fork for or the reverse.
 */
import type { DatabaseHandles } from './database';
import { insertSnapshot, prepareSnapshotRemoval, prepareSnapshotWrites, type SnapshotRecord } from './snapshot-records';

export interface ForkRecord {
  readonly id: string;
  /** The fork point and its session. */
  readonly nodeId: string;
  readonly sessionId: string;
  /** The branch node: the fork's snapshot (SnapshotRecord.nodeId). */
  readonly branchNodeId: string;
  readonly dir: string;
  /** Arbor created the folder (so removing the fork may delete it); false when it existed, empty, before. */
  readonly dirCreated: boolean;
  readonly resumeSessionId: string | null;
  readonly transcript: string | null;
  readonly createdAt: string;
}

export interface ForkRecords {
  /** Records the fork and its branch node in one transaction. */
  add(fork: ForkRecord, branch: SnapshotRecord): void;
  get(forkId: string): ForkRecord | null;
  /** Newest first. */
  list(): ForkRecord[];
  /** Deletes the fork's row and its branch node in one transaction; false when there was no such fork. */
  remove(forkId: string): boolean;
}

interface ForkRow {
  readonly id: string;
  readonly node_id: string;
  readonly session_id: string;
  readonly branch_node_id: string;
  readonly dir: string;
  readonly dir_created: number;
  readonly resume_session_id: string | null;
  readonly transcript: string | null;
  readonly created_at: string;
}

const COLUMNS = 'id, node_id, session_id, branch_node_id, dir, dir_created, resume_session_id, transcript, created_at';

function toForkRecord(row: ForkRow): ForkRecord {
  return {
    id: row.id,
    nodeId: row.node_id,
    sessionId: row.session_id,
    branchNodeId: row.branch_node_id,
    dir: row.dir,
    dirCreated: row.dir_created !== 0,
    resumeSessionId: row.resume_session_id,
    transcript: row.transcript,
    createdAt: row.created_at,
  };
}

export function createForkRecords(handles: DatabaseHandles): ForkRecords {
  const { write, read } = handles;
  const insert = write.prepare<[ForkRow]>(
    `INSERT INTO forks (${COLUMNS}) VALUES (@id, @node_id, @session_id, @branch_node_id, @dir, @dir_created, @resume_session_id, @transcript, @created_at)`,
  );
  const deleteFork = write.prepare<[string]>('DELETE FROM forks WHERE id = ?');
  const byIdForWrite = write.prepare<[string], ForkRow>(`SELECT ${COLUMNS} FROM forks WHERE id = ?`);
  const byId = read.prepare<[string], ForkRow>(`SELECT ${COLUMNS} FROM forks WHERE id = ?`);
  const all = read.prepare<[], ForkRow>(`SELECT ${COLUMNS} FROM forks ORDER BY created_at DESC, rowid DESC`);
  const snapshotWrites = prepareSnapshotWrites(write);
  const deleteSnapshot = prepareSnapshotRemoval(write);

  const add = write.transaction((fork: ForkRecord, branch: SnapshotRecord) => {
    insertSnapshot(snapshotWrites, branch);
    insert.run({
      id: fork.id,
      node_id: fork.nodeId,
      session_id: fork.sessionId,
      branch_node_id: fork.branchNodeId,
      dir: fork.dir,
      dir_created: fork.dirCreated ? 1 : 0,
      resume_session_id: fork.resumeSessionId,
      transcript: fork.transcript,
      created_at: fork.createdAt,
    });
  });
  const remove = write.transaction((forkId: string): boolean => {
    const row = byIdForWrite.get(forkId);
    if (row === undefined) return false;
    deleteSnapshot.run(row.branch_node_id);
    deleteFork.run(forkId);
    return true;
  });

  return {
    add: (fork, branch) => add(fork, branch),
    get: (forkId) => {
      const row = byId.get(forkId);
      return row === undefined ? null : toForkRecord(row);
    },
    list: () => all.all().map(toForkRecord),
    remove: (forkId) => remove(forkId),
  };
}
