/**
 * The side effects one tool call may have had outside the workspace. Tools Arbor knows to stay local (reads,
 * file edits, todo lists, subagent launches — their own calls are classified one by one) have none; MCP tools
 * are 'mcp'; web tools 'network'; shell commands are parsed (classify-command.ts); any other tool is 'unknown'.
 */
import type { SideEffectKind } from '../../../shared/operations';
import { classifyShellCommand, type ShellContext } from './classify-command';

const LOCAL_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TaskOutput',
  'BashOutput', 'KillShell', 'KillBash', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'ToolSearch', 'Skill',
  'StructuredOutput', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'NotebookRead', 'Task', 'Agent',
]);
const NETWORK_TOOLS = new Set(['WebFetch', 'WebSearch']);
const SHELL_TOOLS = new Set(['Bash']);

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
export function summarizeCall(name: string, input: unknown): string {
  const command = commandOf(input);
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
