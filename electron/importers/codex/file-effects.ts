/**
 * Codex's reader of file effects, in the neutral shape the reconstruction and the side-effect classifier read
 * (../transcript.ts). From a session's stored lines:
 * - `apply_patch` envelopes wherever they appear (a `custom_tool_call`, a shell call's argv or heredoc, a
 *   paginated `FileChange` item's changes) become effects at the step carrying the outcome: Add File gives the
 *   whole new file, Delete File an absent one, Update File hunks found by context (a Move also deletes its
 *   source); a file's content before is never told, so it is unknown until an Add (or a later whole state).
 *   A rejected or failed patch changes nothing; a patch whose outcome was not recorded, or that cannot be
 *   read, may have changed anything.
 * - Shell commands (`exec_command`, `shell`, `local_shell`, paginated `CommandExecution`) that are not
 *   read-only by Claude Code's Bash rules may have written files; tools Arbor does not know may too.
 * Paths are relative to the call's `workdir`, else the turn's folder (`session_meta` / `<environment_context>`).
 */
import { isAbsolute, resolve } from 'node:path';
import { throwIfAborted } from '../../../shared/errors';
import type { NodeSummary } from '../../../shared/model';
import { isReadOnlyCommand } from '../../snapshots/reconstruct/tool-effects';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import {
  UNKNOWN_CONTENT,
  type FileEffect,
  type PatchHunk,
  type ReadRaw,
  type SessionEffects,
  type StepCall,
  type StepEffects,
} from '../transcript';
import { parseApplyPatch, patchInCommand, type PatchOperation } from './apply-patch';

/** What one Codex call is, read from its line. */
export interface CodexCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The command line a shell call ran; null for other tools (and for a shell call that runs apply_patch). */
  readonly command: string | null;
  /** The folder the call ran in, when it says (`workdir`, an item's `cwd`, `cd <dir> &&` before apply_patch). */
  readonly workdir: string | null;
  /** The file changes it makes: patch operations, or numbered-hunk updates of a paginated item; null when none. */
  readonly changes: readonly FileChangeOf[] | null;
  /** True when the call is a patch whose text does not parse. */
  readonly unreadablePatch: boolean;
}

