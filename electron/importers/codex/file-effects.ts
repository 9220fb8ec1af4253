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
  type FolderRecords,
  type PatchHunk,
  type ReadRaw,
  type ReadRecords,
  type SessionEffects,
  type StepCall,
  type StepEffects,
} from '../transcript';
import { readGhostCommitFiles } from '../../git/ghost-commit';
import { rawCallId } from './rollout-entry';
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

/** The records readCodexEffects reads beside the steps: a folder change, a patch's applied changes, a ghost commit. */
const EFFECT_RECORDS: ReadonlySet<string> = new Set(['turn_context', 'patch_apply_end', 'ghost_snapshot']);

/** A `patch_apply_end` event: the changes Codex applied for a call (FORMATS.md §2.2). */
interface AppliedPatch {
  readonly callId: string;
  readonly success: boolean;
  /** null when they cannot be read. */
  readonly changes: readonly FileChangeOf[] | null;
}

type EffectRecord =
  | { readonly type: 'folder'; readonly cwd: string }
  | ({ readonly type: 'applied' } & AppliedPatch)
  | { readonly type: 'ghost'; readonly commit: string };

/**
 * One record line: `turn_context.cwd`; `patch_apply_end{call_id, success, changes}`; `ghost_snapshot` (a
 * response item `{type: "ghost_snapshot", ghost_commit: {id, parent, preexisting_untracked_files,
 * preexisting_untracked_dirs}}`, as Codex's protocol `ResponseItem::GhostSnapshot` and the app server's
 * `GhostCommit` type name it).
 */
function readEffectRecord(line: string): EffectRecord | null {
  const entry = parseJson(line);
  if (entry === null || !isObject(entry.payload)) return null;
  const payload = entry.payload;
  if (entry.type === 'turn_context') {
    const cwd = stringOf(payload.cwd);
    return cwd === null ? null : { type: 'folder', cwd };
  }
  if (entry.type === 'event_msg' && payload.type === 'patch_apply_end') {
    const callId = stringOf(payload.call_id);
    if (callId === null) return null;
    const success = payload.success !== false && payload.status !== 'failed' && payload.status !== 'declined';
    return { type: 'applied', callId, success, changes: itemChanges(payload.changes) };
  }
  if (entry.type === 'response_item' && payload.type === 'ghost_snapshot') {
    const ghost = isObject(payload.ghost_commit) ? payload.ghost_commit : null;
    const commit = stringOf(ghost?.id);
    return commit === null ? null : { type: 'ghost', commit };
  }
  return null;
}

/** The call as the patch Codex applied for it, when its own line does not tell the changes readably. */
function withApplied(call: CodexCall, applied: AppliedPatch | undefined): CodexCall {
  if (applied === undefined || applied.changes === null) return call;
  if (call.changes !== null && !call.unreadablePatch) return call; // the envelope and the event tell the same change: once
  return { ...call, name: 'apply_patch', command: null, changes: applied.changes, unreadablePatch: false };
}

