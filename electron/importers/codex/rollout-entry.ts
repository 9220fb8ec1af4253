/**
 * What one rollout line is (FORMATS.md §2.2), before the parser gives it a place in the tree: a step (a node)
 * with its label, searchable text and tool calls/results, or a line kept beside the steps (a record).
 * Pure: the parser's state (call names, cwd, the echo rule) lives in parse-rollout.ts.
 */
import type { NodeKind, TokenUsage } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { clip, firstLine, SEARCH_TEXT_LIMIT } from '../claude-code/label-text';
import { MODELLED } from './modelled';
import { codexCallLabel, patchLabel } from './tool-labels';
import { outputText, readToolOutput } from './tool-output';
import { isMergeSummaryText, mergeSummaryLabel } from '../../../shared/merge-summary';

/** Between a repeated call id and its use count, as the parser stores it (`call_7#2`); never in a Codex id. */
export const CALL_USE = '#';

/** A stored call id as the raw lines write it. */
export const rawCallId = (id: string): string => {
  const at = id.lastIndexOf(CALL_USE);
  return at < 0 ? id : id.slice(0, at);
};

export interface StepEntry {
  readonly as: 'step';
  readonly kind: NodeKind;
  /** The label, or for a result the detail after the tool's name (the parser adds the name). */
  readonly label: string;
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly name: string }[];
  readonly results: readonly { readonly toolUseId: string; readonly isError: boolean; readonly text: string }[];
  /**
   * A message Codex writes twice (an `event_msg` for the UI and a `response_item` for the model): the second
   * copy becomes a record beside the first, so the tree shows each message once.
   */
  readonly echo: { readonly role: string; readonly source: 'event' | 'item'; readonly text: string } | null;
}

export interface RecordEntry {
  readonly as: 'record';
  readonly type: string;
  readonly usage?: TokenUsage;
  readonly context?: { readonly model: string | null; readonly cwd: string | null };
}

export type RolloutEntry = StepEntry | RecordEntry;

export interface SessionMeta {
  readonly id: string | null;
  readonly cwd: string | null;
  readonly version: string | null;
  readonly gitBranch: string | null;
  readonly forkedFromId: string | null;
  readonly parentThreadId: string | null;
  readonly subagent: boolean;
}

/** The top-level line types of a rollout; a line whose type is one of these with a `payload` object is Codex's. */
export const ROLLOUT_LINE_TYPES: ReadonlySet<string> = new Set(MODELLED.lineTypes);

/** Harness context Codex sends as `user`/`developer` messages: shown as system steps, not prompts. */
const CONTEXT_PREFIXES = ['<environment_context>', '<user_instructions>', '# AGENTS.md', '<permissions', '<INSTRUCTIONS>', '<turn_aborted>'];

export function readSessionMeta(payload: JsonObject): SessionMeta {
  const git = isObject(payload.git) ? payload.git : null;
  const source = payload.source;
  const subagentSource = isObject(source) && 'subagent' in source;
  const parent =
    stringOf(payload.parent_thread_id) ??
    (subagentSource ? findString(source, 'parent_thread_id') : null);
  return {
    id: stringOf(payload.id),
    cwd: stringOf(payload.cwd),
    version: stringOf(payload.cli_version),
    gitBranch: git === null ? null : stringOf(git.branch),
    forkedFromId: stringOf(payload.forked_from_id),
    parentThreadId: parent,
    subagent: subagentSource || parent !== null,
  };
}

export function summarizeLine(type: string, payload: JsonObject, cwd: string | null): RolloutEntry {
  switch (type) {
    case 'session_meta': {
      const meta = readSessionMeta(payload);
      const where = meta.cwd === null ? '' : ` in ${meta.cwd}`;
      const how = meta.forkedFromId !== null ? 'Codex fork' : meta.subagent ? 'Codex subagent' : 'Codex session';
      return step('system', clip(`${how}${where}`), '');
    }
    case 'turn_context':
      return { as: 'record', type: 'turn_context', context: { model: stringOf(payload.model), cwd: stringOf(payload.cwd) } };
    case 'compacted': {
      const summary = stringOf(payload.message) ?? '';
      return step('compaction', summary.length === 0 ? 'Compacted' : clip(`Compacted: ${firstLine(summary, 100)}`), summary);
    }
    case 'response_item':
      return responseItem(payload, cwd);
    case 'event_msg':
      return eventMessage(payload, cwd);
    default:
      return { as: 'record', type };
  }
}

