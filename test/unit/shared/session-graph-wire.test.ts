import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ArborError } from '../../../shared/errors';
import type { NodeSummary, SessionGraph, SessionSummary } from '../../../shared/model';
import { decodeSessionGraph, encodeSessionGraph, isEncodedSessionGraph, isoTimeFormatter, type EncodedSessionGraph } from '../../../shared/session-graph-wire';

const SESSION: SessionSummary = {
  id: 'S1',
  source: 'claude-code',
  title: 'a session',
  project: '/home/dev/app',
  startedAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  nodeCount: 0,
  fileCount: 1,
  branchCount: 0,
};

function node(id: string, over: Partial<NodeSummary> = {}): NodeSummary {
  return {
    id,
    sessionId: 'S1',
    sourceId: id,
    parentSourceId: null,
    parentId: null,
    extraEdges: [],
    kind: 'assistant',
    timestamp: '2026-01-05T09:00:00.000Z',
    label: `label of ${id}`,
    toolCalls: [],
    sidechain: false,
    agentId: null,
    model: null,
    ...over,
  };
}

/** Every field variant the codec treats specially. */
function awkwardGraph(): SessionGraph {
  const nodes: NodeSummary[] = [
    node('u1', { kind: 'user', label: 'fix the “bug” — ✓ 🌳', model: null }),
    node('a1', { parentId: 'u1', parentSourceId: 'u1', model: 'claude-opus-4-6', timestamp: '2026-01-05T09:00:01.250Z' }),
    node('c1', {
      kind: 'tool_call',
      parentId: 'a1',
      parentSourceId: 'a1',
      timestamp: '2026-01-05T08:59:59.000Z', // earlier than the previous one: a negative delta
      toolCalls: [
        { id: 'toolu_1', name: 'Bash', outcome: 'ok' },
        { id: 'toolu_2', name: 'Read', outcome: 'error' },
        { id: 'toolu_3', name: 'Bash', outcome: 'missing' },
      ],
    }),
    // A dangling parent: the DAG parent is null, the transcript's parentUuid is kept.
    node('r1', { kind: 'tool_result', parentId: null, parentSourceId: 'gone', timestamp: null }),
    // Not canonical ISO (no ms, an offset, Feb 30 which Date.parse rolls over): sent as strings.
    node('s1', { kind: 'system', parentId: 'r1', parentSourceId: 'r1', timestamp: '2026-01-05T09:00:02Z' }),
    node('s2', { kind: 'system', parentId: 's1', parentSourceId: 's1', timestamp: '2026-01-05T09:00:02.000+01:00' }),
    node('s3', { kind: 'system', parentId: 's2', parentSourceId: 's2', timestamp: '2026-02-30T09:00:00.000Z' }),
    node('s4', { kind: 'system', parentId: 's3', parentSourceId: 's3', timestamp: '2026-02-28T23:59:59.999Z' }),
    node('x1', { kind: 'unknown', parentId: 'elsewhere', parentSourceId: 'elsewhere-source', timestamp: 'yesterday' }),
    node('g1', {
      kind: 'user',
      sidechain: true,
      agentId: 'agent-7',
      model: 'claude-sonnet-4-5',
      extraEdges: [
        { kind: 'subagent', nodeId: 'c1' },
        { kind: 'merge', nodeId: 'outside' },
      ],
    }),
    node('k1', { kind: 'compaction', extraEdges: [{ kind: 'logical', nodeId: 'g1' }], timestamp: '0099-01-01T00:00:00.000Z' }),
  ];
  return { session: SESSION, nodes };
}

