/** Whether a file is a Codex rollout, by its first lines (FORMATS.md §2.1: `{timestamp, type, payload}`). */
import { parseJsonObject } from '../file-head';
import { ROLLOUT_LINE_TYPES } from './rollout-entry';

/** A first line cut by the head's size still shows its envelope: `{"timestamp":"…","type":"session_meta","payload":`. */
const ENVELOPE = /^\{"timestamp":"[^"]*","type":"(session_meta|response_item|event_msg|turn_context|compacted)","payload":/;

export function isRolloutLine(line: string): boolean {
  const value = parseJsonObject(line);
  if (value === null) return ENVELOPE.test(line);
  const payload = value.payload;
  return typeof value.type === 'string' && ROLLOUT_LINE_TYPES.has(value.type) && typeof payload === 'object' && payload !== null && !('uuid' in value);
}

/** The thread id from a rollout's session_meta line, when its head has one. */
export function rolloutThreadId(lines: readonly string[]): string | null {
  for (const line of lines) {
    const value = parseJsonObject(line);
    if (value === null || value.type !== 'session_meta') continue;
    const payload = value.payload as Record<string, unknown> | null;
    if (payload !== null && typeof payload === 'object' && typeof payload.id === 'string' && payload.id.length > 0) return payload.id;
  }
  return null;
}
