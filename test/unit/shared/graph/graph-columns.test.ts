/**
 * The layout worker builds a session's structure straight from the packed columns it receives, without a node
 * object per node: on generated sessions with forks, retries, merges, folded subagents, compactions, cycles and
 * Arbor's own nodes, that structure, its layouts and its turn overview are the ones built from the node objects.
 */
import { describe, expect, it } from 'vitest';
import { agentFoldId, runFoldId } from '../../../../shared/graph/folds';
import { columnsOfNodes, columnsOfPacked } from '../../../../shared/graph/graph-columns';
import { packGraphNodes } from '../../../../shared/graph/packed-nodes';
import { layoutSession } from '../../../../shared/graph/session-layout';
import { buildSessionStructure, structureOfColumns } from '../../../../shared/graph/session-structure';
import { buildTurnOverview } from '../../../../shared/graph/turn-overview';
import type { NodeId, NodeSummary } from '../../../../shared/model';
import type { WorkspaceNodeInfo } from '../../../../shared/operations';
import { mulberry32 } from '../../../../shared/random';
import { expectDeepEqual } from '../../deep-equal';
import { SessionBuilder } from './session-builder';

/** A session of `turns` turns with every shape the structure treats specially, and Arbor's nodes in it. */
function generatedSession(seed: number, turns: number): { nodes: NodeSummary[]; workspaceNodes: WorkspaceNodeInfo[] } {
  const random = mulberry32(seed);
  const chance = (p: number) => random() < p;
  const b = new SessionBuilder();
  const workspaceNodes: WorkspaceNodeInfo[] = [];
  let last = b.add('system', null, { label: 'Hook SessionStart' });
  let promptParent: NodeId = last;
  for (let t = 0; t < turns; t++) {
    const rewind = t > 0 && chance(0.15);
    const parent = rewind ? promptParent : last;
    promptParent = parent;
    let at = b.add('user', parent);
    if (chance(0.1)) b.add('user', parent, { timestamp: b.nodes.at(-1)!.timestamp }); // a replay: same time, not a fork
    const steps = 1 + Math.floor(random() * 8);
    for (let s = 0; s < steps; s++) {
      if (chance(0.4)) at = b.add('thinking', at);
      const call = b.add('tool_call', at);
      b.add('progress', call, { label: 'Hook PostToolUse' });
      at = b.add(chance(0.05) ? 'error' : 'tool_result', call);
      if (chance(0.08)) {
        // A subagent run, linked to its call or (1.0.x) only inline as a sidechain.
        const linked = chance(0.5);
        const root = b.add('user', linked ? null : at, { sidechain: true, extraEdges: linked ? [{ kind: 'subagent', nodeId: call }] : [] });
        let inRun = root;
        for (let k = 3 + Math.floor(random() * 6); k > 0; k--) inRun = b.add(k % 2 === 0 ? 'tool_call' : 'tool_result', inRun, { sidechain: true });
      }
    }
    const answer = b.add('assistant', at);
    if (chance(0.1)) b.add('assistant', at); // a retried answer: another time
    last = answer;
    if (chance(0.05)) {
      const fork = b.add('system', last, { id: `snapshot:fork-${t}`, extraEdges: [{ kind: 'fork-of', nodeId: last }] });
      workspaceNodes.push({ nodeId: fork, kind: 'fork', dir: `/w-fork-${t}` });
      const merge = b.add('system', b.add('user', fork), { id: `snapshot:merge-${t}`, extraEdges: [{ kind: 'merge', nodeId: answer }] });
      workspaceNodes.push({ nodeId: merge, kind: 'merge', dir: '/w' });
    }
    if (chance(0.05)) workspaceNodes.push({ nodeId: b.add('system', last, { id: `snapshot:manual-${t}` }), kind: 'snapshot', dir: '/w' });
    if (chance(0.04)) last = b.add('compaction', null, { extraEdges: [{ kind: 'logical', nodeId: last }] });
    if (chance(0.03)) last = b.add('user', null, { extraEdges: [{ kind: chance(0.5) ? 'continues' : 'follows', nodeId: last }] });
  }
  // The awkward links: a parent outside the graph, edges to nothing, a self loop, a two-node cycle, a duplicate id, no time.
  b.add('tool_result', 'gone-from-graph', { extraEdges: [{ kind: 'logical', nodeId: 'also-gone' }] });
  b.add('assistant', 'self-loop', { id: 'self-loop', extraEdges: [{ kind: 'logical', nodeId: 'self-loop' }, { kind: 'fork-of', nodeId: 'n1' }] });
  b.add('assistant', 'cycle-b', { id: 'cycle-a' });
  b.add('assistant', 'cycle-a', { id: 'cycle-b' });
  b.add('assistant', 'n3', { id: 'n1', label: 'a duplicate id: the first one counts' });
  b.add('assistant', last, { timestamp: null });
  workspaceNodes.push({ nodeId: 'not-in-the-session', kind: 'fork', dir: '/elsewhere' }, { nodeId: 'n2', kind: 'hook-snapshot', dir: '/w' });
  return { nodes: b.nodes, workspaceNodes };
}

