/**
 * Parses one Claude Code transcript (FORMATS.md §1) into nodes, records and problems, streaming from a byte
 * offset so re-imports read only what was appended. Every line with a uuid becomes exactly one node — even a
 * line too large to parse — so the DAG never loses a link; bad lines are reported and skipped (DESIGN rule 5).
 */
import type { NodeKind } from '../../../shared/model';
import { RAW_LIMIT, type ParsedNode, type ParsedRecord, type ParseOptions, type ParseResult, type ParseSink, type TranscriptFile } from '../transcript';
import { readLines, type OversizeLine } from '../line-reader';
import { summarizeEntry, type EntrySummary, type SpawnCall, type ToolNames } from './entry-summary';
import { isObject, objectField, stringField, type JsonObject } from './json-shape';
import { clip } from './label-text';
import { invalidUtf8Reason, truncatedLineReason } from './line-problems';
import { readOversizeEnvelope, type OversizeEnvelope } from './oversize-line';
import { recordReference, recordTitle } from './records-2026';
import { claudeFactsOfLine } from './reply-facts';
import { RESULT_KINDS, toolResultIds } from './result-ids';
import { toolEffect, type ToolEffect } from '../../snapshots/reconstruct/tool-effects';
import { TranscriptLineage } from './lineage';
import { claudeLineVerdict } from './format-doctor';
import type { LineVerdict } from '../format-doctor-intake';

/** The calls whose input the reconstruction reads: those that may change files (a read-only or a subagent call's it does not). */
const READS_INPUT: ReadonlySet<ToolEffect> = new Set(['file-edit', 'may-write']);

export interface ClaudeParseOptions extends ParseOptions {
  /** Read size; tests shrink it to exercise chunk boundaries. */
  readonly chunkSize?: number;
  /** Lines this long or longer are not parsed (see line-reader). Default 64 MiB. */
  readonly maxLineBytes?: number;
  /** Awaited before each read, when every line emitted so far is complete (see line-reader's beforeRead). */
  readonly beforeRead?: () => Promise<void> | void;
}

const BOM = [0xef, 0xbb, 0xbf] as const;
/** Tool names remembered for result labels (most results follow their call within a few lines). */
const RECENT_TOOL_NAMES = 65_536;

export async function parseClaudeTranscript(
  file: TranscriptFile,
  sink: ParseSink,
  options: ClaudeParseOptions,
): Promise<ParseResult> {
  const state = new TranscriptState(file, sink, new TranscriptLineage(file, options.startOffset === 0));
  return readLines(
    file.path,
    (line) => {
      if (line.oversize) state.oversizeLine(line);
      else state.line(line.bytes, line.line, line.offset);
    },
    {
      startOffset: options.startOffset,
      startLine: options.startLine,
      signal: options.signal,
      onBytes: options.onBytes,
      chunkSize: options.chunkSize,
      maxLineBytes: options.maxLineBytes,
      beforeRead: options.beforeRead,
      // Emitted raw lines are views into the reader's buffers, never copied (and never from Node's shared
      // pool, so a worker can transfer them).
      keepLines: true,
      // Claude Code ends every line with `\n`, so a final line without one is normally still being written;
      // but copied or hand-made files often lack the last newline. A final line that parses as a JSON object
      // is complete either way; anything else waits for the next import.
      onUnterminatedLine: (line) => state.finalLine(line.bytes, line.line, line.offset) || state.truncated(line.bytes, line.line),
    },
  );
}

/** What the parser remembers across lines of one file. */
class TranscriptState {
  /** Two generations of recent calls' tool names (bounded; dropping the older one whole is O(1)). */
  private recentToolNames = new Map<string, string>();
  private olderToolNames = new Map<string, string>();
  private readonly toolNames: ToolNames = { get: (id) => this.recentToolNames.get(id) ?? this.olderToolNames.get(id) };
  /** Main-thread Task/Agent calls whose inline sidechain has not been seen yet. */
  private readonly pendingSpawns: SpawnCall[] = [];

  constructor(
    private readonly file: TranscriptFile,
    private readonly sink: ParseSink,
    private readonly lineage: TranscriptLineage,
  ) {}

