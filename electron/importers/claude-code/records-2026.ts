/**
 * The record types, `system` subtypes and content blocks Claude Code started writing in 2026 (issue 13), as
 * this importer models them. FORMATS.md describes only the older shapes; the fields read here are the ones
 * the issue names, with the spellings seen for the same thing in neighbouring records where it names none.
 * The three lists are what `arbor doctor` counts as modelled (its registry, modelled.ts, takes them in).
 */
import { isObject, objectField, stringField, type JsonObject } from './json-shape';
import { clip, firstLine } from './label-text';

/** Lines without a uuid, kept as records beside the node they belong to. */
export const RECORD_TYPES = [
  'relocated', // {sessionId, relocatedCwd}: the session's folder moved (folders-in-force.ts)
  'worktree-state', // {worktreeSession: {originalCwd, worktreePath, …} | null}: the session works in a git worktree, or no more
  'file-history-delta', // {messageId, trackingPath, backup: {backupFileName, version, backupTime, realParentDir?}}: one edit's backup
  'custom-title', // {customTitle}: the title the user gave (/rename); the last one wins
  'ai-title', // {aiTitle}: a title Claude Code generated; the newest one is used when no custom title exists
  'content-replacement', // {replacements: [{toolUseId, …}]}: what Claude Code sent instead of a tool result; carried into forks
] as const;

/** `system` lines with these subtypes are labelled for what happened (systemLabel2026). */
export const SYSTEM_SUBTYPES = ['model_fallback', 'agent_killed', 'scheduled_task'] as const;

/** Assistant content blocks beyond text/thinking/tool_use: server tools (the advisor among them) and their results. */
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
    case 'model_fallback': {
      const from = stringField(entry, 'fromModel') ?? stringField(entry, 'originalModel') ?? stringField(entry, 'model');
      const to = stringField(entry, 'toModel') ?? stringField(entry, 'fallbackModel');
      const reason = stringField(entry, 'reason');
      const change = from !== null && to !== null ? `from ${from} to ${to}` : to !== null ? `to ${to}` : from !== null ? `from ${from}` : '';
      return `Model fell back${change === '' ? '' : ` ${change}`}${reason === null ? '' : ` (${firstLine(reason)})`}`;
    }
    case 'agent_killed': {
      const name = stringField(entry, 'description') ?? stringField(entry, 'agentType') ?? stringField(entry, 'agentId');
      const reason = stringField(entry, 'reason');
      return `Agent killed${name === null ? '' : `: ${firstLine(name)}`}${reason === null ? '' : ` (${firstLine(reason)})`}`;
    }
    case 'scheduled_task': {
      const task = objectField(entry, 'task') ?? entry;
      const name = stringField(task, 'name') ?? stringField(task, 'taskName') ?? stringField(task, 'description') ?? stringField(task, 'prompt');
      const event = stringField(entry, 'event') ?? stringField(entry, 'status') ?? stringField(task, 'status');
      const schedule = stringField(task, 'schedule') ?? stringField(task, 'cron');
      const what = name === null ? '' : `: ${firstLine(name)}`;
      return `Scheduled task${event === null ? '' : ` ${event}`}${what}${schedule === null ? '' : ` (${schedule})`}`;
    }
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
