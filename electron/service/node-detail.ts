/** Builds what the inspector shows for one node: its content read from the stored line, calls with results. */
import { longLinesOf } from '../db/long-lines';
import type { SessionStore, StoredNode, StoredToolCall } from '../db/session-store';
import { RAW_LIMIT } from '../importers/transcript';
import { ArborError } from '../../shared/errors';
import type { AttachedRecord, ContentBlock, NodeDetail, TokenUsage, ToolCallDetail } from '../../shared/model';

/** What a format's reader makes of one stored line (Claude Code: readNodeContent). */
export interface NodeContent {
  readonly blocks: readonly ContentBlock[];
  readonly usage: TokenUsage | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
}
/** `format`: the line's file format as the store recorded it (`files.format`), which picks the reader. */
export type ReadNodeContent = (raw: string, format: string | null) => NodeContent;

const EMPTY_CONTENT: NodeContent = { blocks: [], usage: null, cwd: null, gitBranch: null, version: null };

/**
 * A record a linked session's file copied (a Codex fork repeats its source's lines with its own write time) is
 * listed once: the first of those that say the same apart from their top-level `timestamp`.
 */
function onceEach(records: readonly AttachedRecord[]): AttachedRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const json = record.json;
    const body = typeof json === 'object' && json !== null && !Array.isArray(json) ? { ...(json as Record<string, unknown>), timestamp: undefined } : json;
    const key = `${record.type}\u0000${JSON.stringify(body)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface NodeDetailOptions {
  /**
   * Read a line over RAW_LIMIT from its whole stored copy (migration 034), so its blocks are there: the export
   * asks for it; the inspector shows the stored head, as a multi-MB line is more than a view should receive.
   */
  readonly wholeLine?: boolean;
}

export function getNodeDetail(store: SessionStore, readContent: ReadNodeContent, nodeId: string, options: NodeDetailOptions = {}): NodeDetail {
  const node = store.getNode(nodeId);
  if (node === null) throw new ArborError('NOT_FOUND', `No node ${nodeId}`, { nodeId });
  const raw = node.raw.toString('utf8');
  const whole = options.wholeLine === true ? keptWholeLine(store, node) : null;
  const content = safeRead(readContent, whole ?? raw, node.format);
  const resultLine = (call: StoredToolCall): string => {
    const result = call.result!;
    if (options.wholeLine !== true || result.raw.length < RAW_LIMIT) return result.raw.toString('utf8');
    const resultNode = store.getNode(result.nodeId);
    return (resultNode === null ? null : keptWholeLine(store, resultNode)) ?? result.raw.toString('utf8');
  };
  const toolCalls = store.getToolCalls(node).map((call) => toToolCallDetail(call, content, node.summary.timestamp, readContent, resultLine));
  const records: AttachedRecord[] = onceEach(
    store.getRecords(nodeId).map((record) => ({
      type: record.type,
      file: record.file,
      line: record.line,
      json: parseJson(record.raw.toString('utf8')),
    })),
  );
  return {
    node: node.summary,
    blocks: content.blocks,
    toolCalls,
    usage: content.usage,
    cwd: content.cwd,
    gitBranch: content.gitBranch,
    version: content.version,
    file: node.file,
    line: node.line,
    raw,
    rawTruncatedAt: node.rawBytes > node.raw.length ? node.raw.length : null,
    records,
  };
}

/** The whole line of a node whose row keeps only the head of it, from the copy the import kept; null when there is none. */
function keptWholeLine(store: SessionStore, node: StoredNode): string | null {
  if (node.rawBytes <= node.raw.length) return null;
  return longLinesOf(store.handles).read(node.file, node.line)?.toString('utf8') ?? null;
}

function toToolCallDetail(
  call: StoredToolCall,
  content: NodeContent,
  callTimestamp: string | null,
  readContent: ReadNodeContent,
  resultLine: (call: StoredToolCall) => string,
): ToolCallDetail {
  const use = content.blocks.find((block) => block.type === 'tool_use' && block.id === call.id);
  let resultText: string | null = null;
  let exitCode: number | null = null;
  let running = false;
  if (call.result !== null) {
    const resultBlock = safeRead(readContent, resultLine(call), call.result.format).blocks.find(
      (block) => block.type === 'tool_result' && block.toolUseId === call.id,
    );
    resultText = resultBlock?.type === 'tool_result' ? resultBlock.text : null;
    exitCode = resultBlock?.type === 'tool_result' ? (resultBlock.exitCode ?? null) : null;
    running = resultBlock?.type === 'tool_result' && resultBlock.running === true;
  }
  const shape = use?.type === 'tool_use' ? use.shape : undefined;
  return {
    id: call.id,
    name: call.name,
    outcome: call.isError === null ? 'missing' : call.isError ? 'error' : 'ok',
    input: use?.type === 'tool_use' ? use.input : null,
    ...(shape === undefined ? {} : { shape }),
    ...(exitCode === null ? {} : { exitCode }),
    ...(running ? { running } : {}),
    resultNodeId: call.result?.nodeId ?? null,
    resultText,
    durationMs: durationBetween(callTimestamp, call.result?.timestamp ?? null),
  };
}

function durationBetween(start: string | null, end: string | null): number | null {
  if (start === null || end === null) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) ? ms : null;
}

/** A line cut at RAW_LIMIT is not valid JSON any more; show it raw with no blocks rather than fail. */
function safeRead(readContent: ReadNodeContent, raw: string, format: string | null): NodeContent {
  try {
    return readContent(raw, format);
  } catch {
    return EMPTY_CONTENT;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