/** What each node of a Codex session did to files (the importer's `readEffects`). */
export async function readCodexEffects(nodes: readonly NodeSummary[], readRaw: ReadRaw, signal: AbortSignal | undefined, readRecords?: ReadRecords): Promise<SessionEffects> {
  const effects: (StepEffects | undefined)[] = new Array(nodes.length);
  const at = (index: number): StepEffects => (effects[index] ??= { edits: [], mayWrite: null });
  const pending = new Map<string, { call: CodexCall; readonly outcome: 'ok' | 'error'; readonly cwd: string | null; readonly node: number }>();
  /** Calls with no outcome line: a `patch_apply_end` may still tell what they did. */
  const unanswered = new Map<string, { readonly call: CodexCall; readonly cwd: string | null; readonly node: number }>();
  /** `patch_apply_end` events whose call was not seen yet (a paginated item comes after its event), in order. */
  const applied = new Map<string, AppliedPatch & { readonly cwd: string | null; readonly node: number }>();
  const seenCalls = new Set<string>();
  const ghosts: { readonly node: number; readonly commit: string; readonly cwd: string | null }[] = [];
  let cwd: string | null = null;
  let session: string | null = null;
  // The folder each session last told. A graph walks several sessions (a fork's nodes after its source's
  // prefix, a subagent's under its parent, a fork's own session_meta before the prefix it copies): a session
  // goes on in the folder it told last, else in the one in force where it starts (a fork starts in its
  // source's folder until its own turn_context says otherwise).
  const folderOf = new Map<string, string>();

  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if ((index & 255) === 0) throwIfAborted(signal);
    if (node.sessionId !== session) {
      session = node.sessionId;
      cwd = folderOf.get(session) ?? cwd;
    }
    const wanted = node.kind === 'system' || node.toolCalls.length > 0 || node.kind === 'tool_result' || node.kind === 'error';
    const raw = wanted ? await readRaw(node.id) : null;
    if (node.kind === 'system') cwd = folderOn(raw) ?? cwd;
    if (cwd !== null) folderOf.set(session, cwd);
    if (node.toolCalls.length > 0) {
      const calls = new Map(readCodexCalls(raw).map((call) => [call.id, call]));
      for (const ref of node.toolCalls) {
        // Keyed by the id the lines write (a repeated id is stored as `id#n`): the latest open call of an id is the one its output answers.
        const id = rawCallId(ref.id);
        seenCalls.add(id);
        const read = calls.get(id) ?? { id, name: ref.name, input: undefined, command: null, workdir: null, changes: null, unreadablePatch: false };
        const call = withApplied(read, applied.get(id));
        applied.delete(id);
        if (ref.outcome === 'missing') unanswered.set(id, { call, cwd, node: index });
        else pending.set(id, { call, outcome: ref.outcome, cwd, node: index });
      }
    }
    if (pending.size > 0) {
      for (const id of answeredOn(raw)) {
        const site = pending.get(id);
        if (site === undefined) continue;
        pending.delete(id);
        settle(site.call, site.outcome, site.cwd, at(index));
      }
    }
    for (const line of readRecords?.(node.id, EFFECT_RECORDS) ?? []) {
      const record = readEffectRecord(line);
      if (record === null) continue;
      if (record.type === 'folder') {
        cwd = record.cwd;
        folderOf.set(session, cwd);
      }
      else if (record.type === 'ghost') ghosts.push({ node: index, commit: record.commit, cwd });
      else {
        const site = pending.get(record.callId);
        const waiting = unanswered.get(record.callId);
        if (site !== undefined) site.call = withApplied(site.call, record);
        else if (waiting !== undefined) {
          // The call's outcome line is missing, but Codex recorded the patch it applied: that is its outcome.
          unanswered.delete(record.callId);
          if (record.success) settle(withApplied(waiting.call, record), 'ok', waiting.cwd, at(index));
        } else if (!seenCalls.has(record.callId)) applied.set(record.callId, { ...record, cwd, node: index });
      }
    }
  }
  // A call with no record of what it did may have changed anything, unless it only reads.
  for (const { call, node } of unanswered.values()) if (!readsOnly(call)) at(node).mayWrite ??= 'unrecorded-outcome';
  // Changes Codex applied for a call no step shows: they took effect where the event stands.
  for (const event of applied.values()) {
    if (event.success) settle({ id: event.callId, name: 'apply_patch', input: undefined, command: null, workdir: null, changes: event.changes, unreadablePatch: false }, 'ok', event.cwd, at(event.node));
  }
  await readGhostStates(ghosts, effects, at, signal);
  return { effects, subagentCalls: new Map(), subagentResults: new Map() };
}

/**
 * Each `ghost_snapshot` commit, when the turn's folder is a repository that has it, tells the touched files'
 * exact contents where it stands: anchors (before = after) the reconstruction checks its replay against. A
 * missing repository or commit, or one that cannot be read, changes nothing; the step keeps why (`ghostMiss`).
 */
async function readGhostStates(
  ghosts: readonly { readonly node: number; readonly commit: string; readonly cwd: string | null }[],
  effects: readonly (StepEffects | undefined)[],
  at: (index: number) => StepEffects,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (ghosts.length === 0) return;
  const touched = new Set<string>();
  for (const effect of effects) for (const edit of effect?.edits ?? []) if (edit.tool !== GHOST_TOOL) touched.add(edit.path);
  if (touched.size === 0) return;
  const paths = [...touched];
  for (const ghost of ghosts) {
    if (ghost.cwd === null) {
      at(ghost.node).ghostMiss = { commit: ghost.commit, why: 'no-repository', folder: null };
      continue;
    }
    const read = await readGhostCommitFiles(ghost.cwd, ghost.commit, paths, signal);
    if (read.kind !== 'read') {
      // Nothing changes, but the Files tab says why the commit told nothing.
      const why = read.kind === 'no-commit' ? 'no-commit' : read.kind;
      at(ghost.node).ghostMiss = { commit: ghost.commit, why, folder: ghost.cwd, ...(read.kind === 'unreadable' ? { detail: read.detail } : {}) };
      continue;
    }
    for (const [path, content] of read.files) {
      at(ghost.node).edits.push({ tool: GHOST_TOOL, toolUseId: `ghost:${ghost.commit}`, path, before: content, after: content, source: 'snapshot', patch: [], replacements: [] });
    }
  }
}

/** The `tool` of an effect a ghost commit tells. */
export const GHOST_TOOL = 'ghost_snapshot';

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

/** A later `turn_context` with another `cwd` moves the session's folder from that turn on (the importer's `folderRecords`). */
export const codexFolderRecords: FolderRecords = {
  types: new Set(['turn_context']),
  folderOf(line) {
    const record = readEffectRecord(line);
    return record?.type === 'folder' ? record.cwd : null;
  },
};

/** The calls on a stored line for the side-effect classifier (the importer's `readCalls`). */
export function codexStepCalls(line: string | null): ReadonlyMap<string, StepCall> {
  return new Map(readCodexCalls(line).map((call) => [call.id, { name: call.name, input: call.input, command: call.command }]));
}
