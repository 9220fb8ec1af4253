/**
 * The tool calls a Claude Code line answers, as the reconstruction reads them (snapshots/reconstruct/session-effects.ts):
 * the `tool_use_id` of each `tool_result` block of `message.content`, in order. The import keeps them per result line
 * (db/result-ids.ts) so `sessions.states` reads only the result lines whose calls can change files; both read them
 * here, so the two cannot disagree on which blocks count.
 */
/** The kinds of node whose line can carry tool_result blocks (the lines the reconstruction reads results from). */
export const RESULT_KINDS: ReadonlySet<string> = new Set(['tool_result', 'error']);

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The line's content blocks that are objects (message.content; none when it is a string or absent). */
export function contentBlocks(entry: Json): Json[] {
  const message = entry.message;
  const content = isJson(message) ? message.content : undefined;
  return Array.isArray(content) ? content.filter(isJson) : [];
}

/** The tool_result blocks with a string tool_use_id: the ones the reconstruction pairs with their calls. */
export function toolResultBlocks(entry: Json): Json[] {
  return contentBlocks(entry).filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string');
}

export function toolResultIds(entry: Json): string[] {
  return toolResultBlocks(entry).map((block) => block.tool_use_id as string);
}
