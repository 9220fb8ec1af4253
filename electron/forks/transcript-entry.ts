/** What the resumable-transcript planner needs to know about one Claude Code line, read from its JSON. */

export interface TranscriptEntry {
  readonly id: string;
  /** The line exactly as stored in the transcript (without its newline). */
  readonly text: string;
  readonly type: string;
  /** The Claude Code session the line was written in (a resumed session's file holds several). */
  readonly sessionId: string | null;
  readonly parentUuid: string | null;
  /** Assistant lines: the API message they belong to (one message is written as several lines in 2.x). */
  readonly messageId: string | null;
  readonly toolUses: readonly string[];
  readonly toolResults: readonly string[];
  /** A user line whose content is tool_result blocks only. */
  readonly onlyToolResults: boolean;
  readonly compactBoundary: boolean;
  readonly compactSummary: boolean;
  readonly sidechain: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses one line; throws SyntaxError when it is not a complete JSON object. */
export function readTranscriptEntry(id: string, text: string): TranscriptEntry {
  const entry = JSON.parse(text) as unknown;
  if (!isObject(entry)) throw new SyntaxError('not a JSON object');
  const type = typeof entry.type === 'string' ? entry.type : '';
  const message = isObject(entry.message) ? entry.message : null;
  const blocks = message !== null && Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const toolUses: string[] = [];
  const toolResults: string[] = [];
  if (type === 'assistant') {
    for (const block of blocks) if (block.type === 'tool_use' && typeof block.id === 'string') toolUses.push(block.id);
  } else if (type === 'user') {
    for (const block of blocks) if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') toolResults.push(block.tool_use_id);
  }
  return {
    id,
    text,
    type,
    sessionId: typeof entry.sessionId === 'string' ? entry.sessionId : null,
    parentUuid: typeof entry.parentUuid === 'string' ? entry.parentUuid : null,
    messageId: type === 'assistant' && message !== null && typeof message.id === 'string' ? message.id : null,
    toolUses,
    toolResults,
    onlyToolResults: toolResults.length > 0 && blocks.length === toolResults.length,
    compactBoundary: type === 'system' && entry.subtype === 'compact_boundary',
    compactSummary: type === 'user' && entry.isCompactSummary === true,
    sidechain: entry.isSidechain === true,
  };
}

/** Lines the model sees as messages; the rest (system, progress, attachment, …) only thread the chain. */
export function isConversational(entry: TranscriptEntry): boolean {
  return entry.type === 'user' || entry.type === 'assistant';
}
