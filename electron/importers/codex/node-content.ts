/**
 * A Codex node's content for the inspector and the conversation view, read back from its stored line:
 * messages as text, reasoning (legacy summaries, `agent_reasoning`, paginated items) as thinking, calls as
 * tool_use (arguments parsed) with their format-neutral shape (call-shape.ts), outputs as tool_result with
 * the exit code they report.
 */
import type { ContentBlock, ToolCallShape } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import type { NodeContent } from '../claude-code/node-content';
import { brief, codexCallShape, fileChangeShape, planShape } from './call-shape';
import { contentText, readSessionMeta } from './rollout-entry';
import { readToolOutput } from './tool-output';

export function readCodexNodeContent(raw: string): NodeContent {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return { blocks: [], usage: null, cwd: null, gitBranch: null, version: null, model: null };
  }
  const value: JsonObject = isObject(line) ? line : {};
  const type = typeof value.type === 'string' ? value.type : '';
  const payload: JsonObject = isObject(value.payload) ? value.payload : {};
  const meta = type === 'session_meta' ? readSessionMeta(payload) : null;
  return {
    blocks: blocksOf(type, payload),
    usage: null,
    cwd: meta?.cwd ?? null,
    gitBranch: meta?.gitBranch ?? null,
    version: meta?.version ?? null,
    model: null,
  };
}

function blocksOf(type: string, payload: JsonObject): ContentBlock[] {
  const inner = typeof payload.type === 'string' ? payload.type : '';
  if (type === 'compacted') return text(typeof payload.message === 'string' ? payload.message : '');
  if (type === 'event_msg') {
    if (inner === 'user_message' || inner === 'agent_message') return text(typeof payload.message === 'string' ? payload.message : '');
    if (inner === 'agent_reasoning') return [{ type: 'thinking', text: typeof payload.text === 'string' ? payload.text : '', redacted: false }];
    if (inner === 'item_completed' && isObject(payload.item)) return itemBlocks(payload.item);
    return [{ type: 'other', blockType: inner || type, json: payload }];
  }
  if (type !== 'response_item') return [{ type: 'other', blockType: type, json: payload }];
  const callId = typeof payload.call_id === 'string' ? payload.call_id : '';
  switch (inner) {
    case 'message':
      return text(contentText(payload.content));
    case 'reasoning': {
      const summary = Array.isArray(payload.summary) ? contentText(payload.summary) : '';
      const body = summary.length > 0 ? summary : contentText(payload.content);
      return [{ type: 'thinking', text: body, redacted: body.length === 0 && typeof payload.encrypted_content === 'string' }];
    }
    case 'function_call': {
      const input = parseArguments(payload.arguments);
      const name = String(payload.name ?? 'tool');
      return [use(callId, name, input, codexCallShape(name, input, typeof payload.namespace === 'string' ? payload.namespace : null))];
    }
    case 'custom_tool_call': {
      const name = String(payload.name ?? 'tool');
      return [use(callId, name, { input: payload.input }, codexCallShape(name, payload.input))];
    }
    case 'local_shell_call': {
      const action = isObject(payload.action) ? payload.action : {};
      return [use(callId, 'local_shell', action, codexCallShape('local_shell', action))];
    }
    case 'web_search_call': {
      const action = isObject(payload.action) ? payload.action : {};
      const query = typeof action.query === 'string' ? action.query : Array.isArray(action.queries) ? action.queries.filter((q) => typeof q === 'string').join(' · ') : '';
      return [use(callId, 'web_search', action, brief('web_search', query))];
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = readToolOutput(payload.output);
      return [{ type: 'tool_result', toolUseId: callId, text: output.text, isError: output.isError, exitCode: output.exitCode, ...(output.running ? { running: true } : {}) }];
    }
    default:
      return [{ type: 'other', blockType: inner || type, json: payload }];
  }
}

function itemBlocks(item: JsonObject): ContentBlock[] {
  const itemType = String(item.type ?? '').replace(/_/g, '').toLowerCase();
  const id = typeof item.id === 'string' ? item.id : '';
  if (itemType === 'usermessage' || itemType === 'agentmessage') {
    return text(contentText(item.content) || (typeof item.text === 'string' ? item.text : ''));
  }
  if (itemType === 'reasoning') {
    const body = [item.summary_text, item.summary, item.content, item.text].map(summaryText).find((part) => part.length > 0) ?? '';
    return [{ type: 'thinking', text: body, redacted: false }];
  }
  if (itemType === 'commandexecution') {
    const output = String(item.aggregated_output ?? item.aggregatedOutput ?? '');
    const rawExit = item.exit_code ?? item.exitCode;
    const exitCode = typeof rawExit === 'number' ? rawExit : null;
    const status = typeof item.status === 'string' ? item.status : '';
    const input = { cmd: item.command, cwd: item.cwd };
    return [
      use(id, 'exec_command', input, codexCallShape('exec_command', input)),
      { type: 'tool_result', toolUseId: id, text: output, isError: (exitCode !== null && exitCode !== 0) || status === 'failed' || status === 'declined', exitCode },
    ];
  }
  if (itemType === 'filechange') return [use(id, 'apply_patch', { changes: item.changes, status: item.status }, fileChangeShape(item.changes))];
  if (itemType === 'plan' || itemType === 'todolist') {
    const steps = item.items ?? item.plan;
    const shape = planShape(steps, item.explanation);
    if (shape === null) return text(typeof item.text === 'string' ? item.text : '');
    return [use(id, 'update_plan', { plan: steps }, shape)];
  }
  if (itemType === 'websearch') return [use(id, 'web_search', item, brief('web_search', typeof item.query === 'string' ? item.query : ''))];
  if (itemType === 'mcptoolcall') {
    const server = typeof item.server === 'string' ? item.server : 'mcp';
    const tool = typeof item.tool === 'string' ? item.tool : 'tool';
    const args = isObject(item.arguments) ? item.arguments : {};
    const argument = Object.values(args).find((value): value is string => typeof value === 'string' && value.length > 0) ?? '';
    return [use(id, `mcp__${server}__${tool}`, args, brief(`${server}/${tool}`, argument))];
  }
  return [{ type: 'other', blockType: String(item.type ?? 'item'), json: item }];
}

function use(id: string, name: string, input: unknown, shape: ToolCallShape | null): ContentBlock {
  return shape === null ? { type: 'tool_use', id, name, input } : { type: 'tool_use', id, name, input, shape };
}

/** Summaries come as a string, `[string]` or `[{text}]`. */
function summaryText(value: unknown): string {
  if (Array.isArray(value)) return value.map((part) => (typeof part === 'string' ? part : contentText([part]))).filter((part) => part.length > 0).join('\n');
  return contentText(value);
}

function text(value: string): ContentBlock[] {
  return value.length === 0 ? [] : [{ type: 'text', text: value }];
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return { arguments: value };
  }
}
