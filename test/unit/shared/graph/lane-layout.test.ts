import { describe, expect, it } from 'vitest';
import { forestFromParents } from '../../../../shared/graph/forest';
import { layoutLanes } from '../../../../shared/graph/lane-layout';
import { mulberry32 } from '../../../../shared/random';

const layoutOf = (parents: number[]) => {
  const forest = forestFromParents(Int32Array.from(parents));
  return { forest, layout: layoutLanes(forest) };
};


describe('layoutLanes', () => {
  it('keeps a chain in one column and puts a branch in the next lane', () => {
    // 0 → 1 → 2 → 3, and 1 → 4 → 5 (a branch)
    const { layout } = layoutOf([-1, 0, 1, 2, 1, 4]);
    expect(Array.from(layout.lane)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(Array.from(layout.row)).toEqual([0, 1, 2, 3, 2, 3]);
    expect(layout.lanes).toBe(2);
    expect(layout.rows).toBe(4);
  });

  it('reuses a lane once its branch has ended, leaving a free row between', () => {
    // main 0..9; short branch off 1 (rows 2-3); a branch off 4 starts at row 5 → reuses lane 1;
    // a branch off 3 starts at row 4 → its lane-1 predecessor ended at row 3, so it takes lane 2.
    const parents = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, /*10*/ 1, 10, /*12*/ 4, 12, /*14*/ 3];
    const { layout } = layoutOf(parents);
    expect(layout.lane[10]).toBe(1);
    expect(layout.lane[14]).toBe(2);
    expect(layout.lane[12]).toBe(1);
  });

  it('lays the trees of a forest side by side', () => {
    const { layout } = layoutOf([-1, 0, 0, -1, 3]);
    expect(Array.from(layout.lane)).toEqual([0, 0, 1, 2, 2]);
    expect(layout.lanes).toBe(3);
  });

  it('never puts two items in one cell; children sit one row below and never left of the parent', () => {
    const next = mulberry32(7);
    for (let trial = 0; trial < 20; trial++) {
      const n = 200 + Math.floor(next() * 800);
      const parents = [-1];
      for (let i = 1; i < n; i++) parents.push(next() < 0.02 ? -1 : next() < 0.85 ? i - 1 : Math.floor(next() * i));
      const { forest, layout } = layoutOf(parents);
      const cells = new Set<string>();
      for (let i = 0; i < n; i++) {
        const cell = `${layout.lane[i]},${layout.row[i]}`;
        expect(cells.has(cell)).toBe(false);
        cells.add(cell);
        const p = forest.parent[i]!;
        if (p >= 0) {
          expect(layout.row[i]).toBe(layout.row[p]! + 1);
          expect(layout.lane[i]).toBeGreaterThanOrEqual(layout.lane[p]!);
        }
      }
    }
  });

  it('lays out a 50k-deep chain', () => {
    const parents = Array.from({ length: 50_000 }, (_, i) => i - 1);
    const { layout } = layoutOf(parents);
    expect(layout.rows).toBe(50_000);
    expect(layout.lanes).toBe(1);
    expect(layout.row[49_999]).toBe(49_999);
  });
});