describe('session graph wire form', () => {
  it('decodes to exactly the graph that was encoded, after a JSON round trip', () => {
    const graph = awkwardGraph();
    const encoded = encodeSessionGraph(graph);
    expect(encoded).not.toBeNull();
    const travelled = JSON.parse(JSON.stringify(encoded)) as unknown;
    expect(isEncodedSessionGraph(travelled)).toBe(true);
    expect(decodeSessionGraph(travelled as EncodedSessionGraph)).toEqual(graph);
  });

  it('sends parents as indices, canonical times as deltas and the rest as strings', () => {
    const encoded = encodeSessionGraph(awkwardGraph())!;
    expect(encoded.parents.slice(0, 4)).toEqual([-1, 0, 1, -1]);
    expect(encoded.parents[8]).toBe('elsewhere');
    expect(encoded.times.slice(0, 4)).toEqual([Date.parse('2026-01-05T09:00:00.000Z'), 1250, -2250, null]);
    expect(encoded.times.slice(4, 9)).toEqual(['2026-01-05T09:00:02Z', '2026-01-05T09:00:02.000+01:00', '2026-02-30T09:00:00.000Z', expect.any(Number), 'yesterday']);
    expect(encoded.sourceParents).toEqual([3, 'gone', 8, 'elsewhere-source']);
    expect(encoded.callNameTable).toEqual(['Bash', 'Read']);
  });

  it('is much smaller than the plain form for a typical session', () => {
    const nodes: NodeSummary[] = [];
    for (let i = 0; i < 2000; i++) {
      const id = `0b7c1d2e-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const parent = i === 0 ? null : nodes[i - 1]!.id;
      nodes.push(node(id, { parentId: parent, parentSourceId: parent, sessionId: 'S1', timestamp: new Date(Date.UTC(2026, 0, 5) + i * 1500).toISOString() }));
    }
    const graph = { session: SESSION, nodes };
    const plain = JSON.stringify(graph).length;
    const compact = JSON.stringify(encodeSessionGraph(graph)).length;
    expect(compact).toBeLessThan(plain * 0.45);
  });

  it('declines nodes the form cannot restore, so the caller sends them plain', () => {
    expect(encodeSessionGraph({ session: SESSION, nodes: [node('a', { sessionId: 'other' })] })).toBeNull();
    expect(encodeSessionGraph({ session: SESSION, nodes: [node('a', { sourceId: 'not-a' })] })).toBeNull();
  });

  it('throws INTERNAL on malformed input instead of building wrong nodes', () => {
    const encoded = encodeSessionGraph(awkwardGraph())!;
    const broken: EncodedSessionGraph[] = [
      { ...encoded, labels: encoded.labels.slice(1) },
      { ...encoded, parents: encoded.parents.map((p, i) => (i === 1 ? 999 : p)) },
      { ...encoded, kinds: encoded.kinds.map(() => 42) },
      { ...encoded, calls: encoded.calls.map((value, i) => (i === 3 ? 7 : value)) },
    ];
    for (const input of broken) {
      expect(() => decodeSessionGraph(input)).toThrow(ArborError);
      try {
        decodeSessionGraph(input);
      } catch (error) {
        expect((error as ArborError).code).toBe('INTERNAL');
      }
    }
    expect(isEncodedSessionGraph({ session: SESSION, nodes: [] })).toBe(false);
  });
});

describe('isoTimeFormatter', () => {
  it('writes what toISOString writes, across days, years and the epoch, in any order', () => {
    const format = isoTimeFormatter();
    const samples: number[] = [0, -1, 1, Date.UTC(2026, 0, 5, 23, 59, 59, 999), Date.UTC(2026, 0, 6), Date.UTC(2026, 1, 28, 23, 59, 59, 999)];
    samples.push(Date.UTC(2024, 1, 29, 12), -62135596800000, -62198755200000, 253402300799999, 8.64e15, -8.64e15);
    let ms = Date.UTC(2026, 0, 5, 9);
    let seed = 7;
    for (let k = 0; k < 5000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      ms += (seed % 4_000_000) - 200_000; // mostly forward, sometimes back, crossing days
      samples.push(ms);
    }
    for (const sample of samples) expect(format(sample)).toBe(new Date(sample).toISOString());
  });

  it('keeps each timestamp as one flat string, not a tree of the joined parts (277 bytes each on the heap, not 40)', () => {
    // A template of the parts stayed a tree of 8 strings per node: 21 MB of an 86k-node session's decoded nodes.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const format = isoTimeFormatter();
    const count = 100_000;
    const kept = new Array<string>(count);
    gc();
    const before = process.memoryUsage().heapUsed;
    let ms = Date.UTC(2026, 0, 5, 9);
    for (let i = 0; i < count; i++) kept[i] = format((ms += 1234));
    gc();
    const bytesEach = (process.memoryUsage().heapUsed - before) / count;
    expect(kept[count - 1]).toBe(new Date(ms).toISOString());
    expect(bytesEach).toBeLessThan(100);
  });
});
