import { describe, expect, it } from 'vitest';
import {
  agentFoldId,
  buildVisibleGraph,
  foldIdOfItem,
  ITEM_AGENT,
  ITEM_NODE,
  ITEM_RUN,
  itemByNode,
  itemShowingNode,
  revealNode,
  runFoldId,
  toggleFold,
  type FoldId,
} from '../../../../shared/graph/folds';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { SessionBuilder } from './session-builder';

/** prompt → 6 tool steps → answer; the second call spawns a subagent of 20 nodes. */
function sample() {
  const s = new SessionBuilder();
  const prompt = s.add('user', null);
  const steps = [s.add('tool_call', prompt)];
  for (let k = 1; k < 6; k++) steps.push(s.add(k % 2 === 0 ? 'tool_call' : 'tool_result', steps[k - 1]!));
  const answer = s.add('assistant', steps[5]!);
  const spawn = s.add('tool_call', answer);
  const agent = s.add('user', null, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: spawn }] });
  const agentLast = s.chain(agent, 19, ['tool_call', 'tool_result']);
  s.add('tool_result', spawn);
  return { s, prompt, steps, answer, spawn, agent, agentLast };
}

const kindsOf = (visible: ReturnType<typeof buildVisibleGraph>) => Array.from(visible.kind);

describe('folding', () => {
  it('folds runs of ≥4 tool steps and subagent runs by default', () => {
    const { s, steps, agent } = sample();
    const structure = buildSessionStructure(s.nodes);
    const visible = buildVisibleGraph(structure, new Set());
    // prompt, [6 steps], answer, spawn, result (the main line first), [agent]
    expect(kindsOf(visible)).toEqual([ITEM_NODE, ITEM_RUN, ITEM_NODE, ITEM_NODE, ITEM_NODE, ITEM_AGENT]);
    expect(visible.hidden[1]).toBe(6);
    expect(foldIdOfItem(structure, visible, 1)).toBe(runFoldId(steps[0]!));
    expect(visible.hidden[5]).toBe(20);
    expect(foldIdOfItem(structure, visible, 5)).toBe(agentFoldId(agent));
    // The agent group hangs under the call that spawned it.
    expect(s.nodes[visible.node[visible.forest.parent[5]!]!]!.kind).toBe('tool_call');
  });

  it('does not fold runs shorter than the minimum, nor across an error', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const a = s.chain(prompt, 3);
    const error = s.add('error', a);
    s.chain(error, 3);
    const visible = buildVisibleGraph(buildSessionStructure(s.nodes), new Set());
    expect(visible.count).toBe(8);
    expect(kindsOf(visible).every((k) => k === ITEM_NODE)).toBe(true);
  });

  it('expands and collapses folds by id, nested runs staying folded inside an expanded agent', () => {
    const { s, agent } = sample();
    const structure = buildSessionStructure(s.nodes);
    let expanded: ReadonlySet<FoldId> = toggleFold(new Set(), agentFoldId(agent));
    let visible = buildVisibleGraph(structure, expanded);
    // The agent's 20 nodes: its prompt and a run of 19 steps.
    expect(kindsOf(visible).filter((k) => k === ITEM_RUN).length).toBe(2);
    expect(visible.count).toBe(5 + 2);
    expanded = toggleFold(expanded, agentFoldId(agent));
    visible = buildVisibleGraph(structure, expanded);
    expect(visible.count).toBe(6);
  });

  it('reveals a node hidden in a run inside a folded agent', () => {
    const { s, agentLast } = sample();
    const structure = buildSessionStructure(s.nodes);
    const target = structure.indexById.get(agentLast)!;
    const before = buildVisibleGraph(structure, new Set());
    const agentItem = itemShowingNode(structure, before, itemByNode(structure, before), target);
    expect(before.kind[agentItem]).toBe(ITEM_AGENT);
    const expanded = revealNode(structure, new Set(), target);
    expect(expanded.size).toBe(2);
    const after = buildVisibleGraph(structure, expanded);
    const item = itemShowingNode(structure, after, itemByNode(structure, after), target);
    expect(after.kind[item]).toBe(ITEM_NODE);
    expect(after.node[item]).toBe(target);
    // Revealing what is already visible changes nothing.
    expect(revealNode(structure, expanded, target)).toBe(expanded);
  });

  it('a node inside a folded run is shown by its run group', () => {
    const { s, steps } = sample();
    const structure = buildSessionStructure(s.nodes);
    const visible = buildVisibleGraph(structure, new Set());
    const item = itemShowingNode(structure, visible, itemByNode(structure, visible), structure.indexById.get(steps[3]!)!);
    expect(visible.kind[item]).toBe(ITEM_RUN);
  });

  it('folds a 50k-node chain of tool steps into one group without recursion', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.chain(prompt, 50_000);
    const structure = buildSessionStructure(s.nodes);
    expect(buildVisibleGraph(structure, new Set()).count).toBe(2);
    expect(buildVisibleGraph(structure, new Set([runFoldId('n1')])).count).toBe(50_001);
  });
});
