/** A stored Codex line's search text, derived again by the full-text indexer with the parser's own rules. */
import { isObject } from '../claude-code/json-shape';
import { summarizeLine } from './rollout-entry';

export function codexSearchText(raw: Uint8Array): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    return '';
  }
  if (!isObject(value) || typeof value.type !== 'string' || !isObject(value.payload)) return '';
  const entry = summarizeLine(value.type, value.payload, null);
  return entry.as === 'step' ? entry.text : '';
}
