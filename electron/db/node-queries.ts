/** Read-side queries for one node's detail: its stored line, its tool calls with their results, its records. */
import type { NodeSummary } from '../../shared/model';
import type { ReadableDB } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';
import { NODE_COLUMNS, type NodeRow, type SessionQueries, toCallRef, toEdge, toNodeSummary } from './session-queries';

export interface StoredNode {
  /** The store's own row number: pass it back to getStoredToolCalls. */
  readonly seq: number;
  readonly summary: NodeSummary;
  readonly file: string;
  /** The file's format as recorded at import (`files.format`): which importer reads the line back. */
  readonly format: string;
  readonly line: number;
  /** The line as stored (cut at RAW_LIMIT); rawBytes is its full length. */
  readonly raw: Buffer;
  readonly rawBytes: number;
}

export interface StoredToolCall {
  readonly id: string;
  readonly name: string;
  readonly isError: boolean | null;
  /** The node carrying the result, when recorded, with its line to read the result text from. */
  readonly result: { readonly nodeId: string; readonly timestamp: string | null; readonly raw: Buffer; readonly format: string | null } | null;
}

export interface StoredRecord {
  readonly type: string;
  readonly file: string;
  readonly line: number;
  readonly raw: Buffer;
}

export function prepareNodeQueries(db: ReadableDB) {
  return {
    node: db.prepare<[string], NodeRow & StoredRawColumns & { file: string; format: string; line: number; raw_bytes: number }>(
      `SELECT ${NODE_COLUMNS}, f.path AS file, f.format AS format, n.line, ${rawColumns('n')}, n.raw_bytes FROM nodes n
       JOIN files f ON f.id = n.file_id WHERE n.id = ?`,
    ),
    callResults: db.prepare<
      [number],
      // The result's line: its raw columns are null when no result is recorded.
      { tool_use_id: string; name: string; is_error: number | null; result_id: string | null; result_timestamp: string | null; result_format: string | null } & StoredRawColumns
    >(
      `SELECT c.tool_use_id, c.name, r.is_error, rn.id AS result_id, rn.timestamp AS result_timestamp, ${rawColumns('rn')}, rf.format AS result_format
       FROM tool_calls c LEFT JOIN tool_results r ON r.tool_use_id = c.tool_use_id
       LEFT JOIN nodes rn ON rn.seq = r.node_seq LEFT JOIN files rf ON rf.id = rn.file_id
       WHERE c.node_seq = ? ORDER BY c.ordinal`,
    ),
    records: db.prepare<[string], StoredRawColumns & { type: string; file: string; line: number }>(
      `SELECT r.type, f.path AS file, r.line, ${rawColumns('r')} FROM records r JOIN files f ON f.id = r.file_id
       WHERE r.ref_source_id = ? ORDER BY r.file_id, r.line`,
    ),
    lines: prepareRawLineReader(db),
  };
}
export type NodeQueries = ReturnType<typeof prepareNodeQueries>;

export function getStoredNode(q: NodeQueries, sq: SessionQueries, nodeId: string): StoredNode | null {
  const row = q.node.get(nodeId);
  if (!row) return null;
  const edges = sq.nodeEdges.all(row.seq).map(toEdge);
  const calls = sq.nodeCalls.all(row.seq).map(toCallRef);
  return { seq: row.seq, summary: toNodeSummary(row, edges, calls), file: row.file, format: row.format, line: row.line, raw: q.lines.line(row), rawBytes: row.raw_bytes };
}

export function getStoredToolCalls(q: NodeQueries, seq: number): StoredToolCall[] {
  return q.callResults.all(seq).map((call) => ({
    id: call.tool_use_id,
    name: call.name,
    isError: call.is_error === null ? null : call.is_error !== 0,
    result:
      call.result_id !== null && call.raw !== null
        ? { nodeId: call.result_id, timestamp: call.result_timestamp, raw: q.lines.line(call), format: call.result_format }
        : null,
  }));
}

export function getAttachedRecords(q: NodeQueries, nodeId: string): StoredRecord[] {
  return q.records.all(nodeId).map((row) => ({ type: row.type, file: row.file, line: row.line, raw: q.lines.line(row) }));
}
