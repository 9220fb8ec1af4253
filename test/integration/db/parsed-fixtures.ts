/** Hand-built parser output for store tests: only what a test cares about is spelled out. */
import type { SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../../../electron/importers/transcript';

export function parsedNode(sourceId: string, parentSourceId: string | null, extra: Partial<ParsedNode> = {}): ParsedNode {
  const raw = Buffer.from(JSON.stringify({ uuid: sourceId, parentUuid: parentSourceId, type: 'user' }));
  return {
    sourceId,
    parentSourceId,
    logicalParentSourceId: null,
    sessionSourceId: 'S1',
    kind: 'assistant',
    timestamp: null,
    label: `label ${sourceId}`,
    text: `text of ${sourceId}`,
    toolUses: [],
    toolResults: [],
    spawnedAgentId: null,
    spawnedByToolUseId: null,
    sidechain: false,
    agentId: null,
    model: null,
    cwd: null,
    gitBranch: null,
    version: null,
    usage: null,
    line: 1,
    offset: 0,
    raw,
    rawBytes: raw.length,
    ...extra,
  };
}

export function parsedRecord(type: string, refSourceId: string | null, extra: Partial<ParsedRecord> = {}): ParsedRecord {
  const raw = Buffer.from(JSON.stringify({ type, leafUuid: refSourceId }));
  return { type, refSourceId, summary: null, sessionSourceId: null, line: 1, offset: 0, raw, rawBytes: raw.length, ...extra };
}

export function transcriptFile(path: string, extra: Partial<TranscriptFile> = {}): TranscriptFile {
  return { format: 'claude-code', path, size: 100, mtimeMs: 1, role: 'main', sessionHint: null, agentId: null, ...extra };
}

/** Numbers lines and offsets in order, as a parser would. */
export function inOrder<T extends { line: number; offset: number }>(items: readonly T[], startLine = 1): T[] {
  return items.map((item, index) => ({ ...item, line: startLine + index, offset: (startLine + index) * 1000 }));
}

/** Stores `nodes` as one transcript file's lines (numbered in order) and links its session. */
export function storeParsedFile(store: SessionStore, path: string, nodes: readonly ParsedNode[], sessionHint: string): void {
  const writer = store.beginFile(transcriptFile(path, { sessionHint }));
  for (const node of inOrder(nodes)) writer.node(node);
  writer.finish({ endOffset: 100 + nodes.length, endLine: nodes.length + 1 });
  store.linkChangedSessions();
}
