/**
 * Arbor's generator of Codex rollouts (FORMATS.md §2), for tests, the demo and benchmarks: a session's lines
 * in either history mode — legacy (`response_item`s with `event_msg` echoes) or paginated (`item_completed`
 * events) — with the shapes real rollouts have: forks, subagents, aborted turns, compactions, rejected
 * patches, calls without output. `take()` returns the lines; `write()` writes plain or zstd-compressed.
 */
import { writeFile } from 'node:fs/promises';
import { zstdStored } from './codex-zstd';

export type HistoryMode = 'legacy' | 'paginated';

export interface RolloutScope {
  readonly id: string;
  readonly cwd: string;
  readonly model?: string;
  readonly mode?: HistoryMode;
  /** A fork's source thread (`session_meta.forked_from_id`). */
  readonly forkedFromId?: string;
  /** A subagent's parent thread (`source.subagent`, `parent_thread_id`). */
  readonly parentThreadId?: string;
  /** The first line's timestamp; each line is one second later. */
  readonly start?: Date;
}

export class RolloutBuilder {
  private readonly lines: string[] = [];
  private clock: number;
  private turn = 0;
  private calls = 0;
  readonly mode: HistoryMode;
  /** The folder of the current turn: the session's, until `cd` moves it for the turns after. */
  private cwd: string;

  constructor(private readonly scope: RolloutScope) {
    this.mode = scope.mode ?? 'legacy';
    this.cwd = scope.cwd;
    this.clock = (scope.start ?? new Date('2026-11-30T09:00:00.000Z')).getTime();
    const source = scope.parentThreadId === undefined ? 'cli' : { subagent: { thread_spawn: { parent_thread_id: scope.parentThreadId, depth: 1 } } };
    this.push('session_meta', {
      id: scope.id,
      ...(scope.forkedFromId === undefined ? {} : { forked_from_id: scope.forkedFromId }),
      timestamp: this.time(),
      cwd: scope.cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.130.0',
      source,
      model_provider: 'openai',
      git: { commit_hash: '0000000000000000000000000000000000000000', branch: 'main' },
    });
  }

