import { describe, expect, it } from 'vitest';
import { forestFromParents } from '../../../../shared/graph/forest';
import { layoutLanes, routeBetweenCards } from '../../../../shared/graph/lane-layout';
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

describe('routeBetweenCards', () => {
  const grid = { laneWidth: 336, rowHeight: 92, cardWidth: 296, cardHeight: 62 };

  /** True when an axis-aligned segment enters a card's inside (touching its edge is not crossing). */
  const crosses = (a: { x: number; y: number }, b: { x: number; y: number }, lane: number, row: number): boolean => {
    const left = lane * grid.laneWidth;
    const top = row * grid.rowHeight;
    const right = left + grid.cardWidth;
    const bottom = top + grid.cardHeight;
    return Math.max(a.x, b.x) > left && Math.min(a.x, b.x) < right && Math.max(a.y, b.y) > top && Math.min(a.y, b.y) < bottom;
  };

  it('a merge edge between parents far apart crosses no card of the laid-out session (bezier edges cut through them)', () => {
    const random = mulberry32(11);
    for (let trial = 0; trial < 30; trial++) {
      const parents = [-1];
      for (let i = 1; i < 150; i++) parents.push(random() < 0.85 ? i - 1 : Math.floor(random() * i));
      const { layout } = layoutOf(parents);
      for (let pair = 0; pair < 20; pair++) {
        const from = Math.floor(random() * parents.length);
        const to = Math.floor(random() * parents.length);
        if (from === to) continue;
        const route = routeBetweenCards(grid, { lane: layout.lane[from]!, row: layout.row[from]! }, { lane: layout.lane[to]!, row: layout.row[to]! });
        for (let k = 1; k < route.length; k++) {
          const a = route[k - 1]!;
          const b = route[k]!;
          expect(a.x === b.x || a.y === b.y).toBe(true); // orthogonal
          for (let item = 0; item < parents.length; item++) expect(crosses(a, b, layout.lane[item]!, layout.row[item]!)).toBe(false);
        }
        expect(route[0]).toEqual({ x: layout.lane[from]! * grid.laneWidth + grid.cardWidth / 2, y: layout.row[from]! * grid.rowHeight + grid.cardHeight });
        expect(route.at(-1)).toEqual({ x: layout.lane[to]! * grid.laneWidth + grid.cardWidth / 2, y: layout.row[to]! * grid.rowHeight });
      }
    }
  });

  it('goes straight down between cards of one lane in consecutive rows', () => {
    expect(routeBetweenCards(grid, { lane: 2, row: 3 }, { lane: 2, row: 4 })).toHaveLength(2);
  });
});
