/**
 * What the Markdown and HTML exports say about a step, in the conversation view's words: who speaks, what a
 * tool call asked for (a command, an edit as a diff, a file written) and how it ended.
 */
import type { ExportedNode, ExportedToolCall } from '../../shared/export';
import type { ToolOutcome } from '../../shared/model';

export function roleOf(node: ExportedNode): string | null {
  const inRun = node.agentRun !== null;
  switch (node.kind) {
    case 'user':
      return inRun ? 'Task' : 'You';
    case 'assistant':
    case 'thinking':
    case 'tool_call':
      return inRun ? 'Subagent' : 'Agent';
    case 'error':
      return 'Error';
    case 'tool_result':
      return 'Tool result';
    case 'merge-summary':
      return 'Merge summary';
    default:
      return null;
  }
}

export function outcomeLabel(outcome: ToolOutcome): string {
  switch (outcome) {
    case 'ok':
      return 'ok';
    case 'error':
      return 'failed';
    case 'missing':
      return 'requested, outcome not recorded';
  }
}

export type CallBody =
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'diff'; readonly path: string; readonly lines: readonly DiffLine[] }
  | { readonly kind: 'file'; readonly path: string; readonly content: string }
  | { readonly kind: 'input'; readonly json: string };

export interface DiffLine {
  readonly kind: 'same' | 'added' | 'removed' | 'hunk';
  readonly text: string;
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** How a call's input reads: Bash as its command, Edit/MultiEdit as a diff, Write as the file, else its JSON. */
export function callBodies(call: ExportedToolCall): CallBody[] {
  const input = record(call.input);
  const command = text(input.command) ?? text(input.cmd);
  if (command !== null && (call.name === 'Bash' || call.name === 'shell' || call.name === 'exec_command')) return [{ kind: 'command', command }];
  const path = text(input.file_path) ?? '';
  if (call.name === 'Edit' && text(input.old_string) !== null) return [{ kind: 'diff', path, lines: editLines(text(input.old_string)!, text(input.new_string) ?? '') }];
  if (call.name === 'MultiEdit' && Array.isArray(input.edits)) {
    return [{ kind: 'diff', path, lines: input.edits.flatMap((edit, i) => [...(i > 0 ? [{ kind: 'hunk' as const, text: '' }] : []), ...editLines(text(record(edit).old_string) ?? '', text(record(edit).new_string) ?? '')]) }];
  }
  if (call.name === 'Write' && text(input.content) !== null) return [{ kind: 'file', path, content: text(input.content)! }];
  return [{ kind: 'input', json: JSON.stringify(call.input, null, 2) ?? 'null' }];
}

function editLines(before: string, after: string): DiffLine[] {
  const lines = (value: string) => (value === '' ? [] : value.replace(/\n$/, '').split('\n'));
  return [...lines(before).map((line) => ({ kind: 'removed' as const, text: line })), ...lines(after).map((line) => ({ kind: 'added' as const, text: line }))];
}

/** Terminal escape sequences (colours, cursor moves): Markdown shows the text only. */
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
export function stripAnsi(value: string): string {
  return value.includes('\u001b') ? value.replace(ANSI, '') : value;
}

/** A tool result longer than this is cut in Markdown and HTML (JSON keeps all of it). */
export const RESULT_CHARS = 100_000;

export function clipped(value: string, max = RESULT_CHARS): string {
  return value.length <= max ? value : `${value.slice(0, max)}\n… (${value.length - max} more characters)`;
}

/** A compaction node's summary text, if it has one (the boundary line says only "Conversation compacted"). */
export function compactionSummary(node: ExportedNode): string | null {
  for (const block of node.blocks) {
    if (block.type === 'text' && block.text.trim() !== '' && block.text.trim() !== 'Conversation compacted' && block.text.trim() !== node.label.trim()) return block.text;
  }
  return null;
}
