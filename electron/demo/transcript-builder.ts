/**
 * Writes Claude Code 2.1.x transcript lines (FORMATS.md §1) the way the CLI does: one line per assistant
 * content block sharing message.id, tool results parented on the line that carried their tool_use,
 * progress lines threaded into the parent chain, envelope fields in the CLI's key order.
 * Used by the synthetic benchmark corpus and by the demo; both queue lines here and `take()` them.
 */
import { type Random } from '../../shared/random';

export interface TranscriptScope {
  readonly sessionId: string;
  readonly cwd: string;
  readonly version: string;
  readonly gitBranch: string;
  readonly slug: string;
  /** Set for a subagent transcript (subagents/agent-<id>.jsonl): lines are sidechain lines with agentId. */
  readonly agentId?: string;
}

export type AssistantBlock =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  | ServerToolBlock;

/** A server tool's call and its result (the advisor, web search): answered inside the message, never by a tool_result line. */
export type ServerToolBlock =
  | { readonly type: 'server_tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly type: `${string}_tool_result`; readonly tool_use_id: string; readonly content: unknown };

/** `worktree-state`'s worktreeSession (issue 13): the session works in a git worktree of originalCwd. */
export interface WorktreeSession {
  readonly originalCwd: string;
  readonly worktreePath: string;
  readonly worktreeName?: string;
  readonly worktreeBranch?: string;
}

export interface Usage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly output_tokens: number;
}

/** Where a tool_use was written: its result line is parented on that line. */
export interface ToolCall {
  readonly lineUuid: string;
  readonly toolUseId: string;
  readonly name: string;
}

export interface AssistantMessage {
  readonly uuids: readonly string[];
  readonly calls: readonly ToolCall[];
}

export interface FileBackup {
  readonly backupFileName: string | null;
  readonly version: number;
  readonly backupTime: string;
}

/** `agent-<id>.meta.json` beside a subagent's transcript (2026): its type, description and, when nested, its parent agent. */
export function agentMetaJson(meta: { readonly agentType?: string; readonly description?: string; readonly parentAgentId?: string }): string {
  return `${JSON.stringify(meta)}\n`;
}

export class TranscriptBuilder {
  private readonly pending: string[] = [];
  private time: number;
  private forcedParent: { readonly uuid: string | null } | null = null;
  private bashProgressCount = 0;
  private reservedUuid: string | null = null;
  /** The session's folder once a `relocated` or `worktree-state` line moved it (the scope's cwd before). */
  private folder: string | null = null;
  private worktree: WorktreeSession | null = null;
  /** Set while lines are written under another session's id (withSessionId). */
  private sessionOverride: string | null = null;
  /** The uuid of the last line that has one: the default parent of the next line. */
  last: string | null = null;
  /** Lines with a uuid written so far (the DAG's nodes). */
  nodeCount = 0;

  constructor(
    readonly scope: TranscriptScope,
    private readonly random: Random,
    start: Date,
  ) {
    this.time = start.getTime();
  }

  /** Moves the transcript clock forward (the CLI's timestamps are wall-clock, strictly increasing here). */
  advance(ms: number): void {
    this.time += Math.max(1, Math.round(ms));
  }

  timestamp(): string {
    return new Date(this.time).toISOString();
  }

  /** The next line's parent is `uuid` instead of the last line (a rewind re-prompts from an earlier line). */
  parentNextOn(uuid: string | null): void {
    this.forcedParent = { uuid };
  }

  /** Fixes the uuid of the next line with a uuid (a prompt's file-history-snapshot is written before it). */
  reserveUuid(): string {
    this.reservedUuid ??= this.random.uuid();
    return this.reservedUuid;
  }

  /** Queued lines (JSON text, no newline), in file order; clears the queue. */
  take(): string[] {
    return this.pending.splice(0, this.pending.length);
  }

  messageId(): string {
    return `msg_01${this.random.base62(22)}`;
  }

  toolUseId(): string {
    return `toolu_01${this.random.base62(22)}`;
  }