  line(lineBytes: Buffer, line: number, offset: number): void {
    if (lineBytes.length === 0) return;
    const bytes = withoutBom(lineBytes, offset);
    this.checkUtf8(bytes, line);
    const source = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      if (source.trim().length === 0) return;
      this.problem(line, jsonFailure(error));
      return;
    }
    if (!isObject(value)) {
      this.problem(line, `not a transcript entry: a JSON ${describe(value)}`);
      return;
    }
    this.entry(value, bytes, line, offset);
  }

  /** The last line of a file without a final `\n`: handled only if complete (see parseClaudeTranscript). */
  finalLine(lineBytes: Buffer, line: number, offset: number): boolean {
    const bytes = withoutBom(lineBytes, offset);
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      return false;
    }
    if (!isObject(value)) return false;
    this.checkUtf8(bytes, line);
    this.entry(value, bytes, line, offset);
    return true;
  }

  /** A final line that is not (yet) complete is reported; it stays unread, so a later import reads it whole. */
  truncated(bytes: Buffer, line: number): false {
    if (bytes.some((byte) => byte > 0x20)) this.problem(line, truncatedLineReason(bytes.length));
    return false;
  }

  /** The line is kept as its bytes (raw); its strings were read with U+FFFD where they were not UTF-8: say so. */
  private checkUtf8(bytes: Buffer, line: number): void {
    const reason = invalidUtf8Reason(bytes);
    if (reason !== null) this.problem(line, reason);
  }

  private entry(value: JsonObject, bytes: Buffer, line: number, offset: number): void {
    const type = stringField(value, 'type');
    const uuid = stringField(value, 'uuid');
    // What the format doctor would say of the stored line, said here where it is parsed (db/format-counts.ts).
    const verdict = claudeLineVerdict(value);
    if (uuid !== null) this.sink.node(this.lineage.node(value, this.node(value, type, uuid, bytes, line, offset, verdict)));
    else if (type !== null) this.sink.record(this.lineage.record(value, record(value, type, cutRaw(bytes), bytes.length, line, offset, verdict)));
    else this.problem(line, 'not a transcript entry: an object without "type" or "uuid"');
  }

  oversizeLine(line: OversizeLine): void {
    const envelope = readOversizeEnvelope(line.head, line.tail);
    const label = `line too large (${formatBytes(line.totalBytes)}): content not imported`;
    this.problem(line.line, label);
    const raw = line.head.subarray(0, RAW_LIMIT);
    if (envelope.uuid !== null) {
      this.sink.node({
        ...envelopeFields(envelope),
        agentId: envelope.agentId ?? this.fileAgentId(),
        sourceId: envelope.uuid,
        kind: oversizeKind(envelope, line.head),
        label,
        text: '',
        ...oversizeTools(envelope, line.head),
        spawnedAgentId: null,
        spawnedByToolUseId: null,
        model: null,
        usage: null,
        line: line.line,
        offset: line.offset,
        raw,
        rawBytes: line.totalBytes,
      });
    } else if (envelope.type !== null) {
      this.sink.record({
        type: envelope.type,
        refSourceId: null,
        summary: null,
        sessionSourceId: envelope.sessionId,
        line: line.line,
        offset: line.offset,
        raw,
        rawBytes: line.totalBytes,
      });
    }
  }

  private node(entry: JsonObject, type: string | null, uuid: string, bytes: Buffer, line: number, offset: number, verdict: LineVerdict): ParsedNode {
    const cwd = stringField(entry, 'cwd');
    // Search text is left to the background indexer, which re-reads the stored raw line — except for lines
    // longer than the stored cut, whose text could not be read back from it.
    const summary = summarizeEntry(entry, type, cwd, this.toolNames, bytes.length > RAW_LIMIT);
    const parentSourceId = stringField(entry, 'parentUuid');
    const sidechain = entry.isSidechain === true;
    this.remember(summary, sidechain);
    const spawnedByToolUseId =
      sidechain && parentSourceId === null && this.file.role === 'main' ? this.matchSpawn(summary.promptText) : null;
    return {
      sourceId: uuid,
      parentSourceId,
      logicalParentSourceId: stringField(entry, 'logicalParentUuid'),
      sessionSourceId: stringField(entry, 'sessionId'),
      kind: summary.kind,
      timestamp: stringField(entry, 'timestamp'),
      label: summary.label,
      text: bytes.length > RAW_LIMIT ? summary.text : null,
      toolUses: summary.toolUses,
      toolResults: summary.toolResults,
      // A result line kept whole: which calls it answers, so the reconstruction need not read it to know.
      resultIds: RESULT_KINDS.has(summary.kind) && bytes.length <= RAW_LIMIT ? toolResultIds(entry) : undefined,
      readForStates: this.readForStates(summary) ? true : undefined,
      spawnedAgentId: summary.spawnedAgentId,
      spawnedByToolUseId,
      sidechain,
      agentId: stringField(entry, 'agentId') ?? this.fileAgentId(),
      model: summary.model,
      cwd,
      gitBranch: stringField(entry, 'gitBranch'),
      version: stringField(entry, 'version'),
      usage: summary.usage,
      line,
      offset,
      raw: cutRaw(bytes),
      rawBytes: bytes.length,
      formatVersion: verdict.formatVersion,
      formatFindings: verdict.formatFindings,
      formatUnreadable: verdict.formatUnreadable,
      unnamedResultOf: summary.unnamedToolUseId ?? undefined,
      // Read here, where the line is parsed: the store would scan the raw bytes for them again.
      reply: summary.usage !== null ? claudeFactsOfLine(entry) : undefined,
    };
  }

  /**
   * Whether the reconstruction will read the line (session-effects.ts, checkpoints.ts): a prompt (its cwd for the
   * file history), a call whose input tells what it may change, a result of a file edit. Only where it is stored.
   */
  private readForStates(summary: EntrySummary): boolean {
    if (summary.kind === 'user') return true;
    if (summary.toolUses.some((use) => READS_INPUT.has(toolEffect(use.name, {})))) return true;
    return RESULT_KINDS.has(summary.kind) && summary.toolResults.some((result) => toolEffect(this.toolNames.get(result.toolUseId) ?? '', {}) === 'file-edit');
  }

  /** Tool names for result labels, and main-thread Task/Agent calls still waiting for an inline sidechain. */
  private remember(summary: EntrySummary, sidechain: boolean): void {
    for (const use of summary.toolUses) {
      this.recentToolNames.set(use.id, use.name);
      // Bounded on multi-GB files: a result that far from its call is named from the store (unnamedResultOf).
      if (this.recentToolNames.size >= RECENT_TOOL_NAMES) {
        this.olderToolNames = this.recentToolNames;
        this.recentToolNames = new Map();
      }
    }
    if (sidechain || this.file.role !== 'main') return;
    for (const spawn of summary.spawns) this.pendingSpawns.push(spawn);
    for (const result of summary.toolResults) {
      // 1.0.x writes a sidechain before its Task result, so a call with a result can no longer own one.
      const index = this.pendingSpawns.findIndex((spawn) => spawn.toolUseId === result.toolUseId);
      if (index !== -1) this.pendingSpawns.splice(index, 1);
    }
  }

  /**
   * Best effort for inline (1.0.x) sidechains, which name no parent: the pending Task/Agent call whose
   * prompt is the root's text, else the most recent pending call. Parallel Tasks finish in any order, so
   * the prompt match matters; a re-import that starts mid-file has not seen earlier calls and links nothing.
   */
  private matchSpawn(rootText: string | null): string | null {
    if (this.pendingSpawns.length === 0) return null;
    const wanted = rootText?.trim();
    let index = wanted === undefined ? -1 : this.pendingSpawns.findIndex((spawn) => spawn.prompt?.trim() === wanted);
    if (index === -1) index = this.pendingSpawns.length - 1;
    const [spawn] = this.pendingSpawns.splice(index, 1);
    return spawn?.toolUseId ?? null;
  }

  /** Subagent files name their agent (agent-<id>.jsonl) even where a line does not. */
  private fileAgentId(): string | null {
    return this.file.role === 'subagent' ? this.file.agentId : null;
  }

  private problem(line: number, reason: string): void {
    this.sink.problem({ file: this.file.path, line, reason });
  }
}

