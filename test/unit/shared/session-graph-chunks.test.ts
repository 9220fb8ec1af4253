/**
 * A session graph cut into stored chunks: each chunk decodes to its own nodes, and the chunks assembled are
 * the very compact form the one-message encoder gives (so the client's decoder and packed nodes see no
 * difference), whatever the cut points: parents, edge ends, tables and time deltas crossing chunks.
 */
import { describe, expect, it } from 'vitest';
import { ArborError } from '../../../shared/errors';
import type { NodeSummary, SessionSummary } from '../../../shared/model';
import {
  assembleSessionGraphChunks,
  decodeSessionGraphChunk,
  encodeSessionGraphChunk,
  type SessionGraphChunk,
} from '../../../shared/session-graph-chunks';
import { decodeSessionGraph, encodeSessionGraph } from '../../../shared/session-graph-wire';
import { syntheticGraph } from '../../../scripts/bench/graph';

const SESSION: SessionSummary = {
  id: 'bench',
  source: 'claude-code',
  title: 'a session',
  project: '/home/dev/app',
  startedAt: null,
  updatedAt: null,
  nodeCount: 0,
  fileCount: 1,
  branchCount: 0,
};

/** The synthetic session with what the codec treats specially sprinkled in (non-canonical times, outside parents, errors). */
function awkwardNodes(count: number): NodeSummary[] {
  return syntheticGraph(count, 7).map((node, i) => {
    if (i % 97 === 5) return { ...node, timestamp: null };
    if (i % 89 === 3) return { ...node, timestamp: '2026-02-30T09:00:00.000Z', label: 'fix the “bug” — ✓ 🌳' };
    if (i % 83 === 4) return { ...node, parentId: 'elsewhere', parentSourceId: 'elsewhere-source' };
    if (i % 79 === 6) return { ...node, model: 'claude-opus-4-6', agentId: 'agent-1', extraEdges: [{ kind: 'merge', nodeId: 'outside' }, { kind: 'logical', nodeId: 'node-0' }] };
    if (i % 71 === 2 && node.toolCalls.length > 0) return { ...node, toolCalls: [{ ...node.toolCalls[0]!, outcome: 'error' }, { id: `x-${i}`, name: 'WebFetch', outcome: 'missing' }] };
    return node;
  });
}

function chunksOf(nodes: readonly NodeSummary[], size: number): SessionGraphChunk[] {
  const chunks: SessionGraphChunk[] = [];
  for (let start = 0; start < nodes.length; start += size) chunks.push(encodeSessionGraphChunk(SESSION.id, nodes.slice(start, start + size))!);
  return chunks;
}

describe('session graph chunks', () => {
  const nodes = awkwardNodes(3000);

  it('assembled, are the one-message form, for every cut', () => {
    const whole = encodeSessionGraph({ session: SESSION, nodes })!;
    for (const size of [1, 7, 500, 2999, 3000, 10_000]) {
      // Through JSON, as they are stored and sent.
      const chunks = chunksOf(nodes, size).map((chunk) => JSON.parse(JSON.stringify(chunk)) as SessionGraphChunk);
      expect(assembleSessionGraphChunks(SESSION, chunks)).toEqual(whole);
      expect(decodeSessionGraph(assembleSessionGraphChunks(SESSION, chunks)).nodes).toEqual(nodes);
    }
  });

  it('each decode to their own nodes, parents outside the chunk named by id', () => {
    const chunks = chunksOf(nodes, 250);
    expect(chunks.flatMap((chunk) => decodeSessionGraphChunk(SESSION.id, chunk))).toEqual(nodes);
  });

  it('keep the workspace nodes beside them', () => {
    const workspaceNodes = [{ nodeId: 'node-3', kind: 'snapshot' as const, dir: '/w' }];
    expect(assembleSessionGraphChunks(SESSION, chunksOf(nodes.slice(0, 10), 4), workspaceNodes).workspaceNodes).toEqual(workspaceNodes);
  });

  it('do not take a node of another session', () => {
    expect(encodeSessionGraphChunk(SESSION.id, [{ ...nodes[0]!, sessionId: 'other' }])).toBeNull();
  });

  it('refuse a malformed chunk with INTERNAL', () => {
    const [chunk] = chunksOf(nodes.slice(0, 5), 5);
    expect(() => assembleSessionGraphChunks(SESSION, [{ ...chunk!, kinds: [0] }])).toThrow(ArborError);
    expect(() => assembleSessionGraphChunks(SESSION, [{ ...chunk!, codec: 'x' } as unknown as SessionGraphChunk])).toThrow(/Malformed/);
    expect(() => assembleSessionGraphChunks(SESSION, [{ ...chunk!, kinds: chunk!.kinds.map(() => 99) }])).toThrow(/kind/);
  });
});
