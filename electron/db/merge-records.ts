/**
 * Applied merges as "Continue from the merge" reads them (migration 030): one row per merge operation,
 * written with its merge node, read by operation id.
 */
import type { MergedFile } from '../../shared/operations';
import type { DatabaseHandles } from './database';

export interface MergeRecord {
  readonly operation: string;
  readonly mergeNode: string;
  readonly sessionId: string;
  readonly oursNode: string;
  readonly theirsNode: string;
  readonly baseNode: string | null;
  readonly dir: string;
  readonly files: readonly MergedFile[];
  readonly createdAt: string;
}

export interface MergeRecords {
  add(record: MergeRecord): void;
  get(operation: string): MergeRecord | null;
}

interface MergeRow {
  readonly operation_id: string;
  readonly merge_node_id: string;
  readonly session_id: string;
  readonly ours_node_id: string;
  readonly theirs_node_id: string;
  readonly base_node_id: string | null;
  readonly dir: string;
  readonly files: string;
  readonly created_at: string;
}

const COLUMNS = 'operation_id, merge_node_id, session_id, ours_node_id, theirs_node_id, base_node_id, dir, files, created_at';

export function createMergeRecords(handles: DatabaseHandles): MergeRecords {
  const insert = handles.write.prepare<[MergeRow]>(
    `INSERT INTO merge_records (${COLUMNS}) VALUES (@operation_id, @merge_node_id, @session_id, @ours_node_id, @theirs_node_id, @base_node_id, @dir, @files, @created_at)`,
  );
  const byOperation = handles.read.prepare<[string], MergeRow>(`SELECT ${COLUMNS} FROM merge_records WHERE operation_id = ?`);
  return {
    add(record) {
      insert.run({
        operation_id: record.operation,
        merge_node_id: record.mergeNode,
        session_id: record.sessionId,
        ours_node_id: record.oursNode,
        theirs_node_id: record.theirsNode,
        base_node_id: record.baseNode,
        dir: record.dir,
        files: JSON.stringify(record.files),
        created_at: record.createdAt,
      });
    },
    get(operation) {
      const row = byOperation.get(operation);
      if (row === undefined) return null;
      return {
        operation: row.operation_id,
        mergeNode: row.merge_node_id,
        sessionId: row.session_id,
        oursNode: row.ours_node_id,
        theirsNode: row.theirs_node_id,
        baseNode: row.base_node_id,
        dir: row.dir,
        files: JSON.parse(row.files) as MergedFile[],
        createdAt: row.created_at,
      };
    },
  };
}