function responseItem(payload: JsonObject, cwd: string | null): RolloutEntry {
  const itemType = stringOf(payload.type) ?? 'unknown';
  switch (itemType) {
    case 'message': {
      const role = stringOf(payload.role) ?? 'user';
      const text = contentText(payload.content);
      return message(role, text, 'item');
    }
    case 'reasoning': {
      const text = reasoningText(payload);
      return { ...step('thinking', text.length === 0 ? 'Reasoning' : firstLine(text), text), echo: text.length === 0 ? null : { role: 'reasoning', source: 'item', text } };
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call': {
      const id = stringOf(payload.call_id) ?? stringOf(payload.id);
      const name = stringOf(payload.name) ?? (itemType === 'local_shell_call' ? 'local_shell' : 'tool');
      const args = itemType === 'function_call' ? parseArguments(payload.arguments) : itemType === 'custom_tool_call' ? payload.input : (isObject(payload.action) ? payload.action : {});
      const label = codexCallLabel(name, args, cwd);
      const text = `${name} ${typeof args === 'string' ? args : JSON.stringify(args ?? {})}`;
      return { ...step('tool_call', label, text), calls: id === null ? [] : [{ id, name }] };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const id = stringOf(payload.call_id);
      const output = readToolOutput(payload.output);
      if (id === null) return step(output.isError ? 'error' : 'tool_result', firstLine(output.text), output.text);
      return { ...step(output.isError ? 'error' : 'tool_result', output.text, output.text), results: [{ toolUseId: id, isError: output.isError, text: output.text }] };
    }
    case 'web_search_call': {
      const action = isObject(payload.action) ? payload.action : {};
      const query = stringOf(action.query) ?? '';
      return step('tool_call', clip(query.length === 0 ? 'web search' : `web search: ${firstLine(query, 100)}`), query);
    }
    case 'compaction':
    case 'compaction_summary':
      return step('compaction', 'Compacted', contentText(payload.content));
    case 'ghost_snapshot':
      return { as: 'record', type: 'ghost_snapshot' };
    default:
      return step('unknown', itemType, '');
  }
}

function eventMessage(payload: JsonObject, cwd: string | null): RolloutEntry {
  const eventType = stringOf(payload.type) ?? 'unknown';
  switch (eventType) {
    case 'user_message':
      return message('user', stringOf(payload.message) ?? '', 'event');
    case 'agent_message':
      return message('assistant', stringOf(payload.message) ?? '', 'event');
    case 'agent_reasoning': {
      const text = stringOf(payload.text) ?? '';
      return { ...step('thinking', text.length === 0 ? 'Reasoning' : firstLine(text), text), echo: { role: 'reasoning', source: 'event', text } };
    }
    case 'turn_aborted': {
      const reason = stringOf(payload.reason);
      return step('system', reason === null ? 'Turn interrupted' : `Turn interrupted (${reason})`, '');
    }
    case 'error': {
      const text = stringOf(payload.message) ?? '';
      return step('error', clip(text.length === 0 ? 'Error' : `Error: ${firstLine(text, 100)}`), text);
    }
    case 'token_count': {
      const info = isObject(payload.info) ? payload.info : null;
      const usage = info !== null && isObject(info.last_token_usage) ? readUsage(info.last_token_usage) : null;
      return usage === null ? { as: 'record', type: 'token_count' } : { as: 'record', type: 'token_count', usage };
    }
    case 'item_completed':
      return isObject(payload.item) ? completedItem(payload.item, cwd) : { as: 'record', type: 'item_completed' };
    default:
      return { as: 'record', type: eventType };
  }
}

/**
 * The paginated history mode: each finished item of a turn is one `item_completed` event. Item types are
 * PascalCase in the core protocol and camelCase in the app server; both are read.
 */
