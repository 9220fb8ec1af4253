/**
 * Records a resumable copy carries beside its lines (issue 13). Claude Code 2026 writes `content-replacement`
 * records (what it sent the model instead of some tool results: `{replacements: [{toolUseId, …}]}`); a resumed
 * session that lacks them sends the originals and no longer matches what the model saw. Each record goes
 * right after the last copied line it refers to (a tool result it names, a uuid it names, else the line it
 * stood after in its file), in the order they were written; replacements for lines the copy leaves out are
 * dropped, and a record left with none is not carried.
 */
import type { SessionRecord } from '../db/session-store';
import type { ResumablePlan } from './resumable-plan';

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** Copied line id → the records' lines (JSON text, no newline) to write after it, in order. */
export type CarriedLines = ReadonlyMap<string, readonly string[]>;

export function carriedRecords(records: readonly SessionRecord[], plan: ResumablePlan, sessionId: string): CarriedLines {
  const position = new Map<string, number>();
  const byToolUse = new Map<string, string>();
  plan.lines.forEach(({ entry }, index) => {
    position.set(entry.id, index);
    for (const toolUseId of entry.toolResults) byToolUse.set(toolUseId, entry.id);
  });
  const carried = new Map<string, string[]>();
  for (const record of records) {
    let entry: unknown;
    try {
      entry = JSON.parse(record.raw.toString('utf8'));
    } catch {
      continue;
    }
    if (!isJson(entry)) continue;
    const lineOf = (item: Json): string | null => {
      const toolUseId = str(item.toolUseId) ?? str(item.tool_use_id) ?? str(item.toolUseID);
      if (toolUseId !== null) return byToolUse.get(toolUseId) ?? null;
      const uuid = str(item.uuid) ?? str(item.messageUuid) ?? str(item.messageId);
      return uuid !== null && position.has(uuid) ? uuid : null;
    };
    const items = Array.isArray(entry.replacements) ? entry.replacements.filter(isJson) : [];
    let after: string | null = null;
    let copy: Json;
    if (items.length > 0) {
      const kept = items.filter((item) => lineOf(item) !== null);
      if (kept.length === 0) continue;
      for (const item of kept) after = later(position, after, lineOf(item)!);
      copy = { ...entry, replacements: kept };
    } else {
      after = lineOf(entry) ?? (record.refSourceId !== null && position.has(record.refSourceId) ? record.refSourceId : null);
      if (after === null) continue;
      copy = { ...entry };
    }
    if ('sessionId' in copy) copy.sessionId = sessionId;
    const list = carried.get(after!) ?? [];
    list.push(JSON.stringify(copy));
    carried.set(after!, list);
  }
  return carried;
}

function later(position: ReadonlyMap<string, number>, a: string | null, b: string): string {
  return a === null || position.get(b)! > position.get(a)! ? b : a;
}
