import { describe, expect, it } from 'vitest';
import { buildVisibleGraph, itemByNode } from '../../../../shared/graph/folds';
import { firstChildItem, nextBranchItem, parentItem, pathToRoot, siblingItem } from '../../../../shared/graph/navigation';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { SessionBuilder } from './session-builder';

/** root prompt → answer → hook with two rewound prompts (a fork) → the second has a retried answer. */
function sample() {
  const s = new SessionBuilder();
  const root = s.add('user', null);
  const answer = s.add('assistant', root);
  const hook = s.add('system', answer);
  const first = s.add('user', hook);
  const second = s.add('user', hook);
  const retryA = s.add('assistant', second);
  const retryB = s.add('assistant', second);
  const structure = buildSessionStructure(s.nodes);
  const visible = buildVisibleGraph(structure, new Set());
  const byNode = itemByNode(structure, visible);
  const item = (id: string) => byNode[structure.indexById.get(id)!]!;
  return { structure, visible, item, ids: { root, answer, hook, first, second, retryA, retryB } };
}

describe('graph navigation', () => {
  it('moves to parent, first child and siblings', () => {
    const { visible, item, ids } = sample();
    expect(parentItem(visible, item(ids.answer))).toBe(item(ids.root));
    expect(parentItem(visible, item(ids.root))).toBe(-1);
    expect(firstChildItem(visible, item(ids.hook))).toBe(item(ids.first));
    expect(firstChildItem(visible, item(ids.first))).toBe(-1);
    expect(siblingItem(visible, item(ids.first), 1)).toBe(item(ids.second));
    expect(siblingItem(visible, item(ids.second), -1)).toBe(item(ids.first));
    expect(siblingItem(visible, item(ids.second), 1)).toBe(-1);
  });

  it('jumps between branch points in reading order, wrapping around', () => {
    const { structure, visible, item, ids } = sample();
    expect(nextBranchItem(structure, visible, item(ids.root), 1)).toBe(item(ids.hook));
    expect(nextBranchItem(structure, visible, item(ids.hook), 1)).toBe(item(ids.second));
    expect(nextBranchItem(structure, visible, item(ids.second), 1)).toBe(item(ids.hook));
    expect(nextBranchItem(structure, visible, item(ids.hook), -1)).toBe(item(ids.second));
    expect(nextBranchItem(structure, visible, -1, 1)).toBe(item(ids.hook));
  });

  it('gives the path from the root', () => {
    const { visible, item, ids } = sample();
    expect(Array.from(pathToRoot(visible, item(ids.retryB)))).toEqual([ids.root, ids.answer, ids.hook, ids.second, ids.retryB].map(item));
    expect(pathToRoot(visible, -1).length).toBe(0);
  });

  it('walks a 50k-deep path without recursion', () => {
    const s = new SessionBuilder();
    s.chain(null, 50_000, ['user', 'assistant']);
    const structure = buildSessionStructure(s.nodes);
    const visible = buildVisibleGraph(structure, new Set());
    expect(pathToRoot(visible, visible.count - 1).length).toBe(50_000);
  });
});