  userPrompt(text: string, extra: Readonly<Record<string, unknown>> = {}): string {
    return this.node('user', { message: { role: 'user', content: text } }, { permissionMode: 'default', ...extra });
  }

  /**
   * One line per block, all sharing message.id and requestId (FORMATS.md §1.2 "one API message = many lines").
   * `afterCall` may write side lines after a tool_use line (2.1.3x threads PreToolUse hook progress there).
   */
  assistant(blocks: readonly AssistantBlock[], model: string, usage: Usage, stopReason: 'tool_use' | 'end_turn', afterCall?: (call: ToolCall) => void): AssistantMessage {
    const id = this.messageId();
    const requestId = `req_011C${this.random.base62(18)}`;
    const uuids: string[] = [];
    const calls: ToolCall[] = [];
    blocks.forEach((block, index) => {
      const isLast = index === blocks.length - 1;
      const message = {
        model,
        id,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: isLast ? stopReason : null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          cache_creation: { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
          output_tokens: usage.output_tokens,
          service_tier: 'standard',
        },
      };
      const uuid = this.node('assistant', { message }, { requestId }, true);
      uuids.push(uuid);
      if (block.type === 'tool_use') {
        calls.push({ lineUuid: uuid, toolUseId: block.id, name: block.name });
        if (!isLast) afterCall?.(calls[calls.length - 1]!);
      }
      this.advance(40 + this.random.int(0, 900));
    });
    return { uuids, calls };
  }

  /** The user line carrying a tool_result, parented on the assistant line that made the call. */
  toolResult(call: ToolCall, content: string | readonly Readonly<Record<string, unknown>>[], toolUseResult: unknown, isError = false): string {
    const block: Record<string, unknown> = { tool_use_id: call.toolUseId, type: 'tool_result', content };
    if (isError) block.is_error = true;
    this.parentNextOn(call.lineUuid);
    return this.node(
      'user',
      { message: { role: 'user', content: [block] } },
      { toolUseResult, sourceToolAssistantUUID: call.lineUuid },
    );
  }

  hookProgress(hookEvent: string, hookName: string, command: string, toolUseId: string): string {
    return this.progress({ type: 'hook_progress', hookEvent, hookName, command }, toolUseId, toolUseId);
  }

  bashProgress(toolUseId: string, output: string, elapsedTimeSeconds: number): string {
    const totalLines = output === '' ? 0 : output.split('\n').length;
    const data = { type: 'bash_progress', output, fullOutput: output, elapsedTimeSeconds, totalLines, timeoutMs: 120000 };
    return this.progress(data, `bash-progress-${this.bashProgressCount++}`, toolUseId);
  }

