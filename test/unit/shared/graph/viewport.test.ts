import { describe, expect, it } from 'vitest';
import { forestFromParents } from '../../../../shared/graph/forest';
import { layoutLanes } from '../../../../shared/graph/lane-layout';
import { indexRows, mountedParents, planMount } from '../../../../shared/graph/viewport';

function wideSession(n: number) {
  // A main line with a one-node branch every 10 nodes: node 10k hangs off 10k-5, 10k+1 continues from 10k-1.
  const parents: number[] = [-1];
  for (let i = 1; i < n; i++) parents.push(i % 10 === 0 ? i - 5 : i % 10 === 1 && i > 1 ? i - 2 : i - 1);
  const forest = forestFromParents(Int32Array.from(parents));
  const layout = layoutLanes(forest);
  return { forest, layout, rows: indexRows(layout) };
}

describe('planMount', () => {
  it('mounts exactly what is in view (plus parents just outside) when it fits', () => {
    const { forest, layout, rows } = wideSession(2000);
    const plan = planMount(layout, rows, forest, { laneMin: 0, laneMax: 0, rowMin: 100, rowMax: 120 }, 600, () => false);
    expect(plan.complete).toBe(true);
    for (const item of plan.items) {
      const inView = layout.lane[item] === 0 && layout.row[item]! >= 100 && layout.row[item]! <= 120;
      const parentOfInView = Array.from(plan.items).some((other) => forest.parent[other] === item);
      expect(inView || parentOfInView).toBe(true);
    }
    expect(plan.items.length).toBeGreaterThanOrEqual(21);
  });

  it('stays within budget when zoomed far out, keeping the important items', () => {
    const { forest, layout, rows } = wideSession(50_000);
    const important = new Set([5, 49_999, 25_000]);
    const plan = planMount(layout, rows, forest, { laneMin: -1, laneMax: 1e9, rowMin: -1, rowMax: 1e9 }, 600, (i) => important.has(i));
    expect(plan.complete).toBe(false);
    expect(plan.items.length).toBeLessThanOrEqual(600);
    for (const item of important) expect(Array.from(plan.items)).toContain(item);
  });

  it('draws elided edges to the nearest mounted ancestor', () => {
    const forest = forestFromParents(Int32Array.from([-1, 0, 1, 2, 3]));
    const { parent, elided } = mountedParents(forest, Int32Array.from([0, 3, 4]));
    expect(Array.from(parent)).toEqual([-1, 0, 3]);
    expect(Array.from(elided)).toEqual([0, 1, 0]);
  });
});
