/**
 * One rollout line as the fork writer and the structure rules read it (FORMATS.md §2.1–2.2): its envelope
 * (`{timestamp, type, payload}`, optional `ordinal`) and what it is for a turn — the lines that open a turn
 * (`task_started`, `turn_context`, the harness's context messages, the user's message and its echo), the lines
 * that end one (`task_complete`, `turn_aborted`), tool calls and their outputs (paired by `call_id`).
 */
import { isObject, type JsonObject } from '../../importers/claude-code/json-shape';

export interface RolloutLineView {
  /** 0-based position among the file's lines. */
  readonly index: number;
  readonly text: string;
  /** The parsed line, or null when it is not a JSON object. */
  readonly value: JsonObject | null;
  readonly type: string | null;
  readonly payload: JsonObject | null;
  /** `payload.type` (a response item's or an event's kind). */
  readonly kind: string | null;
}

export function viewLine(text: string, index: number): RolloutLineView {
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (!isObject(value)) return { index, text, value: null, type: null, payload: null, kind: null };
  const payload = isObject(value.payload) ? value.payload : null;
  return {
    index,
    text,
    value,
    type: typeof value.type === 'string' ? value.type : null,
    payload,
    kind: payload !== null && typeof payload.type === 'string' ? payload.type : null,
  };
}

/** A file's text as lines (a final line without its newline is kept; `endsWithNewline` says so). */
export function splitRollout(text: string): { readonly lines: string[]; readonly endsWithNewline: boolean } {
  const endsWithNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

/**
 * Messages the harness sends as `user`/`developer` before the person's prompt (instructions, environment):
 * Codex's own fork does not count them as user turns (core/src/rollout/truncation.rs skips session-prefix
 * messages when it finds the nth user message).
 */
const CONTEXT_PREFIXES = ['<environment_context>', '<user_instructions>', '# AGENTS.md', '<permissions', '<INSTRUCTIONS>', '<turn_aborted>', '<skill', '<user_shell_command>'];

function messageText(payload: JsonObject): string {
  const content = payload.content;
  if (!Array.isArray(content)) return '';
  return content.map((item) => (isObject(item) && typeof item.text === 'string' ? item.text : '')).join('');
}

/** The person's prompt: a user message that is not harness context, its UI echo, or a paginated UserMessage item. */
export function isUserPrompt(line: RolloutLineView): boolean {
  const payload = line.payload;
  if (payload === null) return false;
  if (line.type === 'response_item' && line.kind === 'message' && payload.role === 'user') {
    const text = messageText(payload).trimStart();
    return !CONTEXT_PREFIXES.some((prefix) => text.startsWith(prefix));
  }
  if (line.type === 'event_msg' && line.kind === 'user_message') return true;
  if (line.type === 'event_msg' && line.kind === 'item_completed' && isObject(payload.item)) {
    const itemType = payload.item.type;
    return itemType === 'UserMessage' || itemType === 'userMessage';
  }
  return false;
}

/** A line that belongs to a turn's opening: task start, turn settings, context messages, the prompt and its echo. */
export function opensTurn(line: RolloutLineView): boolean {
  if (line.type === 'turn_context') return true;
  if (line.type === 'event_msg' && line.kind === 'task_started') return true;
  if (line.type === 'response_item' && line.kind === 'message' && (line.payload?.role === 'user' || line.payload?.role === 'developer')) return true;
  return isUserPrompt(line);
}

/** The line that closes a turn: the task's completion, or the person stopping it. */
export function endsTurn(line: RolloutLineView): boolean {
  return line.type === 'event_msg' && (line.kind === 'task_complete' || line.kind === 'turn_aborted');
}

const CALL_KINDS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_KINDS = new Set(['function_call_output', 'custom_tool_call_output']);

/** The call id a response item opens (a tool call) or answers (its output). */
export function callOf(line: RolloutLineView): { readonly role: 'call' | 'output'; readonly callId: string } | null {
  if (line.type !== 'response_item' || line.payload === null || line.kind === null) return null;
  const callId = line.payload.call_id;
  if (typeof callId !== 'string' || callId.length === 0) return null;
  if (CALL_KINDS.has(line.kind)) return { role: 'call', callId };
  if (OUTPUT_KINDS.has(line.kind)) return { role: 'output', callId };
  return null;
}

/**
 * Where each turn opens: the first line of every run of opening lines that holds a prompt. A fork is cut at
 * one of these (or at the end of a turn), never inside a turn.
 */
export function turnOpenings(lines: readonly RolloutLineView[]): number[] {
  const openings: number[] = [];
  let runStart: number | null = null;
  let runHasPrompt = false;
  const close = (): void => {
    if (runStart !== null && runHasPrompt) openings.push(runStart);
    runStart = null;
    runHasPrompt = false;
  };
  for (const line of lines) {
    if (!opensTurn(line)) {
      close();
      continue;
    }
    // A new task start begins a new opening even right after another run (an empty turn before it).
    if (runStart !== null && line.type === 'event_msg' && line.kind === 'task_started') close();
    runStart ??= line.index;
    if (isUserPrompt(line)) runHasPrompt = true;
  }
  close();
  return openings;
}
