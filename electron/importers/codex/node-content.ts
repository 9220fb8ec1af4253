/**
 * A Codex node's content for the inspector and the conversation view, read back from its stored line:
 * messages as text, reasoning as thinking, calls as tool_use (arguments parsed), outputs as tool_result.
 */
import type { ContentBlock } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import type { NodeContent } from '../claude-code/node-content';
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
    case 'function_call':
      return [{ type: 'tool_use', id: callId, name: String(payload.name ?? 'tool'), input: parseArguments(payload.arguments) }];
    case 'custom_tool_call':
      return [{ type: 'tool_use', id: callId, name: String(payload.name ?? 'tool'), input: { input: payload.input } }];
    case 'local_shell_call':
      return [{ type: 'tool_use', id: callId, name: 'local_shell', input: payload.action ?? {} }];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = readToolOutput(payload.output);
      return [{ type: 'tool_result', toolUseId: callId, text: output.text, isError: output.isError }];
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
  if (itemType === 'commandexecution') {
    const output = String(item.aggregated_output ?? item.aggregatedOutput ?? '');
    const exitCode = item.exit_code ?? item.exitCode;
    return [
      { type: 'tool_use', id, name: 'exec_command', input: { cmd: item.command, cwd: item.cwd } },
      { type: 'tool_result', toolUseId: id, text: output, isError: typeof exitCode === 'number' && exitCode !== 0 },
    ];
  }
  if (itemType === 'filechange') return [{ type: 'tool_use', id, name: 'apply_patch', input: { changes: item.changes, status: item.status } }];
  return [{ type: 'other', blockType: String(item.type ?? 'item'), json: item }];
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