/** A patch operation, or an update told as a unified diff with line numbers (a paginated item's change). */
export type FileChangeOf = PatchOperation | { readonly kind: 'numbered-update'; readonly path: string; readonly moveTo: string | null; readonly hunks: readonly PatchHunk[] };

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);
/** Tools that change no file. */
const READ_ONLY_TOOLS = new Set(['update_plan', 'view_image', 'web_search', 'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'wait_agent', 'request_user_input']);

const parseJson = (text: string | null): JsonObject | null => {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
};
const stringOf = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** `["bash", "-lc", "<script>"]` runs the script; other argv lists are joined as a command line. */
function commandLine(command: unknown): string | null {
  if (typeof command === 'string') return command.length > 0 ? command : null;
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) return null;
  const parts = command as string[];
  if (parts.length === 3 && /^(ba|z|)sh$/.test(parts[0]!.replace(/^.*\//, '')) && (parts[1] === '-lc' || parts[1] === '-c')) return parts[2]!;
  return parts.map((part) => (/^[A-Za-z0-9_./=:@%+,-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** A shell call's effects: apply_patch inside it (argv or heredoc), or its command line. */
function shellCall(id: string, name: string, input: unknown, command: unknown, workdir: string | null): CodexCall {
  if (Array.isArray(command) && (command[0] === 'apply_patch' || command[0] === 'applypatch') && typeof command[1] === 'string') {
    return patchCall(id, input, command[1], workdir);
  }
  const line = commandLine(command);
  const inner = line === null ? null : patchInCommand(line);
  if (inner !== null) {
    const dir = inner.cd === null ? workdir : workdir === null && !isAbsolute(inner.cd) ? null : resolve(workdir ?? '/', inner.cd);
    return patchCall(id, input, inner.patch, dir);
  }
  return { id, name, input, command: line, workdir, changes: null, unreadablePatch: false };
}

function patchCall(id: string, input: unknown, patch: string, workdir: string | null): CodexCall {
  const operations = parseApplyPatch(patch);
  return { id, name: 'apply_patch', input, command: null, workdir, changes: operations, unreadablePatch: operations === null };
}

/** The calls on one rollout line (a legacy call item, or a paginated item that is call and outcome at once). */
export function readCodexCalls(line: string | null): CodexCall[] {
  const entry = parseJson(line);
  if (entry === null || !isObject(entry.payload)) return [];
  const payload = entry.payload;
  if (entry.type === 'response_item') {
    const id = stringOf(payload.call_id) ?? stringOf(payload.id);
    if (id === null) return [];
    switch (payload.type) {
      case 'custom_tool_call': {
        const name = stringOf(payload.name) ?? 'tool';
        const input = typeof payload.input === 'string' ? payload.input : '';
        if (name === 'apply_patch') return [patchCall(id, input, input, null)];
        return [{ id, name, input: payload.input, command: null, workdir: null, changes: null, unreadablePatch: false }];
      }
      case 'function_call': {
        const name = stringOf(payload.name) ?? 'tool';
        const args = typeof payload.arguments === 'string' ? (parseJson(payload.arguments) ?? payload.arguments) : payload.arguments;
        const input = isObject(args) ? args : {};
        if (name === 'apply_patch') return [patchCall(id, args, stringOf(input.input) ?? stringOf(input.patch) ?? (typeof args === 'string' ? args : ''), stringOf(input.workdir))];
        if (SHELL_TOOLS.has(name)) return [shellCall(id, name, args, input.cmd ?? input.command, stringOf(input.workdir))];
        return [{ id, name, input: args, command: null, workdir: null, changes: null, unreadablePatch: false }];
      }
      case 'local_shell_call': {
        const action = isObject(payload.action) ? payload.action : {};
        return [shellCall(id, 'local_shell', action, action.command, stringOf(action.working_directory))];
      }
      default:
        return [];
    }
  }
  if (entry.type === 'event_msg' && payload.type === 'item_completed' && isObject(payload.item)) {
    const item = payload.item;
    const id = stringOf(item.id);
    if (id === null) return [];
    const type = (stringOf(item.type) ?? '').replace(/_/g, '').toLowerCase();
    if (type === 'commandexecution') return [shellCall(id, 'exec_command', { cmd: item.command }, item.command, stringOf(item.cwd))];
    if (type === 'filechange') return [{ id, name: 'apply_patch', input: item.changes, command: null, workdir: null, changes: itemChanges(item.changes), unreadablePatch: false }];
  }
  return [];
}

/** A paginated FileChange item's changes: `[{path, kind, diff}]` (app server) or `{path: {type, …}}` (core). */
function itemChanges(changes: unknown): FileChangeOf[] | null {
  const list: JsonObject[] | null = Array.isArray(changes)
    ? changes.filter(isObject)
    : isObject(changes)
      ? Object.entries(changes).map(([path, change]): JsonObject => ({ path, ...(isObject(change) ? change : {}) }))
      : null;
  if (list === null) return null;
  const out: FileChangeOf[] = [];
  for (const change of list) {
    const path = stringOf(change.path);
    if (path === null) return null;
    const kind = isObject(change.kind) ? change.kind : null;
    const verb = (stringOf(kind?.type) ?? stringOf(change.kind) ?? stringOf(change.type) ?? '').toLowerCase();
    const moveTo = stringOf(kind?.move_path) ?? stringOf(kind?.movePath) ?? stringOf(change.move_path) ?? stringOf(change.movePath);
    const diff = stringOf(change.unified_diff) ?? stringOf(change.diff) ?? '';
    if (verb === 'add') out.push({ kind: 'add', path, content: typeof change.content === 'string' ? change.content : diff });
    else if (verb === 'delete') out.push({ kind: 'delete', path });
    else if (verb === 'update') {
      const update = diffUpdate(path, moveTo, diff);
      if (update === null) return null;
      out.push(update);
    } else return null;
  }
  return out;
}

const NUMBERED = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** An update told as diff text: numbered hunks when it has `@@ -a,b +c,d @@` headers, else hunks found by context. */
function diffUpdate(path: string, moveTo: string | null, diff: string): FileChangeOf | null {
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (!lines.some((line) => NUMBERED.test(line))) {
    if (diff.trim() === '') return { kind: 'update', path, moveTo, hunks: [] };
    const operations = parseApplyPatch(`*** Begin Patch\n*** Update File: ${path}\n${lines.join('\n')}\n*** End Patch`);
    const update = operations?.[0];
    return update?.kind === 'update' ? { ...update, moveTo } : null;
  }
  const hunks: PatchHunk[] = [];
  let current: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] } | null = null;
  for (const line of lines) {
    const header = NUMBERED.exec(line);
    if (header !== null) {
      current = { oldStart: Number(header[1]), oldLines: Number(header[2] ?? 1), newStart: Number(header[3]), newLines: Number(header[4] ?? 1), lines: [] };
      hunks.push(current);
    } else if (current !== null && !line.startsWith('---') && !line.startsWith('+++')) {
      current.lines.push(line);
    } else if (current === null && !line.startsWith('---') && !line.startsWith('+++') && !line.startsWith('diff ') && !line.startsWith('index ')) {
      return null;
    }
  }
  return { kind: 'numbered-update', path, moveTo, hunks };
}

/** The neutral file effects of one change, resolved against the call's folder; null when a path cannot be placed. */
function effectsOf(call: CodexCall, change: FileChangeOf, cwd: string | null): FileEffect[] | null {
  const base = call.workdir ?? cwd;
  const place = (path: string): string | null => (isAbsolute(path) ? resolve(path) : base === null ? null : resolve(base, path));
  const path = place(change.path);
  if (path === null) return null;
  const effect = (at: string, after: FileEffect['after'], more: Partial<FileEffect> = {}): FileEffect => ({
    tool: 'apply_patch', toolUseId: call.id, path: at, before: UNKNOWN_CONTENT, after, source: 'none', patch: [], replacements: [], ...more,
  });
  switch (change.kind) {
    case 'add':
      return [effect(path, change.content)];
    case 'delete':
      return [effect(path, null)];
    case 'update':
    case 'numbered-update': {
      const hunks = change.kind === 'update' ? { contextPatch: change.hunks } : { patch: change.hunks };
      const moveTo = change.moveTo === null ? null : place(change.moveTo);
      if (change.moveTo !== null && moveTo === null) return null;
      if (moveTo === null || moveTo === path) return [effect(path, UNKNOWN_CONTENT, hunks)];
      // The moved file first (it reads the source's state), then the source is gone.
      return [effect(moveTo, UNKNOWN_CONTENT, { ...hunks, from: path }), effect(path, null)];
    }
  }
}

/** The folder a `<environment_context>` message or a `session_meta` line names. */
function folderOn(line: string | null): string | null {
  const entry = parseJson(line);
  if (entry === null || !isObject(entry.payload)) return null;
  const payload = entry.payload;
  if (entry.type === 'session_meta') return stringOf(payload.cwd);
  if (entry.type === 'turn_context') return stringOf(payload.cwd);
  const text = JSON.stringify(payload.content ?? payload.message ?? '');
  const match = /<cwd>([^<]+)<\/cwd>/.exec(text);
  return match === null ? null : JSON.parse(`"${match[1]!}"`);
}

/** Call ids the outcome lines answer (legacy `*_output` items; a paginated item answers its own call). */
function answeredOn(line: string | null): string[] {
  const entry = parseJson(line);
  if (entry === null || !isObject(entry.payload)) return [];
  const payload = entry.payload;
  if (entry.type === 'response_item' && (payload.type === 'function_call_output' || payload.type === 'custom_tool_call_output')) {
    const id = stringOf(payload.call_id);
    return id === null ? [] : [id];
  }
  // A legacy call line is the intent only; a paginated item is the call and its outcome in one.
  return entry.type === 'event_msg' ? readCodexCalls(line).map((call) => call.id) : [];
}

/** What each node of a Codex session did to files (the importer's `readEffects`). */
export async function readCodexEffects(nodes: readonly NodeSummary[], readRaw: ReadRaw, signal: AbortSignal | undefined): Promise<SessionEffects> {
  const effects: (StepEffects | undefined)[] = new Array(nodes.length);
  const at = (index: number): StepEffects => (effects[index] ??= { edits: [], mayWrite: null });
  const pending = new Map<string, { readonly call: CodexCall; readonly outcome: 'ok' | 'error'; readonly cwd: string | null; readonly node: number }>();
  let cwd: string | null = null;
  let session: string | null = null;

  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if ((index & 255) === 0) throwIfAborted(signal);
    if (node.sessionId !== session) {
      session = node.sessionId;
      cwd = null;
    }
    const wanted = node.kind === 'system' || node.toolCalls.length > 0 || node.kind === 'tool_result' || node.kind === 'error';
    if (!wanted) continue;
    const raw = await readRaw(node.id);
    if (node.kind === 'system') cwd = folderOn(raw) ?? cwd;
    if (node.toolCalls.length > 0) {
      const calls = new Map(readCodexCalls(raw).map((call) => [call.id, call]));
      for (const ref of node.toolCalls) {
        const call = calls.get(ref.id) ?? { id: ref.id, name: ref.name, input: undefined, command: null, workdir: null, changes: null, unreadablePatch: false };
        if (ref.outcome === 'missing') {
          // A call that may have run, with no record of what it did: unless it only reads.
          if (!readsOnly(call)) at(index).mayWrite ??= 'unrecorded-outcome';
          continue;
        }
        pending.set(ref.id, { call, outcome: ref.outcome, cwd, node: index });
      }
    }
    if (pending.size === 0) continue;
    for (const id of answeredOn(raw)) {
      const site = pending.get(id);
      if (site === undefined) continue;
      pending.delete(id);
      settle(site.call, site.outcome, site.cwd, at(index));
    }
  }
  return { effects, subagentCalls: new Map(), subagentResults: new Map() };
}

function readsOnly(call: CodexCall): boolean {
  if (call.changes !== null || call.unreadablePatch) return false;
  if (call.command !== null) return isReadOnlyCommand(call.command);
  if (call.name === 'write_stdin') return isObject(call.input) && (call.input.chars === '' || call.input.chars === undefined);
  return READ_ONLY_TOOLS.has(call.name);
}

/** What a call whose outcome this node carries did. */
function settle(call: CodexCall, outcome: 'ok' | 'error', cwd: string | null, effects: StepEffects): void {
  if (call.name === 'apply_patch' || call.changes !== null) {
    if (outcome === 'error') return; // a rejected or failed patch changes nothing
    const edits = call.changes?.map((change) => effectsOf(call, change, cwd));
    if (edits === undefined || edits.some((list) => list === null)) {
      effects.mayWrite ??= 'unreadable-result';
      return;
    }
    for (const list of edits) effects.edits.push(...list!);
    return;
  }
  if (readsOnly(call)) return;
  if (call.name === 'spawn_agent') effects.mayWrite ??= 'subagent';
  else effects.mayWrite ??= call.command !== null || SHELL_TOOLS.has(call.name) || call.name === 'write_stdin' ? 'shell' : 'other-tool';
}

/** The calls on a stored line for the side-effect classifier (the importer's `readCalls`). */
export function codexStepCalls(line: string | null): ReadonlyMap<string, StepCall> {
  return new Map(readCodexCalls(line).map((call) => [call.id, { name: call.name, input: call.input, command: call.command }]));
}
