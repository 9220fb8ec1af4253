/**
 * Codex rollouts that change files (FORMATS.md §2.2), built on RolloutBuilder: `apply_patch` envelopes with
 * Add / Update (hunks placed by context, `*** Move to:`) / Delete File, sent as a `custom_tool_call`, inside a
 * shell call's heredoc, or (paginated mode) as a `FileChange` item; a failed patch; a command that writes.
 * `fileStatesRollout` is one session of every shape with the files it leaves behind, for round-trip tests,
 * the demo and the e2e.
 */
import { RolloutBuilder, type RolloutScope } from './codex-rollout';

export interface PatchHunkSpec {
  /** The `@@ <context>` line, when the hunk needs one. */
  readonly context?: string;
  /** Context lines start with ' ', removed with '-', added with '+'. */
  readonly lines: readonly string[];
}

export type PatchChange =
  | { readonly op: 'add'; readonly path: string; readonly content: string }
  | { readonly op: 'delete'; readonly path: string }
  | { readonly op: 'update'; readonly path: string; readonly moveTo?: string; readonly hunks: readonly PatchHunkSpec[] };

export interface PatchStepOptions {
  /** false: Codex refused the patch (verification failed) and changed nothing. */
  readonly accepted?: boolean;
  /** How the legacy mode sends it: Codex's apply_patch tool, or `apply_patch <<'EOF'` in exec_command. */
  readonly via?: 'tool' | 'shell';
  /**
   * Where the changes are told: the call's envelope (or item) and the `patch_apply_end` event (`both`, legacy's
   * default), the envelope alone (paginated's default), or the event alone (`event-only`: the call's line
   * carries no envelope, the item no changes).
   */
  readonly told?: 'envelope' | 'both' | 'event-only';
}

/** `patch_apply_end.changes` as Codex writes them: path → `{type: add, content}` / `{type: delete}` / `{type: update, unified_diff, move_path}`. */
export function appliedChanges(cwd: string, changes: readonly PatchChange[]): Record<string, Record<string, unknown>> {
  const absolute = (path: string) => `${cwd}/${path}`;
  return Object.fromEntries(
    changes.map((change) => [
      absolute(change.path),
      change.op === 'add'
        ? { type: 'add', content: change.content }
        : change.op === 'delete'
          ? { type: 'delete' }
          : { type: 'update', unified_diff: hunkText(change.hunks), move_path: change.moveTo === undefined ? null : absolute(change.moveTo) },
    ]),
  );
}

const hunkText = (hunks: readonly PatchHunkSpec[]): string => hunks.map((hunk) => [hunk.context === undefined ? '@@' : `@@ ${hunk.context}`, ...hunk.lines].join('\n')).join('\n');

/** The envelope Codex's apply_patch reads. */
export function patchEnvelope(changes: readonly PatchChange[]): string {
  const lines = ['*** Begin Patch'];
  for (const change of changes) {
    if (change.op === 'add') {
      lines.push(`*** Add File: ${change.path}`);
      for (const line of change.content.replace(/\n$/, '').split('\n')) lines.push(`+${line}`);
    } else if (change.op === 'delete') {
      lines.push(`*** Delete File: ${change.path}`);
    } else {
      lines.push(`*** Update File: ${change.path}`);
      if (change.moveTo !== undefined) lines.push(`*** Move to: ${change.moveTo}`);
      for (const hunk of change.hunks) lines.push(hunk.context === undefined ? '@@' : `@@ ${hunk.context}`, ...hunk.lines);
    }
  }
  lines.push('*** End Patch');
  return `${lines.join('\n')}\n`;
}

