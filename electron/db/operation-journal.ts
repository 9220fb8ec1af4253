/**
 * The operation journal (migrations 006 and 008): what an operation will write is recorded before the first write,
 * each file's write is bracketed by an intent (`writing`) and an outcome (`done`), and the operation's end
 * is recorded last. After a crash, the rows left `applying` say exactly which files may have changed.
 */
import type { FileMode } from '../git/git-object';
import type { FileVersion } from '../git/workspace-files';
import type { OperationKind, OperationStatus, SideEffect } from '../../shared/operations';
import { durably, type DatabaseHandles } from './database';

export type OperationFileState = 'planned' | 'writing' | 'done';

export interface OperationRecord {
  readonly id: string;
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly workspace: string;
  readonly nodeId: string | null;
  readonly undoes: string | null;
  readonly sideEffects: readonly SideEffect[];
  /** The snapshot-store commit holding the before and after files. */
  readonly safetyCommit: string | null;
  /** Folders the writes create (deepest last), removed by a rollback when left empty. */
  readonly createdDirs: readonly string[];
  /**
   * Folders the operation may remove (above a file it deletes, or where it writes a file), as they were
   * before it: path → permission bits (migration 008). A rollback and undo make any of them that is missing.
   */
  readonly foldersBefore: Readonly<Record<string, number>>;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

export interface OperationFileRecord {
  readonly seq: number;
  readonly path: string;
  /** What the path held before the operation (null: nothing). */
  readonly before: FileVersion | null;
  /** What the operation writes there (null: it deletes the path). */
  readonly after: FileVersion | null;
  readonly state: OperationFileState;
}

export type NewOperation = Omit<OperationRecord, 'status' | 'finishedAt' | 'foldersBefore'> & { readonly foldersBefore?: Readonly<Record<string, number>> };

export interface OperationJournal {
  /** Records the operation (status `applying`) and all its files (`planned`) in one transaction. */
  begin(operation: NewOperation, files: readonly Omit<OperationFileRecord, 'state'>[]): void;
  markFile(operationId: string, seq: number, state: OperationFileState): void;
  /** Marks writes `from`..`to` (inclusive) in one commit (the runner journals writes in batches). */
  markFiles(operationId: string, from: number, to: number, state: OperationFileState): void;
  /**
   * Ends an operation. An undo that becomes `applied` marks the operation it reverses `undone` in the same
   * transaction, so the journal never shows both as in effect.
   */
  finish(operationId: string, status: 'applied' | 'rolled-back', finishedAt: string): void;
  get(operationId: string): OperationRecord | null;
  files(operationId: string): OperationFileRecord[];
  /** Newest first. */
  list(filter?: { readonly workspace?: string; readonly limit?: number }): OperationRecord[];
  /** Operations a crash interrupted (still `applying`), oldest first. */
  unfinished(): OperationRecord[];
}

interface OperationRow {
  readonly id: string;
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly workspace: string;
  readonly node_id: string | null;
  readonly undoes: string | null;
  readonly side_effects: string;
  readonly safety_commit: string | null;
  readonly created_dirs: string;
  readonly folders_before: string;
  readonly created_at: string;
  readonly finished_at: string | null;
}

interface FileRow {
  readonly seq: number;
  readonly path: string;
  readonly before_oid: string | null;
  readonly before_mode: FileMode | null;
  readonly after_oid: string | null;
  readonly after_mode: FileMode | null;
  readonly state: OperationFileState;
}

const COLUMNS = 'id, kind, status, workspace, node_id, undoes, side_effects, safety_commit, created_dirs, folders_before, created_at, finished_at';
const FILE_COLUMNS = 'seq, path, before_oid, before_mode, after_oid, after_mode, state';
const MAX_LIST = 10_000;

const version = (oid: string | null, mode: FileMode | null): FileVersion | null => (oid === null || mode === null ? null : { oid, mode });

function toRecord(row: OperationRow): OperationRecord {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    workspace: row.workspace,
    nodeId: row.node_id,
    undoes: row.undoes,
    sideEffects: JSON.parse(row.side_effects) as SideEffect[],
    safetyCommit: row.safety_commit,
    createdDirs: JSON.parse(row.created_dirs) as string[],
    foldersBefore: JSON.parse(row.folders_before) as Record<string, number>,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function toFile(row: FileRow): OperationFileRecord {
  return { seq: row.seq, path: row.path, before: version(row.before_oid, row.before_mode), after: version(row.after_oid, row.after_mode), state: row.state };
}

export function createOperationJournal(handles: DatabaseHandles): OperationJournal {
  const { write, read } = handles;
  const insertOperation = write.prepare(
    `INSERT INTO operations (${COLUMNS}) VALUES (@id, @kind, 'applying', @workspace, @node_id, @undoes, @side_effects, @safety_commit, @created_dirs, @folders_before, @created_at, NULL)`,
  );
  const insertFile = write.prepare(
    `INSERT INTO operation_files (operation_id, ${FILE_COLUMNS}) VALUES (@operation_id, @seq, @path, @before_oid, @before_mode, @after_oid, @after_mode, 'planned')`,
  );
  const updateFile = write.prepare<[string, string, number]>(`UPDATE operation_files SET state = ? WHERE operation_id = ? AND seq = ?`);
  const updateFiles = write.prepare<[string, string, number, number]>(
    `UPDATE operation_files SET state = ? WHERE operation_id = ? AND seq BETWEEN ? AND ?`,
  );
  const updateStatus = write.prepare<[string, string | null, string]>(`UPDATE operations SET status = ?, finished_at = ? WHERE id = ?`);
  const markUndone = write.prepare<[string]>(`UPDATE operations SET status = 'undone' WHERE id = ?`);
  const undoesOf = write.prepare<[string], { undoes: string | null }>(`SELECT undoes FROM operations WHERE id = ?`);
  const byId = read.prepare<[string], OperationRow>(`SELECT ${COLUMNS} FROM operations WHERE id = ?`);
  const filesOf = read.prepare<[string], FileRow>(`SELECT ${FILE_COLUMNS} FROM operation_files WHERE operation_id = ? ORDER BY seq`);
  const newest = read.prepare<[number], OperationRow>(`SELECT ${COLUMNS} FROM operations ORDER BY created_at DESC, rowid DESC LIMIT ?`);
  const newestIn = read.prepare<[string, number], OperationRow>(
    `SELECT ${COLUMNS} FROM operations WHERE workspace = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const applying = read.prepare<[], OperationRow>(`SELECT ${COLUMNS} FROM operations WHERE status = 'applying' ORDER BY created_at, rowid`);

  const begin = write.transaction((operation: NewOperation, files: readonly Omit<OperationFileRecord, 'state'>[]) => {
    insertOperation.run({
      id: operation.id,
      kind: operation.kind,
      workspace: operation.workspace,
      node_id: operation.nodeId,
      undoes: operation.undoes,
      side_effects: JSON.stringify(operation.sideEffects),
      safety_commit: operation.safetyCommit,
      created_dirs: JSON.stringify(operation.createdDirs),
      folders_before: JSON.stringify(operation.foldersBefore ?? {}),
      created_at: operation.createdAt,
    });
    for (const file of files) {
      insertFile.run({
        operation_id: operation.id,
        seq: file.seq,
        path: file.path,
        before_oid: file.before?.oid ?? null,
        before_mode: file.before?.mode ?? null,
        after_oid: file.after?.oid ?? null,
        after_mode: file.after?.mode ?? null,
      });
    }
  });

  const finish = write.transaction((operationId: string, status: 'applied' | 'rolled-back', finishedAt: string) => {
    updateStatus.run(status, finishedAt, operationId);
    const undoes = undoesOf.get(operationId)?.undoes ?? null;
    if (status === 'applied' && undoes !== null) markUndone.run(undoes);
  });

  return {
    // The one commit that must outlive a power cut: it is what lets recovery find (and roll back) writes that
    // reached the disk. The rest may be lost with the power; recovery reads the files themselves.
    begin: (operation, files) => durably(write, () => begin(operation, files)),
    markFile: (operationId, seq, state) => void updateFile.run(state, operationId, seq),
    markFiles: (operationId, from, to, state) => void updateFiles.run(state, operationId, from, to),
    finish: (operationId, status, finishedAt) => finish(operationId, status, finishedAt),
    get: (operationId) => {
      const row = byId.get(operationId);
      return row ? toRecord(row) : null;
    },
    files: (operationId) => filesOf.all(operationId).map(toFile),
    list: (filter = {}) => {
      const limit = Math.max(1, Math.min(filter.limit ?? MAX_LIST, MAX_LIST));
      const rows = filter.workspace === undefined ? newest.all(limit) : newestIn.all(filter.workspace, limit);
      return rows.map(toRecord);
    },
    unfinished: () => applying.all().map(toRecord),
  };
}
