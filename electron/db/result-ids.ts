/**
 * The calls each result line answers, kept at import (migration 041) so the reconstruction behind `sessions.states`
 * reads only the lines it needs: a result line is read for its text only when it answers a file edit; the others
 * (a Read's file, a shell command's output) tell it nothing their ids do not (session-effects.ts). The importer
 * gives the ids it read where it parsed the line (ParsedNode.resultIds, claude-code/result-ids.ts); a node without a
 * row (stored before 041, a line cut at the raw limit, a format that keeps none) is read whole, as before.
 */
import type { NodeId, SessionId } from '../../shared/model';
import type { Statement } from 'better-sqlite3';
import type { ReadableDB, WritableDB } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';

export function prepareResultIdWrites(db: WritableDB) {
  return db.prepare<[number, string]>('INSERT OR IGNORE INTO result_ids (node_seq, tool_use_ids) VALUES (?, ?)');
}
export type ResultIdWrites = ReturnType<typeof prepareResultIdWrites>;

export interface ResultIdQueries {
  /** Per node of these sessions that has a row: the tool_use_ids its line's tool_result blocks name, in order. */
  resultIds(sessionIds: readonly SessionId[]): Map<NodeId, readonly string[]>;
  /** The node's stored line (cut at the raw limit) and its full length, without the rest of the node. */
  nodeLine(nodeId: NodeId): { readonly raw: Buffer; readonly rawBytes: number } | null;
}

export function prepareResultIdQueries(db: ReadableDB): ResultIdQueries {
  // A store before 041 has no table (a read-only store is not migrated): prepared at first use, missing reads as none.
  let bySession: Statement<[string], { id: string; tool_use_ids: string }> | null | undefined;
  // The line alone: getNode's summary, edges and calls cost more than the line itself, read for every result.
  const line = db.prepare<[string], StoredRawColumns & { raw_bytes: number }>(`SELECT ${rawColumns('n')}, n.raw_bytes FROM nodes n WHERE n.id = ?`);
  const lines = prepareRawLineReader(db);
  return {
    resultIds(sessionIds) {
      const ids = new Map<NodeId, readonly string[]>();
      if (bySession === undefined) {
        const kept = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'result_ids'").get() !== undefined;
        bySession = kept ? db.prepare('SELECT n.id, r.tool_use_ids FROM nodes n JOIN result_ids r ON r.node_seq = n.seq WHERE n.session_id = ?') : null;
      }
      if (bySession === null) return ids;
      for (const sessionId of sessionIds) for (const row of bySession.iterate(sessionId)) ids.set(row.id, JSON.parse(row.tool_use_ids) as string[]);
      return ids;
    },
    nodeLine(nodeId) {
      const row = line.get(nodeId);
      return row === undefined ? null : { raw: lines.line(row), rawBytes: row.raw_bytes };
    },
  };
}