function completedItem(item: JsonObject, cwd: string | null): RolloutEntry {
  const itemType = (stringOf(item.type) ?? '').replace(/_/g, '').toLowerCase();
  const id = stringOf(item.id);
  switch (itemType) {
    case 'usermessage':
      return message('user', contentText(item.content) || (stringOf(item.text) ?? stringOf(item.message) ?? ''), 'item');
    case 'agentmessage':
      return message('assistant', contentText(item.content) || (stringOf(item.text) ?? ''), 'item');
    case 'reasoning': {
      const text = [item.summary_text, item.summary, item.text].map(textOf).find((part) => part.length > 0) ?? '';
      return step('thinking', text.length === 0 ? 'Reasoning' : firstLine(text), text);
    }
    case 'commandexecution': {
      const command = item.command;
      const exitCode = typeof item.exit_code === 'number' ? item.exit_code : typeof item.exitCode === 'number' ? item.exitCode : null;
      const output = textOf(item.aggregated_output ?? item.aggregatedOutput ?? item.output);
      const status = stringOf(item.status);
      const failed = (exitCode !== null && exitCode !== 0) || status === 'failed' || status === 'declined';
      return both('exec_command', id, codexCallLabel('exec_command', { cmd: command }, cwd), `${textOf(command)}\n${output}`, failed);
    }
    case 'filechange': {
      const changes = Array.isArray(item.changes) ? item.changes : isObject(item.changes) ? Object.entries(item.changes).map(([path, change]) => ({ path, ...(isObject(change) ? change : {}) })) : [];
      const patch = changes
        .map((change) => (isObject(change) ? `*** ${changeVerb(change)} File: ${stringOf(change.path) ?? ''}` : ''))
        .join('\n');
      const status = stringOf(item.status);
      const failed = status === 'failed' || status === 'declined' || item.success === false;
      return both('apply_patch', id, patchLabel(patch, cwd), patch, failed);
    }
    case 'plan':
    case 'todolist': {
      const text = textOf(item.text ?? item.items ?? item.plan);
      return step('assistant', clip(`Plan: ${firstLine(text, 100)}`), text);
    }
    case 'websearch': {
      const query = stringOf(item.query) ?? '';
      return step('tool_call', clip(query.length === 0 ? 'web search' : `web search: ${firstLine(query, 100)}`), query);
    }
    case 'contextcompaction':
      return step('compaction', 'Compacted', textOf(item.summary ?? item.message));
    case 'mcptoolcall': {
      const name = `mcp__${stringOf(item.server) ?? 'mcp'}__${stringOf(item.tool) ?? 'tool'}`;
      const failed = stringOf(item.status) === 'failed' || isObject(item.error);
      return both(name, id, codexCallLabel(name, item.arguments, cwd), `${name} ${JSON.stringify(item.arguments ?? {})}`, failed);
    }
    default:
      return { as: 'record', type: `item_completed:${stringOf(item.type) ?? 'unknown'}` };
  }
}

/** A finished command or file change is its call and its outcome in one line. */
function both(name: string, id: string | null, label: string, text: string, failed: boolean): StepEntry {
  const base = step(failed ? 'error' : 'tool_call', label, text);
  if (id === null) return base;
  return { ...base, calls: [{ id, name }], results: [{ toolUseId: id, isError: failed, text: '' }] };
}

function changeVerb(change: JsonObject): string {
  // The app server's kind is a tagged object (`{type: "add"}`), the core's a string.
  const kind = (isObject(change.kind) ? textOf(change.kind.type) : textOf(change.kind ?? change.type)).toLowerCase();
  return kind.includes('add') ? 'Add' : kind.includes('delete') ? 'Delete' : 'Update';
}

function message(role: string, text: string, source: 'event' | 'item'): StepEntry {
  // Arbor's block after "Continue from the merge" (a developer message): theirs' history, never a prompt.
  if (role !== 'assistant' && isMergeSummaryText(text)) return { ...step('merge-summary', mergeSummaryLabel(text), text), echo: { role, source, text } };
  const context = role !== 'assistant' && CONTEXT_PREFIXES.some((prefix) => text.trimStart().startsWith(prefix));
  const kind: NodeKind = role === 'assistant' ? 'assistant' : role === 'user' && !context ? 'user' : 'system';
  const label = firstLine(text);
  return { ...step(kind, label.length === 0 ? (kind === 'user' ? '(empty prompt)' : role) : label, text), echo: { role, source, text } };
}

function step(kind: NodeKind, label: string, text: string): StepEntry {
  return { as: 'step', kind, label, text: text.length > SEARCH_TEXT_LIMIT ? text.slice(0, SEARCH_TEXT_LIMIT) : text, calls: [], results: [], echo: null };
}

/** OpenAI's usage counts cached input inside input_tokens; Arbor's TokenUsage (like Claude's) keeps them apart. */
export function readUsage(usage: JsonObject): TokenUsage | null {
  const input = typeof usage.input_tokens === 'number' ? usage.input_tokens : null;
  const output = typeof usage.output_tokens === 'number' ? usage.output_tokens : null;
  if (input === null && output === null) return null;
  const cached = typeof usage.cached_input_tokens === 'number' ? usage.cached_input_tokens : 0;
  return { inputTokens: Math.max(0, (input ?? 0) - cached), outputTokens: output ?? 0, cacheReadTokens: cached, cacheCreationTokens: 0 };
}

export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return outputText(content);
}

function reasoningText(payload: JsonObject): string {
  const summary = Array.isArray(payload.summary) ? outputText(payload.summary) : '';
  return summary.length > 0 ? summary : contentText(payload.content);
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter((part) => part.length > 0).join('\n');
  if (isObject(value)) return typeof value.text === 'string' ? value.text : typeof value.step === 'string' ? value.step : '';
  return '';
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function findString(object: JsonObject, key: string): string | null {
  for (const value of Object.values(object)) {
    if (isObject(value)) {
      const found = stringOf(value[key]) ?? findString(value, key);
      if (found !== null) return found;
    }
  }
  return null;
}