/** A patch step in the builder's history mode. */
export function patchStep(builder: RolloutBuilder, cwd: string, changes: readonly PatchChange[], options: PatchStepOptions = {}): RolloutBuilder {
  const accepted = options.accepted ?? true;
  const told = options.told ?? (builder.mode === 'paginated' ? 'envelope' : 'both');
  const callId = builder.nextCallId();
  const envelope = patchEnvelope(changes);
  const absolute = (path: string) => `${cwd}/${path}`;
  const ended = () => builder.emit('event_msg', { type: 'patch_apply_end', call_id: callId, success: accepted, changes: accepted ? appliedChanges(cwd, changes) : {} });
  if (builder.mode === 'paginated') {
    const items = changes.map((change) =>
      change.op === 'add'
        ? { path: absolute(change.path), kind: { type: 'add' }, diff: change.content }
        : change.op === 'delete'
          ? { path: absolute(change.path), kind: { type: 'delete' }, diff: '' }
          : { path: absolute(change.path), kind: { type: 'update', move_path: change.moveTo === undefined ? null : absolute(change.moveTo) }, diff: hunkText(change.hunks) },
    );
    // Codex sends a call's end event before the item that completes it.
    if (told !== 'envelope') ended();
    return builder.emit('event_msg', { type: 'item_completed', item: { type: 'FileChange', id: callId, ...(told === 'event-only' ? {} : { changes: items }), status: accepted ? 'completed' : 'failed' } });
  }
  if (told === 'event-only') {
    builder.emit('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: '' });
  } else if (options.via === 'shell') {
    builder.emit('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${envelope}EOF\n`, workdir: cwd }), call_id: callId });
  } else {
    builder.emit('response_item', { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: envelope });
  }
  if (told !== 'envelope') ended();
  const output = accepted
    ? JSON.stringify({ output: `Success. Updated the following files:\n${changes.map((change) => `${change.op === 'add' ? 'A' : change.op === 'delete' ? 'D' : 'M'} ${change.path}`).join('\n')}\n`, metadata: { exit_code: 0, duration_seconds: 0 } })
    : `apply_patch verification failed: Failed to find expected lines in ${absolute(changes[0]?.path ?? '')}`;
  return builder.emit('response_item', { type: options.via === 'shell' && told !== 'event-only' ? 'function_call_output' : 'custom_tool_call_output', call_id: callId, output });
}

export interface FileStatesRollout {
  readonly builder: RolloutBuilder;
  /** Workspace-relative path → content after the last step (absent: deleted), as the steps wrote them. */
  readonly finalFiles: ReadonlyMap<string, string | null>;
  /** The files as they were once the first turn had finished (before any later step): a rewind target. */
  readonly afterFirstTurn: ReadonlyMap<string, string | null>;
  /** Prompts, in order, to find the steps by. */
  readonly prompts: readonly string[];
}

export const GREET_V1 = 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n';
export const GREET_V2 = 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
const NOTES = '# Notes\n\n- greet() says hello\n';
const NOTES_MOVED = '# Notes\n\n- greet() says hello\n- it ends with an exclamation mark\n';

/**
 * One session of every file shape: turn 1 adds `src/greet.ts`, `notes.md` and `scratch.txt` (read back with
 * a read-only `cat`); turn 2 updates `src/greet.ts` by context (through a shell heredoc in legacy mode), moves
 * `notes.md` to `docs/notes.md` with an edit, deletes `scratch.txt`, and has a patch rejected; turn 3 runs a
 * command that writes (`npm run format`), then adds `CHANGELOG.md`.
 */
export function fileStatesRollout(scope: RolloutScope): FileStatesRollout {
  const cwd = scope.cwd;
  const prompts = ['Add a greeting module', 'Make the greeting excited and tidy up', 'Format the code and add a changelog'];
  const builder = new RolloutBuilder(scope).user(prompts[0]!).reasoning('Start with the module and a note');
  patchStep(builder, cwd, [
    { op: 'add', path: 'src/greet.ts', content: GREET_V1 },
    { op: 'add', path: 'notes.md', content: NOTES },
    { op: 'add', path: 'scratch.txt', content: 'temporary\n' },
  ]);
  builder.command('cat src/greet.ts', { exitCode: 0, output: GREET_V1 }).agent('Added src/greet.ts and notes.md.').complete();
  const afterFirstTurn = new Map<string, string | null>([['src/greet.ts', GREET_V1], ['notes.md', NOTES], ['scratch.txt', 'temporary\n']]);

  builder.user(prompts[1]!);
  patchStep(builder, cwd, [{ op: 'update', path: 'src/greet.ts', hunks: [{ context: 'export function greet(name: string): string {', lines: ['-  return `Hello, ${name}`;', '+  return `Hello, ${name}!`;', ' }'] }] }], { via: 'shell' });
  patchStep(builder, cwd, [
    { op: 'update', path: 'notes.md', moveTo: 'docs/notes.md', hunks: [{ lines: [' - greet() says hello', '+- it ends with an exclamation mark'] }] },
    { op: 'delete', path: 'scratch.txt' },
  ]);
  // Rejected: the old line is not in the file.
  patchStep(builder, cwd, [{ op: 'update', path: 'src/greet.ts', hunks: [{ lines: ['-  return "Hi";', '+  return "Hey";'] }] }], { accepted: false });
  builder.agent('The greeting is excited; the notes moved to docs/.').complete();

  builder.user(prompts[2]!);
  builder.command('npm run format', { exitCode: 0, output: 'formatted 2 files' });
  patchStep(builder, cwd, [{ op: 'add', path: 'CHANGELOG.md', content: '# Changelog\n\n- greet() is excited\n' }]);
  builder.agent('Formatted and added a changelog.').complete();

  const finalFiles = new Map<string, string | null>([
    ['src/greet.ts', GREET_V2],
    ['notes.md', null],
    ['docs/notes.md', NOTES_MOVED],
    ['scratch.txt', null],
    ['CHANGELOG.md', '# Changelog\n\n- greet() is excited\n'],
  ]);
  return { builder, finalFiles, afterFirstTurn, prompts };
}
