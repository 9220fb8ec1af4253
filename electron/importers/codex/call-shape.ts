/**
 * What a Codex tool call is, in the format-neutral shape the conversation and the inspector draw
 * (shared/model.ts ToolCallShape): `exec_command`/`shell`/`local_shell` as their command, `apply_patch`
 * (wherever the envelope is) as per-file changes, `update_plan` as a checklist, web search, `view_image` and
 * MCP calls as the tool and its main argument. null when the call is none of these (its input is shown).
 */
import type { PlanStep, ToolCallShape } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { findPatchEnvelope, parsePatchEnvelope, readFileChanges } from './patch-envelope';
import { shellCommandText } from './tool-labels';

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);

/** `args`: the call's parsed arguments (a custom tool call's raw input is a string). */
export function codexCallShape(name: string, args: unknown, namespace: string | null = null): ToolCallShape | null {
  const input: JsonObject = isObject(args) ? args : {};
  if (name === 'apply_patch') {
    const text = typeof args === 'string' ? args : typeof input.input === 'string' ? input.input : typeof input.patch === 'string' ? input.patch : '';
    return patchShape(text);
  }
  if (SHELL_TOOLS.has(name)) {
    const command = shellCommandText(input.cmd ?? input.command);
    if (command === null) return null;
    // `["apply_patch", "*** Begin Patch…"]` or a heredoc: the shell ran a patch; show the patch.
    const envelope = findPatchEnvelope(command);
    if (envelope !== null && /(^|\s|['"])apply_patch\b/.test(command)) return patchShape(envelope);
    return { kind: 'shell', command };
  }
  if (name === 'update_plan') return planShape(input.plan, input.explanation);
  if (name === 'view_image') return brief('view_image', stringOf(input.path) ?? '');
  if (name === 'web_search' || name === 'web_search_call') return brief('web_search', stringOf(input.query) ?? firstString(input));
  const mcp = mcpName(name, namespace);
  if (mcp !== null) return brief(mcp, firstString(input));
  return null;
}

/** A paginated file-change item, or `patch_apply_end` changes. */
export function fileChangeShape(changes: unknown): ToolCallShape {
  return { kind: 'patch', files: readFileChanges(changes) };
}

export function planShape(plan: unknown, explanation: unknown): ToolCallShape | null {
  if (!Array.isArray(plan)) return null;
  const steps: PlanStep[] = plan.filter(isObject).map((item) => ({
    step: stringOf(item.step) ?? stringOf(item.text) ?? '',
    status: planStatus(item.status, item.completed),
  }));
  return { kind: 'plan', explanation: stringOf(explanation), steps };
}

export function brief(tool: string, argument: string): ToolCallShape {
  return { kind: 'brief', tool, argument };
}

/** `mcp__server__tool` (or a `mcp__server__` namespace beside the name) → `server/tool`. */
export function mcpName(name: string, namespace: string | null): string | null {
  const full = namespace !== null && namespace.startsWith('mcp__') ? `${namespace.replace(/_+$/, '')}__${name}` : name;
  const match = /^mcp__(.+?)__(.+)$/.exec(full);
  return match === null ? null : `${match[1]}/${match[2]}`;
}

function patchShape(text: string): ToolCallShape | null {
  const envelope = findPatchEnvelope(text) ?? text;
  const files = parsePatchEnvelope(envelope);
  return files.length === 0 ? null : { kind: 'patch', files };
}

function planStatus(status: unknown, completed: unknown): PlanStep['status'] {
  const value = typeof status === 'string' ? status.toLowerCase().replace(/[^a-z]/g, '') : '';
  if (value === 'completed' || value === 'done' || completed === true) return 'completed';
  if (value === 'inprogress' || value === 'active') return 'in_progress';
  return 'pending';
}

function firstString(input: JsonObject): string {
  return Object.values(input).find((value): value is string => typeof value === 'string' && value.length > 0) ?? '';
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
