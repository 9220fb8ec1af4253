/** Narrowing helpers for parsed transcript JSON, whose shape is never guaranteed (FORMATS.md §1.2). */
import type { TokenUsage } from '../../../shared/model';

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === 'string' ? value : null;
}

export function numberField(object: JsonObject, key: string): number | null {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function objectField(object: JsonObject, key: string): JsonObject | null {
  const value = object[key];
  return isObject(value) ? value : null;
}

/** `message.usage` in the Anthropic API's snake_case, as Arbor's TokenUsage. */
export function readUsage(message: JsonObject | null): TokenUsage | null {
  const usage = message === null ? null : objectField(message, 'usage');
  if (usage === null) return null;
  return {
    inputTokens: numberField(usage, 'input_tokens') ?? 0,
    outputTokens: numberField(usage, 'output_tokens') ?? 0,
    cacheReadTokens: numberField(usage, 'cache_read_input_tokens') ?? 0,
    cacheCreationTokens: numberField(usage, 'cache_creation_input_tokens') ?? 0,
  };
}

/**
 * The text of a tool_result's `content` (a string, or text/image blocks), stopping once `limit` chars are
 * gathered so a multi-MB output is not copied just to be cut.
 */
export function toolResultText(content: unknown, limit = Number.POSITIVE_INFINITY): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  let length = 0;
  for (const item of content) {
    if (length >= limit) break;
    let piece: string | null = null;
    if (typeof item === 'string') piece = item;
    else if (isObject(item)) {
      if (item.type === 'text' && typeof item.text === 'string') piece = item.text;
      else if (item.type === 'image') piece = '[image]';
    }
    if (piece === null) continue;
    parts.push(piece);
    length += piece.length + 1;
  }
  return parts.join('\n');
}
