/**
 * Parses one Codex rollout (FORMATS.md §2) into nodes, records and problems. A rollout is linear: each step's
 * parent is the step before it, so an append (steps below the last one) goes on from what the last import's
 * reading kept (resume-state.ts); without it (a first import, a rewritten or compressed file, a store from
 * before migration 040) the file is read from its start and only lines at or after the resume point are
 * emitted. A node's id is the rollout's thread id
 * and the line's byte offset: the same across re-imports, appends, and a plain or compressed copy. Lines'
 * own `ordinal` restarts in resumed files, so order is file position.
 */
import { basename } from 'node:path';
import type { TokenUsage } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { invalidUtf8Reason, truncatedLineReason } from '../claude-code/line-problems';
import { toolResultLabel } from '../claude-code/tool-labels';
import type { ReadLine } from '../line-reader';
import { RAW_LIMIT, type ParsedNode, type ParsedRecord, type ParseOptions, type ParseResult, type ParseSink, type TranscriptFile } from '../transcript';
import { parseWithLineage } from './lineage';
import { CALL_USE, readSessionMeta, summarizeLine, type StepEntry } from './rollout-entry';
import { codexLineVerdict } from './format-doctor';

type StepCalls = StepEntry['calls'];
type StepResults = StepEntry['results'];
import { isCompressedRollout, readRolloutLines } from './rollout-lines';
import { loadResumeState, RolloutCalls, saveResumeState, type RolloutSnapshot } from './resume-state';

export interface CodexParseOptions extends ParseOptions {
  readonly chunkSize?: number;
  readonly maxLineBytes?: number;
  readonly beforeRead?: () => Promise<void> | void;
  /** false: the rollout alone, its copies of another thread not matched (lineage.ts reads it so). */
  readonly lineage?: false;
}

export async function parseCodexRollout(file: TranscriptFile, sink: ParseSink, options: CodexParseOptions): Promise<ParseResult> {
  if (options.lineage !== false) return parseWithLineage(file, sink, options, parseCodexRollout);
  const resumed = await loadResumeState(file.path, options.startOffset, options.resumeState);
  // The kept calls are looked up only when the state they go with fits this read.
  const calls = new RolloutCalls(resumed === null ? null : (options.resumeKey ?? null));
  const state = new RolloutState(file, sink, options.startOffset, calls, resumed);
  const end = await readRolloutLines(file.path, (line) => state.line(line), {
    ...options,
    resumeAt: resumed === null ? undefined : { offset: resumed.at, line: resumed.line },
    // The reader's buffers may be handed on (the parse worker transfers them) once this returns: the step held
    // for its usage, and the records waiting behind it, keep copies instead of views into them.
    beforeRead: () => {
      state.ownHeld();
      return options.beforeRead?.();
    },
  });
  state.finish();
  // A compressed file is read whole every time (its offsets are in the decompressed text): nothing to keep.
  if (isCompressedRollout(file.path)) return { ...end, resumeState: null };
  return { ...end, resumeState: await saveResumeState(file.path, end, state.snapshot()), resumeKeys: calls.keys() };
}

/** The thread id a rollout's nodes are named by when it has no session_meta id: its file name's uuid, or the name. */
export function threadIdFromName(path: string): string {
  const name = basename(path).replace(/\.zst$/, '').replace(/\.jsonl$/, '');
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(name);
  return uuid?.[1] ?? name;
}

class RolloutState {
  private threadId: string;
  private cwd: string | null = null;
  private model: string | null = null;
  private version: string | null = null;
  private gitBranch: string | null = null;
  private previous: string | null = null;
  /** The last step, held one line so a following token_count can give it its usage. */
  private held: ParsedNode | null = null;
  private waiting: ParsedRecord[] = [];
  /** The stored id of each open (unanswered) call, by its raw id: see `pairCalls`. */
  private readonly openCalls = new Map<string, string>();
  private readonly lastEcho = new Map<string, { source: 'event' | 'item'; text: string; sourceId: string }>();
  private seenMeta = false;
  private forked = false;

  constructor(
    private readonly file: TranscriptFile,
    private readonly sink: ParseSink,
    /** Lines before this offset were imported before: read for context, not emitted again. */
    private readonly emitFrom: number,
    /** Call ids seen so far (with those an earlier read kept): their uses and names. */
    private readonly calls: RolloutCalls,
    /** What reading the lines before `emitFrom` told, kept by the last import: they are not read again. */
    resumed: RolloutSnapshot | null = null,
  ) {
    // A subagent's file is read in its parent's session (sessionHint); its own thread names its nodes.
    this.threadId = file.agentId ?? file.sessionHint ?? threadIdFromName(file.path);
    if (resumed !== null) this.restore(resumed);
  }

