/**
 * The resumable-transcript planner's view of a stored session: parents and children from the graph, tool
 * results from the store's pairing, and each node's whole line — from the store: a line over RAW_LIMIT from the
 * whole copy the import kept (electron/db/long-lines.ts, issue 15: the transcript may be gone), and from the
 * transcript file itself only when the store has no such copy (a store imported before migration 034).
 */
import { longLinesOf } from '../db/long-lines';
import type { SessionStore } from '../db/session-store';
import { readLines } from '../importers/line-reader';
import { ArborError, CancelledError } from '../../shared/errors';
import type { NodeSummary } from '../../shared/model';
import type { TranscriptSource } from './resumable-plan';
import { readTranscriptEntry, type TranscriptEntry } from './transcript-entry';

/** A line longer than this is not copied (Claude Code could not load it either). */
const MAX_LINE_BYTES = 512 * 1024 * 1024;

export function storeTranscriptSource(store: SessionStore, sessionId: string, signal?: AbortSignal): TranscriptSource {
  const nodes = store.getSessionNodes(sessionId);
  const byId = new Map<string, NodeSummary>(nodes.map((node) => [node.id, node]));
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentId === null || node.sidechain) continue;
    const list = children.get(node.parentId);
    if (list === undefined) children.set(node.parentId, [node.id]);
    else list.push(node.id);
  }
  const entries = new Map<string, Promise<TranscriptEntry>>();
  const summaryOf = (id: string): NodeSummary | undefined => {
    let node = byId.get(id);
    // A parent in another session (a resume copied into a new file) is looked up once.
    if (node === undefined) {
      node = store.getNode(id)?.summary;
      if (node !== undefined) byId.set(id, node);
    }
    return node;
  };

  async function wholeLine(file: string, line: number, id: string): Promise<string> {
    const kept = longLinesOf(store.handles).read(file, line);
    return kept !== null ? kept.toString('utf8') : readWholeLine(file, line, id, signal);
  }

  async function readEntry(id: string): Promise<TranscriptEntry> {
    const stored = store.getNode(id);
    if (stored === null) throw new ArborError('NOT_FOUND', `No node ${id}`, { nodeId: id });
    const text = stored.rawBytes > stored.raw.length ? await wholeLine(stored.file, stored.line, id) : stored.raw.toString('utf8');
    try {
      return readTranscriptEntry(id, text);
    } catch {
      throw new ArborError('IO', `The transcript line of node ${id} (${stored.file}:${stored.line}) is not complete JSON, so it cannot be copied`, {
        nodeId: id,
      });
    }
  }

  return {
    parentOf: (id) => {
      const node = summaryOf(id);
      return node === undefined ? undefined : node.parentId;
    },
    isSidechain: (id) => summaryOf(id)?.sidechain ?? false,
    childrenOf: (id) => children.get(id) ?? [],
    entry(id) {
      let entry = entries.get(id);
      if (entry === undefined) {
        entry = readEntry(id);
        entries.set(id, entry);
      }
      return entry;
    },
    resultOf(callId, toolUseId) {
      const stored = store.getNode(callId);
      if (stored === null) return null;
      return store.getToolCalls(stored).find((call) => call.id === toolUseId)?.result?.nodeId ?? null;
    },
  };
}

/** Reads line `lineNumber` of `file` whole, and checks it is the node's line (the file may have been rewritten). */
async function readWholeLine(file: string, lineNumber: number, nodeId: string, signal: AbortSignal | undefined): Promise<string> {
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let found: string | undefined;
  let oversize = false;
  try {
    await readLines(
      file,
      (line) => {
        if (line.line !== lineNumber) return;
        if (line.oversize) oversize = true;
        else found = line.bytes.toString('utf8');
        stop.abort();
      },
      { maxLineBytes: MAX_LINE_BYTES, signal: combined },
    );
  } catch (error) {
    const stoppedHere = error instanceof CancelledError && stop.signal.aborted && !(signal?.aborted ?? false);
    if (!stoppedHere) {
      if (error instanceof ArborError) throw error;
      throw new ArborError('IO', `Cannot read ${file} to copy node ${nodeId}'s whole line: ${String(error)}`, { nodeId, file });
    }
  }
  if (oversize) throw new ArborError('IO', `Node ${nodeId}'s line in ${file} is too long to copy`, { nodeId, file });
  if (found === undefined || !found.includes(nodeId)) {
    throw new ArborError('IO', `Node ${nodeId}'s line is no longer at ${file}:${lineNumber}, so it cannot be copied whole`, { nodeId, file });
  }
  return found;
}