  agentProgress(toolUseId: string, agentId: string, prompt: string): string {
    const message = {
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: prompt }] },
      uuid: this.random.uuid(),
      timestamp: this.timestamp(),
    };
    const data = { message, normalizedMessages: [], type: 'agent_progress', prompt, agentId };
    return this.progress(data, `agent_${this.messageId()}`, toolUseId);
  }

  system(subtype: string, fields: Readonly<Record<string, unknown>>): string {
    return this.node('system', { subtype, ...fields, isMeta: false }, { level: 'info' });
  }

  /** compact_boundary (a new root, logical parent = the last pre-compaction line unless given) + the summary user line. */
  compaction(trigger: 'manual' | 'auto', preTokens: number, summaryText: string, logicalParentUuid: string | null = this.last): { boundary: string; summary: string } {
    this.parentNextOn(null);
    const boundary = this.node(
      'system',
      { subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false },
      { level: 'info', compactMetadata: { trigger, preTokens } },
      false,
      { logicalParentUuid },
    );
    this.advance(5);
    const summary = this.node(
      'user',
      { message: { role: 'user', content: summaryText } },
      { isVisibleInTranscriptOnly: true, isCompactSummary: true },
    );
    return { boundary, summary };
  }

  fileHistorySnapshot(messageId: string, trackedFileBackups: Readonly<Record<string, FileBackup>>, isSnapshotUpdate = false, snapshotMessageId = messageId): void {
    const snapshot = { messageId: snapshotMessageId, trackedFileBackups, timestamp: this.timestamp() };
    this.pending.push(JSON.stringify({ type: 'file-history-snapshot', messageId, snapshot, isSnapshotUpdate }));
  }

  summary(text: string, leafUuid: string): void {
    this.pending.push(JSON.stringify({ type: 'summary', summary: text, leafUuid }));
  }

  /** Any other uuid-less line (last-prompt, permission-mode, queue-operation…). */
  record(fields: Readonly<Record<string, unknown>>): void {
    this.pending.push(JSON.stringify(fields));
  }

  // Claude Code 2026 records (issue 13: folders that move, per-edit backups, titles, replacements, system lines).

  /** The folder the next lines run in (the scope's cwd until a relocation or worktree moves it). */
  cwd(): string {
    return this.folder ?? this.scope.cwd;
  }

  /** `relocated`: the session's folder moved; later lines carry the new cwd. */
  relocated(relocatedCwd: string): void {
    this.pending.push(JSON.stringify({ type: 'relocated', sessionId: this.scope.sessionId, relocatedCwd, timestamp: this.timestamp() }));
    this.folder = relocatedCwd;
  }

  /** `worktree-state`: the session enters a git worktree, or (null) leaves it for its original folder. */
  worktreeState(worktree: WorktreeSession | null): void {
    const worktreeSession = worktree === null ? null : { ...worktree, sessionId: this.scope.sessionId };
    this.pending.push(JSON.stringify({ type: 'worktree-state', worktreeSession, sessionId: this.scope.sessionId }));
    this.folder = worktree === null ? (this.worktree?.originalCwd ?? this.folder) : worktree.worktreePath;
    this.worktree = worktree;
  }

  /** `file-history-delta`: the backup Claude Code took of one file before the edit `messageId` made. */
  fileHistoryDelta(messageId: string, trackingPath: string, backup: FileBackup & { readonly realParentDir?: string }): void {
    this.pending.push(JSON.stringify({ type: 'file-history-delta', messageId, trackingPath, backup, sessionId: this.scope.sessionId }));
  }

  customTitle(customTitle: string): void {
    this.pending.push(JSON.stringify({ type: 'custom-title', customTitle, sessionId: this.scope.sessionId }));
  }

  aiTitle(aiTitle: string): void {
    this.pending.push(JSON.stringify({ type: 'ai-title', aiTitle, sessionId: this.scope.sessionId }));
  }

  /** `content-replacement`: what Claude Code sent the model instead of some tool results (by tool_use id). */
  contentReplacement(replacements: readonly Readonly<Record<string, unknown>>[]): void {
    this.pending.push(JSON.stringify({ type: 'content-replacement', sessionId: this.scope.sessionId, replacements }));
  }

  /** Field names as public parsers of real 2.1.x transcripts read them (records-2026.ts cites them). */
  modelFallback(originalModel: string, fallbackModel: string, apiRefusalCategory?: string): string {
    const content = `${originalModel} declined this request; continuing with ${fallbackModel}`;
    return this.system('model_refusal_fallback', { content, originalModel, fallbackModel, ...(apiRefusalCategory === undefined ? {} : { apiRefusalCategory }) });
  }

  agentsKilled(content: string): string {
    return this.system('agents_killed', { content });
  }

  scheduledTaskFire(content: string): string {
    return this.system('scheduled_task_fire', { content });
  }

  /**
   * The lineage lines of Claude Code 2026 (issue 13). A fork (`/branch`, `--fork-session`) starts its file with
   * copies of the parent's lines, each carrying `forkedFrom: {sessionId, messageUuid}` (the original's uuid),
   * with this session's id, and with the same uuids or, `newUuids`, fresh ones (parents renumbered alike).
   * The next line of this builder continues from the last copy. Returns the copies' uuids.
   */
  forkCopies(parentLines: readonly string[], parentSessionId: string, options: { readonly newUuids?: boolean } = {}): string[] {
    const renamed = new Map<string, string>();
    const uuids: string[] = [];
    for (const text of parentLines) {
      const entry = JSON.parse(text) as Record<string, unknown>;
      if (typeof entry.uuid !== 'string') continue; // records (snapshots, summaries) are not copied
      const uuid = options.newUuids === true ? this.random.uuid() : entry.uuid;
      renamed.set(entry.uuid, uuid);
      const parent = typeof entry.parentUuid === 'string' ? (renamed.get(entry.parentUuid) ?? entry.parentUuid) : null;
      const copy = { ...entry, parentUuid: parent, sessionId: this.scope.sessionId, uuid, forkedFrom: { sessionId: parentSessionId, messageUuid: entry.uuid } };
      this.pending.push(JSON.stringify(copy));
      uuids.push(uuid);
      this.last = uuid;
      this.nodeCount++;
    }
    return uuids;
  }

  /** `continued-in`: this session moved to the background and goes on under `continuedInSessionId`. */
  continuedIn(continuedInSessionId: string): void {
    this.pending.push(JSON.stringify({ type: 'continued-in', sessionId: this.scope.sessionId, continuedInSessionId, timestamp: this.timestamp() }));
  }

  /** `fork-context-ref`, the first line of a forked subagent's file: it inherits the parent's context up to `parentLastUuid`. */
  forkContextRef(parentSessionId: string, parentLastUuid: string, contextLength: number): void {
    const agentId = this.scope.agentId ?? null;
    this.pending.push(JSON.stringify({ type: 'fork-context-ref', agentId, parentSessionId, parentLastUuid, contextLength }));
  }

  /** Lines written inside `write` carry `sessionId` (a file that opens with the previous session's lines). */
  withSessionId<T>(sessionId: string, write: () => T): T {
    this.sessionOverride = sessionId;
    try {
      return write();
    } finally {
      this.sessionOverride = null;
    }
  }

  private nextUuid(): string {
    const uuid = this.reservedUuid ?? this.random.uuid();
    this.reservedUuid = null;
    return uuid;
  }

  private progress(data: Readonly<Record<string, unknown>>, toolUseID: string, parentToolUseID: string): string {
    const uuid = this.nextUuid();
    const line = { ...this.head(), type: 'progress', data, toolUseID, parentToolUseID, uuid, timestamp: this.timestamp() };
    this.commit(uuid, line);
    return uuid;
  }

  /**
   * A conversational line: envelope first (as 2.1.x writes it), then type and body, then uuid/timestamp,
   * then the type's trailing fields. `bodyFirst` puts the body before `type` (assistant lines do).
   */
  private node(
    type: 'user' | 'assistant' | 'system',
    body: Readonly<Record<string, unknown>>,
    tail: Readonly<Record<string, unknown>>,
    bodyFirst = false,
    beforeEnvelope: Readonly<Record<string, unknown>> = {},
  ): string {
    const uuid = this.nextUuid();
    const head = this.head(beforeEnvelope);
    const line = bodyFirst
      ? { ...head, ...body, type, uuid, timestamp: this.timestamp(), ...tail }
      : { ...head, type, ...body, uuid, timestamp: this.timestamp(), ...tail };
    this.commit(uuid, line);
    return uuid;
  }

  private head(beforeEnvelope: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
    const parentUuid = this.forcedParent ? this.forcedParent.uuid : this.last;
    this.forcedParent = null;
    const { sessionId, version, gitBranch, slug, agentId } = this.scope;
    const head: Record<string, unknown> = { parentUuid, ...beforeEnvelope, isSidechain: agentId !== undefined };
    if (agentId !== undefined) head.agentId = agentId;
    return { ...head, userType: 'external', cwd: this.cwd(), sessionId: this.sessionOverride ?? sessionId, version, gitBranch, slug };
  }

  private commit(uuid: string, line: Readonly<Record<string, unknown>>): void {
    this.pending.push(JSON.stringify(line));
    this.last = uuid;
    this.nodeCount++;
    this.advance(1 + this.random.int(0, 40));
  }
}