function firstIndex(nodes: readonly NodeSummary[]): Map<NodeId, number> {
  const index = new Map<NodeId, number>();
  nodes.forEach((node, i) => index.has(node.id) || index.set(node.id, i));
  return index;
}

const withoutMaps = <T extends { nodes: unknown; indexById: unknown }>({ nodes: _nodes, indexById: _index, ...rest }: T) => rest;

describe('the structure built from packed columns', () => {
  for (const [seed, turns] of [[1, 40], [7, 200], [23, 600]] as const) {
    it(`is the structure built from the node objects, with the same layouts and turn overview (seed ${seed}, ${turns} turns)`, () => {
      const { nodes, workspaceNodes } = generatedSession(seed, turns);
      const fromObjects = buildSessionStructure(nodes, undefined, workspaceNodes);
      // As the worker receives it: packed, through a structured clone (postMessage).
      const packed = structuredClone(packGraphNodes(nodes, firstIndex(nodes)));
      expect(packed).not.toBeNull();
      const columns = columnsOfPacked(packed!);
      const fromColumns = structureOfColumns(columns, undefined, workspaceNodes);
      expectDeepEqual(fromColumns, withoutMaps(fromObjects));
      // The generated session has what the test is about.
      expect(fromObjects.runStart.length).toBeGreaterThan(0);
      expect(fromObjects.agentRoot.some((flag) => flag === 1)).toBe(true);
      expect(fromObjects.branch.some((kind) => kind !== 0)).toBe(true);
      expect(fromObjects.branchHead.some((flag) => flag === 1)).toBe(true);

      // Folded, and with some runs and agent runs open (fold ids are made of the ids the columns cut out).
      const opened = new Set<string>();
      for (let r = 0; r < fromObjects.runStart.length; r += 2) opened.add(runFoldId(nodes[fromObjects.runStart[r]!]!.id));
      fromObjects.agentRoot.forEach((flag, i) => flag === 1 && i % 3 === 0 && opened.add(agentFoldId(nodes[i]!.id)));
      for (const expanded of [new Set<string>(), opened]) {
        const hide = Uint8Array.from(nodes, (node) => (node.kind === 'progress' ? 1 : 0));
        expectDeepEqual(layoutSession(fromColumns, expanded, hide, columns.idOf), layoutSession(fromObjects, expanded, hide));
      }
      expectDeepEqual(buildTurnOverview(fromColumns), buildTurnOverview(fromObjects));
    });
  }

  it('reads ids and timestamps from the packed strings as the nodes have them, and finds the first node of an id', () => {
    const { nodes } = generatedSession(3, 30);
    const packed = packGraphNodes(nodes, firstIndex(nodes))!;
    const columns = columnsOfPacked(packed);
    const objects = columnsOfNodes(nodes);
    const first = firstIndex(nodes);
    for (let i = 0; i < nodes.length; i++) {
      expect(columns.idOf(i)).toBe(nodes[i]!.id);
      expect(columns.timestampOf(i)).toBe(nodes[i]!.timestamp);
      expect(columns.indexOfId(nodes[i]!.id)).toBe(first.get(nodes[i]!.id));
    }
    // 'n1' is a prefix of 'n12' and a suffix of nothing else: only a whole line matches.
    expect(columns.indexOfId('n')).toBe(-1);
    expect(columns.indexOfId('1')).toBe(-1);
    expect(columns.indexOfId('not-in-the-session')).toBe(-1);
    expect(columns.indexOfId('n1\nn2')).toBe(-1);
    // Parents outside the graph are -2 in the packed form, -1 from the objects: both say "not in the graph".
    const comparable = (c: typeof columns) => ({ ...c, parents: c.parents.map((p) => Math.max(p, -1)), idOf: null, timestampOf: null, indexOfId: null });
    expectDeepEqual(comparable(columns), comparable(objects));
  });

  it('an empty session has an empty structure', () => {
    const packed = packGraphNodes([], new Map())!;
    expect(structureOfColumns(columnsOfPacked(packed))).toEqual(withoutMaps(buildSessionStructure([])));
  });
});
