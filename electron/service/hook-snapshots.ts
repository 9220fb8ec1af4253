/**
 * Hook snapshots (`arbor snapshot --hook`, FORMATS.md §1.9) are exact captures taken right after a tool call.
 * They make that call's transcript nodes exact: the node carrying the call and the node carrying its result
 * answer with the capture, and the graph hangs the capture below the result.
 */
import type { SessionStore, SnapshotRecord, StoredNode } from '../db/session-store';

/** The kinds of node whose line can carry tool_result blocks. */
const RESULT_KINDS = new Set(['tool_result', 'error']);

/** The newest hook snapshot taken after one of the node's tool calls (or after the call its result answers). */
export function hookSnapshotAt(store: SessionStore, stored: StoredNode): SnapshotRecord | null {
  const toolUseIds = new Set(stored.summary.toolCalls.map((call) => call.id));
  if (RESULT_KINDS.has(stored.summary.kind)) for (const id of resultToolUseIds(stored)) toolUseIds.add(id);
  let newest: SnapshotRecord | null = null;
  for (const id of toolUseIds) {
    for (const record of store.getSnapshotsByToolUse(id)) {
      if (record.kind === 'hook' && (newest === null || record.createdAt >= newest.createdAt)) newest = record;
    }
  }
  return newest;
}

/** The tool_use ids a user line answers (its tool_result blocks). A line cut at the raw limit answers none. */
function resultToolUseIds(stored: StoredNode): string[] {
  if (stored.rawBytes > stored.raw.length) return [];
  let entry: unknown;
  try {
    entry = JSON.parse(stored.raw.toString('utf8'));
  } catch {
    return [];
  }
  const content = (entry as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return [];
  const ids: string[] = [];
  for (const block of content as unknown[]) {
    const { type, tool_use_id: id } = (block ?? {}) as { type?: unknown; tool_use_id?: unknown };
    if (type === 'tool_result' && typeof id === 'string') ids.push(id);
  }
  return ids;
}

/**
 * Where the graph shows a hook snapshot: below its call's result (else the call) once the transcript holding
 * them is imported, else where it was recorded. Only nodes of the graph (`inGraph`) are used as parents.
 */
export function placeHookSnapshot(store: SessionStore, record: SnapshotRecord, inGraph: (nodeId: string) => boolean): SnapshotRecord {
  if (record.kind !== 'hook' || !record.toolUseId) return record;
  const call = store.findToolCall(record.toolUseId);
  const parentId = [call?.resultNodeId, call?.callNodeId].find((id): id is string => typeof id === 'string' && inGraph(id));
  return parentId === undefined || parentId === record.parentId ? record : { ...record, parentId };
}