function record(entry: JsonObject, type: string, raw: Buffer, rawBytes: number, line: number, offset: number, verdict: LineVerdict): ParsedRecord {
  let refSourceId: string | null = null;
  if (type === 'summary') refSourceId = stringField(entry, 'leafUuid');
  else if (type === 'file-history-snapshot') {
    const snapshot = objectField(entry, 'snapshot');
    refSourceId = stringField(entry, 'messageId') ?? (snapshot === null ? null : stringField(snapshot, 'messageId'));
  }
  return {
    type,
    refSourceId: refSourceId ?? recordReference(entry, type),
    summary: type === 'summary' ? stringField(entry, 'summary') : recordTitle(entry, type),
    sessionSourceId: stringField(entry, 'sessionId'),
    line,
    offset,
    raw,
    rawBytes,
    ...verdict,
  };
}

type EnvelopeFields = Pick<
  ParsedNode,
  'parentSourceId' | 'logicalParentSourceId' | 'sessionSourceId' | 'timestamp' | 'sidechain' | 'cwd' | 'gitBranch' | 'version'
>;

function envelopeFields(envelope: OversizeEnvelope): EnvelopeFields {
  return {
    parentSourceId: envelope.parentUuid,
    logicalParentSourceId: envelope.logicalParentUuid,
    sessionSourceId: envelope.sessionId,
    timestamp: envelope.timestamp,
    sidechain: envelope.isSidechain,
    cwd: envelope.cwd,
    gitBranch: envelope.gitBranch,
    version: envelope.version,
  };
}