  /** What the next import needs to go on after the last line read (held steps are flushed by then). */
  snapshot(): RolloutSnapshot {
    return {
      threadId: this.threadId,
      cwd: this.cwd,
      model: this.model,
      version: this.version,
      gitBranch: this.gitBranch,
      previous: this.previous,
      seenMeta: this.seenMeta,
      forked: this.forked,
      openCalls: [...this.openCalls],
      echoes: [...this.lastEcho].map(([role, echo]) => [role, echo.source, echo.text, echo.sourceId] as const),
    };
  }

  private restore(saved: RolloutSnapshot): void {
    this.threadId = saved.threadId;
    this.cwd = saved.cwd;
    this.model = saved.model;
    this.version = saved.version;
    this.gitBranch = saved.gitBranch;
    this.previous = saved.previous;
    this.seenMeta = saved.seenMeta;
    this.forked = saved.forked;
    for (const [id, stored] of saved.openCalls) this.openCalls.set(id, stored);
    for (const [role, source, text, sourceId] of saved.echoes) this.lastEcho.set(role, { source, text, sourceId });
  }

  line(line: ReadLine): void {
    const emit = line.offset >= this.emitFrom;
    if (line.oversize) {
      if (emit) this.sink.problem({ file: this.file.path, line: line.line, reason: truncatedLineReason(line.totalBytes) });
      return;
    }
    const bytes = line.bytes;
    if (bytes.length === 0) return;
    const badUtf8 = invalidUtf8Reason(bytes);
    if (badUtf8 !== null && emit) this.sink.problem({ file: this.file.path, line: line.line, reason: badUtf8 });
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      if (emit) this.sink.problem({ file: this.file.path, line: line.line, reason: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (!isObject(value)) {
      if (emit) this.sink.problem({ file: this.file.path, line: line.line, reason: 'not a JSON object' });
      return;
    }
    // What the format doctor would say of the stored line, said here where it is parsed (db/format-counts.ts).
    const verdict = codexLineVerdict(value);
    const type = typeof value.type === 'string' ? value.type : 'unknown';
    const payload: JsonObject = isObject(value.payload) ? value.payload : {};
    const timestamp = typeof value.timestamp === 'string' ? value.timestamp : null;
    if (type === 'session_meta' && !this.seenMeta) this.readMeta(payload);

    const entry = summarizeLine(type, payload, this.cwd);
    const raw = bytes.length > RAW_LIMIT ? bytes.subarray(0, RAW_LIMIT) : bytes;
    if (entry.as === 'record') {
      if (entry.context !== undefined) {
        this.model = entry.context.model ?? this.model;
        this.cwd = entry.context.cwd ?? this.cwd;
      }
      if (entry.usage !== undefined) this.giveUsage(entry.usage);
      if (emit) this.record({ type: entry.type, refSourceId: this.previous, summary: null, sessionSourceId: this.threadId, line: line.line, offset: line.offset, raw, rawBytes: bytes.length, ...verdict });
      return;
    }
    const sourceId = `${this.threadId}:${line.offset}`;
    if (this.isEcho(entry, sourceId)) {
      if (emit) this.record({ type: `echo:${type === 'event_msg' ? String(payload.type) : 'message'}`, refSourceId: this.lastEcho.get(entry.echo?.role ?? '')?.sourceId ?? this.previous, summary: null, sessionSourceId: this.threadId, line: line.line, offset: line.offset, raw, rawBytes: bytes.length, ...verdict });
      return;
    }
    const { calls, results } = this.pairCalls(entry);
    for (const call of entry.calls) this.calls.setName(call.id, call.name);
    const node: ParsedNode = {
      sourceId,
      parentSourceId: this.previous,
      logicalParentSourceId: null,
      sessionSourceId: this.threadId,
      kind: entry.kind,
      timestamp,
      label: this.labelOf(entry),
      text: entry.text,
      toolUses: calls,
      toolResults: results.map((result) => ({ toolUseId: result.toolUseId, isError: result.isError })),
      spawnedAgentId: null,
      spawnedByToolUseId: null,
      sidechain: this.file.role === 'subagent',
      agentId: this.file.role === 'subagent' ? this.threadId : null,
      model: entry.kind === 'assistant' || entry.kind === 'tool_call' || entry.kind === 'thinking' ? this.model : null,
      cwd: this.cwd,
      gitBranch: this.gitBranch,
      version: this.version,
      usage: null,
      line: line.line,
      offset: line.offset,
      raw,
      rawBytes: bytes.length,
      ...verdict,
      ...(type === 'session_meta' ? this.lineageOf(payload) : {}),
    };
    this.previous = sourceId;
    this.flush();
    this.held = emit ? node : null;
  }

  finish(): void {
    this.flush();
  }

  private readMeta(payload: JsonObject): void {
    this.seenMeta = true;
    const meta = readSessionMeta(payload);
    this.forked = meta.forkedFromId !== null;
    if (this.file.sessionHint === null && meta.id !== null) this.threadId = meta.id;
    this.cwd = meta.cwd ?? this.cwd;
    this.version = meta.version;
    this.gitBranch = meta.gitBranch;
  }

  /** How this rollout goes on from another thread (lineage.ts matches the copies; the store links the two). */
  private lineageOf(payload: JsonObject): Pick<ParsedNode, 'linkedSession'> {
    const meta = readSessionMeta(payload);
    if (meta.forkedFromId !== null) return { linkedSession: { kind: 'fork-of', sessionSourceId: meta.forkedFromId } };
    // Another thread's session_meta further down a rollout that is no fork: a resume written into a new file.
    if (meta.id !== null && meta.id !== this.threadId && !this.forked) return { linkedSession: { kind: 'continues', sessionSourceId: meta.id } };
    if (meta.parentThreadId !== null) return { linkedSession: { kind: 'subagent', sessionSourceId: meta.parentThreadId } };
    return {};
  }

  /**
   * Ids as stored: a call pairs with its output by `call_id`, which a resumed rollout (or Arbor's own
   * generator, numbering from 1 in each part) can repeat. A repeated id gets `#n` (its n-th use) so each call
   * keeps its own result, and an output pairs with the nearest open call of its id. The raw lines keep the id as
   * written: `rawCallId` reads it back.
   */
  private pairCalls(entry: { readonly calls: StepCalls; readonly results: StepResults }): { calls: StepCalls; results: StepResults } {
    if (entry.calls.length === 0 && entry.results.length === 0) return entry;
    const calls = entry.calls.map((call) => {
      const uses = this.calls.use(call.id);
      const id = uses === 1 ? call.id : `${call.id}${CALL_USE}${uses}`;
      this.openCalls.set(call.id, id);
      return id === call.id ? call : { ...call, id };
    });
    const results = entry.results.map((result) => {
      const id = this.openCalls.get(result.toolUseId) ?? result.toolUseId;
      this.openCalls.delete(result.toolUseId);
      return id === result.toolUseId ? result : { ...result, toolUseId: id };
    });
    return { calls, results };
  }

  private labelOf(entry: StepEntry): string {
    const result = entry.results[0];
    if (result === undefined || entry.calls.length > 0) return entry.label;
    return toolResultLabel(this.calls.name(result.toolUseId), result.text, result.isError, 0);
  }

  /** The second copy of a message (same role and text, from the other stream) right after the first. */
  private isEcho(entry: StepEntry, sourceId: string): boolean {
    const echo = entry.echo;
    if (echo === null) return false;
    const text = echo.text.trim();
    const last = this.lastEcho.get(echo.role);
    if (last !== undefined && last.source !== echo.source && last.text === text) {
      this.lastEcho.delete(echo.role);
      return true;
    }
    this.lastEcho.set(echo.role, { source: echo.source, text, sourceId });
    return false;
  }

  private giveUsage(usage: TokenUsage): void {
    const held = this.held;
    if (held === null || held.usage !== null) return;
    if (held.kind !== 'assistant' && held.kind !== 'tool_call' && held.kind !== 'thinking') return;
    this.held = { ...held, usage };
  }

  /** Records wait behind the held step, so the store always sees a node before what refers to it. */
  private record(record: ParsedRecord): void {
    if (this.held === null) this.sink.record(record);
    else this.waiting.push(record);
  }

  /** The held step's and waiting records' raw bytes copied out of the reader's buffers (see parseCodexRollout). */
  ownHeld(): void {
    if (this.held !== null) this.held = { ...this.held, raw: Buffer.from(this.held.raw) };
    this.waiting = this.waiting.map((record) => ({ ...record, raw: Buffer.from(record.raw) }));
  }

  private flush(): void {
    if (this.held !== null) this.sink.node(this.held);
    this.held = null;
    for (const record of this.waiting) this.sink.record(record);
    this.waiting = [];
  }
}