  /** A user prompt opening a turn: turn_context, then the message (legacy: the model's copy and the UI's echo). */
  user(text: string): this {
    this.turn += 1;
    const turnId = `turn-${this.turn}`;
    this.event({ type: 'task_started', turn_id: turnId, model_context_window: 272000 });
    this.push('turn_context', { turn_id: turnId, cwd: this.cwd, model: this.scope.model ?? 'gpt-5.1-codex', approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' } });
    if (this.mode === 'paginated') return this.item({ type: 'UserMessage', id: `item-${this.lines.length}`, content: [{ type: 'text', text }] });
    this.response({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    return this.event({ type: 'user_message', message: text, images: [] });
  }

  reasoning(text: string): this {
    if (this.mode === 'paginated') return this.item({ type: 'Reasoning', id: `item-${this.lines.length}`, summary_text: [text] });
    return this.response({ type: 'reasoning', summary: [{ type: 'summary_text', text }], content: null, encrypted_content: 'gAAAA' });
  }

  /** A reply, followed by its token count. */
  agent(text: string, tokens = { input: 1200, cached: 800, output: 90 }): this {
    if (this.mode === 'paginated') this.item({ type: 'AgentMessage', id: `item-${this.lines.length}`, content: [{ type: 'Text', text }] });
    else {
      this.event({ type: 'agent_message', message: text });
      this.response({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    }
    return this.event({
      type: 'token_count',
      info: { last_token_usage: { input_tokens: tokens.input, cached_input_tokens: tokens.cached, output_tokens: tokens.output, reasoning_output_tokens: 0, total_tokens: tokens.input + tokens.output } },
    });
  }

  /** The turns from the next prompt on run in another folder (`codex -C`, a resume elsewhere): their turn_context says it. */
  cd(folder: string): this {
    this.cwd = folder;
    return this;
  }

  /** The folder the current turn runs in. */
  folder(): string {
    return this.cwd;
  }

  /**
   * A `ghost_snapshot` response item: Codex's commit of the workspace as the turn starts (`ghost_commit` as in
   * Codex's protocol `GhostCommit`: `id`, `parent`, `preexisting_untracked_files`, `preexisting_untracked_dirs`).
   */
  ghostSnapshot(commit: string, parent: string | null = null): this {
    return this.response({ type: 'ghost_snapshot', ghost_commit: { id: commit, parent, preexisting_untracked_files: [], preexisting_untracked_dirs: [] } });
  }

  /**
   * A command that started and has not ended (no `exec_command_end`). `answered`: Codex's unified exec gave the
   * model what it had after its wait, "Process running with session ID N" and no exit code; otherwise the call has
   * no output line at all (the file ends while it runs).
   */
  running(cmd: string, answered = false): this {
    const callId = this.callId();
    if (this.mode === 'paginated') return this.event({ type: 'item_started', item: { type: 'CommandExecution', id: callId, command: cmd, cwd: this.cwd, status: 'in_progress' } });
    this.response({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: this.cwd, yield_time_ms: 10000 }), call_id: callId });
    this.event({ type: 'exec_command_begin', call_id: callId, turn_id: `turn-${this.turn}`, command: ['bash', '-lc', cmd], cwd: this.cwd });
    if (!answered) return this;
    return this.response({ type: 'function_call_output', call_id: callId, output: `Chunk ID: ${callId}\nWall time: 10.0020 seconds\nProcess running with session ID 41\nOriginal token count: 0\nOutput:\n` });
  }

  /** A shell command and its output; `output: null` leaves the call without one ("outcome not recorded"). */
  command(cmd: string, result: { readonly exitCode: number; readonly output: string } | null): this {
    const callId = this.callId();
    if (this.mode === 'paginated') {
      if (result === null) return this;
      return this.item({ type: 'CommandExecution', id: callId, command: cmd, cwd: this.cwd, status: result.exitCode === 0 ? 'completed' : 'failed', exit_code: result.exitCode, aggregated_output: result.output });
    }
    this.response({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: this.cwd }), call_id: callId });
    if (result === null) return this;
    this.event({ type: 'exec_command_end', call_id: callId, command: ['bash', '-lc', cmd], cwd: this.cwd, exit_code: result.exitCode, aggregated_output: result.output });
    return this.response({
      type: 'function_call_output',
      call_id: callId,
      output: `Chunk ID: ${callId}\nWall time: 0.1000 seconds\nProcess exited with code ${result.exitCode}\nOriginal token count: 10\nOutput:\n${result.output}`,
    });
  }

  /** An apply_patch; `accepted: false` is a rejected patch (verification failed). */
  patch(path: string, before: string, after: string, accepted: boolean): this {
    const callId = this.callId();
    const envelope = `*** Begin Patch\n*** Update File: ${path}\n@@\n-${before}\n+${after}\n*** End Patch\n`;
    if (this.mode === 'paginated') {
      return this.item({ type: 'FileChange', id: callId, changes: [{ path: `${this.cwd}/${path}`, kind: 'update', diff: `-${before}\n+${after}` }], status: accepted ? 'completed' : 'failed' });
    }
    this.response({ type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: envelope });
    if (accepted) {
      this.event({ type: 'patch_apply_end', call_id: callId, success: true, changes: { [`${this.cwd}/${path}`]: { type: 'update', unified_diff: `@@\n-${before}\n+${after}`, move_path: null } } });
    }
    const output = accepted
      ? JSON.stringify({ output: `Success. Updated the following files:\nM ${path}\n`, metadata: { exit_code: 0, duration_seconds: 0 } })
      : `apply_patch verification failed: Failed to find expected lines in ${this.cwd}/${path}:\n${before}`;
    return this.response({ type: 'custom_tool_call_output', call_id: callId, output });
  }

  /** The person stopped the turn. */
  abort(): this {
    return this.event({ type: 'turn_aborted', turn_id: `turn-${this.turn}`, reason: 'interrupted' });
  }

  /** The history was compacted to this summary. */
  compact(summary: string): this {
    return this.push('compacted', { message: summary, replacement_history: [] });
  }

  complete(): this {
    return this.event({ type: 'task_complete', turn_id: `turn-${this.turn}`, last_agent_message: null });
  }

  /** A line of a type this Arbor does not know (newer Codex builds add some). */
  future(): this {
    return this.push('future_record_type', { note: 'a later Codex' });
  }

  /** `update_plan` (paginated: a Plan item). */
  plan(steps: readonly { readonly step: string; readonly status: 'pending' | 'in_progress' | 'completed' }[], explanation?: string): this {
    const callId = this.callId();
    if (this.mode === 'paginated') return this.item({ type: 'Plan', id: callId, items: steps.map((s) => ({ text: s.step, completed: s.status === 'completed' })) });
    this.response({ type: 'function_call', name: 'update_plan', arguments: JSON.stringify({ plan: steps, ...(explanation === undefined ? {} : { explanation }) }), call_id: callId });
    return this.response({ type: 'function_call_output', call_id: callId, output: 'Plan updated' });
  }

  /** A web search (it has no call id in either mode). */
  webSearch(query: string): this {
    if (this.mode === 'paginated') return this.item({ type: 'WebSearch', id: this.callId(), query });
    this.event({ type: 'web_search_end', call_id: `ws_${this.calls}`, query });
    return this.response({ type: 'web_search_call', status: 'completed', action: { type: 'search', query } });
  }

  /** Any other function call (`view_image`, `mcp__server__tool`, the older argv `shell`); `output: null` has none. */
  tool(name: string, args: Readonly<Record<string, unknown>>, output: string | null): this {
    const callId = this.callId();
    this.response({ type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId });
    return output === null ? this : this.response({ type: 'function_call_output', call_id: callId, output });
  }

  /** The lines so far, forgotten here: a long rollout is written in pieces (the import benchmark's 200 MB). */
  drain(): string[] {
    return this.lines.splice(0, this.lines.length);
  }

  /** One line of any shape, for generators built on this one (codex-file-rollout.ts). */
  emit(type: string, payload: Record<string, unknown>): this {
    return this.push(type, payload);
  }

  /** The next call id, as the builder's own calls number them. */
  nextCallId(): string {
    return this.callId();
  }

  take(): string[] {
    return [...this.lines];
  }

  text(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }

  /** Writes the rollout; a path ending in `.zst` is zstd-compressed. */
  async write(path: string): Promise<void> {
    const bytes = Buffer.from(this.text(), 'utf8');
    await writeFile(path, path.endsWith('.zst') ? zstdStored(bytes) : bytes);
  }

  private item(item: Record<string, unknown>): this {
    return this.event({ type: 'item_completed', thread_id: this.scope.id, turn_id: `turn-${this.turn}`, item });
  }

  private response(payload: Record<string, unknown>): this {
    return this.push('response_item', payload);
  }

  private event(payload: Record<string, unknown>): this {
    return this.push('event_msg', payload);
  }

  private push(type: string, payload: Record<string, unknown>): this {
    this.lines.push(JSON.stringify({ timestamp: this.time(), type, payload }));
    this.clock += 1000;
    return this;
  }

  private time(): string {
    return new Date(this.clock).toISOString();
  }

  private callId(): string {
    this.calls += 1;
    return `call_${String(this.calls).padStart(4, '0')}`;
  }
}

/**
 * A rollout with every shape the importer must handle: two turns with commands, an accepted and a rejected
 * patch, a call without output, an aborted turn, a compaction, and a reply after it.
 */
export function sampleRollout(scope: RolloutScope): RolloutBuilder {
  return new RolloutBuilder(scope)
    .user('Fix the failing date test')
    .reasoning('Look at the test first')
    .command('npm test -- dates', { exitCode: 1, output: 'FAIL dates.test.ts\n1 failed' })
    .patch('src/dates.ts', 'return d.getDay();', 'return d.getUTCDay();', true)
    .command('npm test -- dates', { exitCode: 0, output: 'PASS dates.test.ts' })
    .agent('The date test passes now: the weekday is read in UTC.')
    .complete()
    .user('Also rename the helper')
    .patch('src/dates.ts', 'function weekday(', 'function weekdayOf(', false)
    .command('git status --short', null)
    .abort()
    .compact('Fixed the UTC weekday bug; renaming the helper was interrupted.')
    .user('Show me the diff')
    .agent('Here is the diff of src/dates.ts.')
    .complete();
}