function oversizeKind(envelope: OversizeEnvelope, head: Buffer): NodeKind {
  switch (envelope.type) {
    case 'user':
      if (!envelope.mentionsToolResult) return 'user';
      return /"is_error"\s*:\s*true/.test(head.toString('utf8')) ? 'error' : 'tool_result';
    case 'assistant':
      return envelope.mentionsToolUse ? 'tool_call' : 'assistant';
    case 'system':
      return 'system';
    case 'progress':
    case 'attachment':
    case 'saved_hook_context':
      return 'progress';
    default:
      return 'unknown';
  }
}

/** Tool ids named near the start of a huge line (blocks open before their big input/content), for pairing. */
function oversizeTools(envelope: OversizeEnvelope, head: Buffer): Pick<ParsedNode, 'toolUses' | 'toolResults'> {
  const text = head.toString('utf8');
  if (envelope.type === 'assistant') {
    const uses = [...text.matchAll(/"type"\s*:\s*"tool_use"\s*,\s*"id"\s*:\s*"([^"\\]+)"\s*,\s*"name"\s*:\s*"([^"\\]+)"/g)];
    return { toolUses: uses.map((match) => ({ id: match[1] ?? '', name: match[2] ?? '' })), toolResults: [] };
  }
  if (envelope.type === 'user') {
    const isError = /"is_error"\s*:\s*true/.test(text);
    const ids = [...text.matchAll(/"tool_use_id"\s*:\s*"([^"\\]+)"/g)];
    return { toolUses: [], toolResults: ids.map((match) => ({ toolUseId: match[1] ?? '', isError })) };
  }
  return { toolUses: [], toolResults: [] };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** What the store keeps of a line: the reader's bytes themselves (keepLines), cut at RAW_LIMIT. */
function cutRaw(bytes: Buffer): Buffer {
  return bytes.length > RAW_LIMIT ? bytes.subarray(0, RAW_LIMIT) : bytes;
}

function withoutBom(bytes: Buffer, offset: number): Buffer {
  const bom = offset === 0 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
  return bom ? bytes.subarray(BOM.length) : bytes;
}

function jsonFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/end of JSON input|Unterminated string/i.test(message)) return 'truncated JSON: the line ends mid-value';
  return clip(`not valid JSON: ${message}`, 200);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
