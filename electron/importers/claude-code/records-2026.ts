/**
 * The record types, `system` subtypes and content blocks Claude Code started writing in 2026 (issue 13), as
 * this importer models them. FORMATS.md describes only the older shapes. The names and fields were first
 * modelled from the issue's description (model_fallback, agent_killed, scheduled_task); public parsers of real
 * 2.1.x transcripts spell them otherwise, and these follow them (found with the code search, December 2026):
 * - a Claude Code session validator's `isAppSystemEntry` / `isMetadataEntry`: system subtypes
 *   `model_refusal_fallback`, `scheduled_task_fire` (each with a string `content`), an assistant block
 *   `fallback` ({from: {model}, to: {model}}), and `content-replacement` as {sessionId, replacements: [...]};
 * - a Rust transcript viewer's registry of "Claude Code 2.1.x data": subtypes `scheduled_task_fire`,
 *   `agents_killed` (plural), `model_refusal_fallback`, `model_consent_fallback`, block `fallback`;
 * - a live session monitor's system-line handler: `model_refusal_fallback` carries `originalModel`,
 *   `fallbackModel` and `apiRefusalCategory`;
 * - Claude Code's own bundle (`insertContentReplacement`): {type: 'content-replacement', sessionId, agentId,
 *   replacements}; advisor calls are a `server_tool_use` block named `advisor` answered by an
 *   `advisor_tool_result` whose `content` is one object (`advisor_result`, `advisor_redacted_result`, or
 *   `advisor_tool_result_error` with `error_code`).
 * The three lists are what `arbor doctor` counts as modelled (its registry, modelled.ts, takes them in).
 */
import { isObject, stringField, type JsonObject } from './json-shape';
import { clip, firstLine } from './label-text';

/** Lines without a uuid, kept as records beside the node they belong to. */
export const RECORD_TYPES = [
  'relocated', // {sessionId, relocatedCwd}: the session's folder moved (folders-in-force.ts)
  'worktree-state', // {worktreeSession: {originalCwd, worktreePath, …} | null}: the session works in a git worktree, or no more
  'file-history-delta', // {messageId, trackingPath, backup: {backupFileName, version, backupTime, realParentDir?}}: one edit's backup
  'custom-title', // {customTitle}: the title the user gave (/rename); the last one wins
  'ai-title', // {aiTitle}: a title Claude Code generated; the newest one is used when no custom title exists
  'content-replacement', // {sessionId, agentId?, replacements: [...]}: what Claude Code sent instead of a tool result; carried into forks
] as const;

/** `system` lines with these subtypes are labelled for what happened (systemLabel2026); each carries its own `content`. */
export const SYSTEM_SUBTYPES = ['model_refusal_fallback', 'model_consent_fallback', 'agents_killed', 'scheduled_task_fire'] as const;

/**
 * Assistant content blocks beyond text/thinking/tool_use: server tools (the advisor among them) and their
 * results. The `fallback` block ({from: {model}, to: {model}}) is not modelled yet: a line holding only it
 * has no label of its own, so `arbor doctor` still lists it.
 */
export const BLOCK_TYPES = ['server_tool_use', 'advisor_tool_result', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result'] as const;

export type RecordType2026 = (typeof RECORD_TYPES)[number];
const RECORD_TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES);
export const isRecordType2026 = (type: string): type is RecordType2026 => RECORD_TYPE_SET.has(type);

/** The node a 2026 record names by its own key (a delta's messageId); null: it belongs where it stands in the file. */
export function recordReference(entry: JsonObject, type: string): string | null {
  return type === 'file-history-delta' ? stringField(entry, 'messageId') : null;
}

/** A title record's text (kept in the record's summary column), or null. */
export function recordTitle(entry: JsonObject, type: string): string | null {
  let title: string | null = null;
  if (type === 'custom-title') title = stringField(entry, 'customTitle') ?? stringField(entry, 'title');
  else if (type === 'ai-title') title = stringField(entry, 'aiTitle') ?? stringField(entry, 'title');
  const trimmed = title?.trim() ?? '';
  return trimmed === '' ? null : clip(firstLine(trimmed), 200);
}

/**
 * What a 2026 `system` line says happened, in words (label and inspector text); null for any other subtype.
 * A line's own `content` is Claude Code's wording and stays its text; this is used where there is none.
 */
export function systemText2026(entry: JsonObject, subtype: string | null): string | null {
  switch (subtype) {
    case 'model_refusal_fallback':
    case 'model_consent_fallback': {
      const from = stringField(entry, 'originalModel');
      const to = stringField(entry, 'fallbackModel');
      const why = stringField(entry, 'apiRefusalCategory');
      const change = from !== null && to !== null ? `from ${from} to ${to}` : to !== null ? `to ${to}` : from !== null ? `from ${from}` : '';
      return `Model fell back${change === '' ? '' : ` ${change}`}${why === null ? '' : ` (${firstLine(why)})`}`;
    }
    case 'agents_killed':
      return 'Agents killed';
    case 'scheduled_task_fire':
      return 'Scheduled task fired';
    default:
      return null;
  }
}

/** Label of a 2026 system line: its content's first line when Claude Code wrote one, else what happened. */
export function systemLabel2026(entry: JsonObject, subtype: string | null): string | null {
  const text = systemText2026(entry, subtype);
  if (text === null) return null;
  const content = stringField(entry, 'content');
  return clip(content !== null && content.trim() !== '' ? firstLine(content) : text);
}

/**
 * A server tool's result block in an assistant message (`advisor_tool_result`, `web_search_tool_result`, …):
 * its label ("Advisor: …") and search text. Null for other blocks.
 */
export function serverResultText(block: JsonObject): { readonly name: string; readonly label: string; readonly text: string } | null {
  const type = stringField(block, 'type');
  if (type === null || !type.endsWith('_tool_result') || type === 'tool_result') return null;
  const tool = type.slice(0, -'_tool_result'.length).replace(/_/g, ' ');
  const text = resultText(block.content);
  const name = tool.charAt(0).toUpperCase() + tool.slice(1);
  return { name, label: clip(text === '' ? `${name} result` : `${name}: ${firstLine(text)}`), text };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  const items = Array.isArray(content) ? content : [content];
  for (const item of items) {
    if (typeof item === 'string') parts.push(item);
    else if (isObject(item)) {
      const text = stringField(item, 'text') ?? stringField(item, 'advice') ?? stringField(item, 'title') ?? stringField(item, 'error_code');
      if (text !== null) parts.push(text);
    }
  }
  return parts.join('\n');
}
