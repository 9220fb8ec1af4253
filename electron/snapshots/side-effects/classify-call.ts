/**
 * The side effects one tool call may have had outside the workspace. Tools Arbor knows to stay local (reads,
 * file edits, todo lists, subagent launches — their own calls are classified one by one) have none; MCP tools
 * are 'mcp'; web tools 'network'; shell commands are parsed (classify-command.ts); any other tool is 'unknown'.
 */
import type { SideEffectKind } from '../../../shared/operations';
import type { StepCall } from '../../importers/transcript';
import { classifyShellCommand, type ShellContext } from './classify-command';

const LOCAL_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TaskOutput',
  'BashOutput', 'KillShell', 'KillBash', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'ToolSearch', 'Skill',
  'StructuredOutput', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'NotebookRead', 'Task', 'Agent',
]);
const NETWORK_TOOLS = new Set(['WebFetch', 'WebSearch']);
const SHELL_TOOLS = new Set(['Bash']);

/** Codex tools that stay local (its shell calls name their command line, classified as Bash's are). */
const CODEX_LOCAL_TOOLS = new Set(['apply_patch', 'update_plan', 'view_image']);
const CODEX_NETWORK_TOOLS = new Set(['web_search']);

/**
 * The distinct kinds of side effect of a call in the neutral shape (importers/transcript.ts StepCall): a call
 * that ran a command line is classified by it, whatever the format calls its shell tool.
 */
export function classifyStepCall(call: StepCall, context: ShellContext = { cwd: null }): SideEffectKind[] {
  if (call.command !== null) return classifyShellCommand(call.command, context);
  if (CODEX_LOCAL_TOOLS.has(call.name)) return [];
  if (CODEX_NETWORK_TOOLS.has(call.name)) return ['network'];
  // Polling a running command (no keystrokes sent) does nothing of its own.
  if (call.name === 'write_stdin' && isObject(call.input) && (call.input.chars === '' || call.input.chars === undefined)) return [];
  return classifyToolCall(call.name, call.input, context);
}

/** A tool that stays in the workspace whatever its input (reads, edits, plans): its input need not be read. */
export function isLocalTool(name: string): boolean {
  return LOCAL_TOOLS.has(name) || CODEX_LOCAL_TOOLS.has(name);
}

/** The distinct kinds of side effect; empty when the call stays inside the workspace. */
export function classifyToolCall(name: string, input: unknown, context: ShellContext = { cwd: null }): SideEffectKind[] {
  if (name.startsWith('mcp__')) return ['mcp'];
  if (NETWORK_TOOLS.has(name)) return ['network'];
  // MCP resources are read through an MCP server.
  if (name === 'ListMcpResourcesTool' || name === 'ReadMcpResourceTool') return ['mcp'];
  if (LOCAL_TOOLS.has(name)) return [];
  if (SHELL_TOOLS.has(name)) {
    const command = commandOf(input);
    return command === null ? ['unknown'] : classifyShellCommand(command, context);
  }
  return ['unknown']; // PowerShell and tools this version does not know
}

/** The call as one line for display (≤ 200 characters). */
export function summarizeCall(name: string, input: unknown, shellCommand: string | null = null): string {
  const command = shellCommand ?? commandOf(input);
  let text: string;
  if (command !== null) text = command;
  else if (isObject(input) && typeof input.url === 'string') text = `${name} ${input.url}`;
  else if (isObject(input) && typeof input.query === 'string') text = `${name} ${input.query}`;
  else {
    const json = input === undefined ? '' : JSON.stringify(input);
    text = json === '' || json === '{}' ? name : `${name} ${json}`;
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function commandOf(input: unknown): string | null {
  return isObject(input) && typeof input.command === 'string' ? input.command : null;
}
