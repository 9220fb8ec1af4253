import { describe, expect, it } from 'vitest';
import { forestFromParents } from '../../../../shared/graph/forest';
import { layoutLanes, routeBetweenCards } from '../../../../shared/graph/lane-layout';
import { mulberry32 } from '../../../../shared/random';

const layoutOf = (parents: number[]) => {
  const forest = forestFromParents(Int32Array.from(parents));
  return { forest, layout: layoutLanes(forest) };
};

/**
 * The properties over generated layouts are checked in plain loops and asserted once: an expect() per item and
 * card (~380k of them) took 14.7–37 s of this file for the same cases and the same checks. A failure still names
 * every broken case (the count) and the first few in words.
 */
class Violations {
  private readonly examples: string[] = [];
  private count = 0;
  add(what: string): void {
    this.count++;
    if (this.examples.length < 10) this.examples.push(what);
  }
  report(): { count: number; first: string[] } {
    return { count: this.count, first: this.examples };
  }
}

const samePoint = (a: { x: number; y: number } | undefined, b: { x: number; y: number }): boolean =>
  a !== undefined && Object.keys(a).length === 2 && a.x === b.x && a.y === b.y;


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
    const broken = new Violations();
    for (let trial = 0; trial < 20; trial++) {
      const n = 200 + Math.floor(next() * 800);
      const parents = [-1];
      for (let i = 1; i < n; i++) parents.push(next() < 0.02 ? -1 : next() < 0.85 ? i - 1 : Math.floor(next() * i));
      const { forest, layout } = layoutOf(parents);
      const cells = new Set<string>();
      for (let i = 0; i < n; i++) {
        const cell = `${layout.lane[i]},${layout.row[i]}`;
        if (cells.has(cell)) broken.add(`trial ${trial}: item ${i} shares cell ${cell}`);
        cells.add(cell);
        const p = forest.parent[i]!;
        if (p >= 0) {
          if (layout.row[i] !== layout.row[p]! + 1) broken.add(`trial ${trial}: item ${i} at row ${layout.row[i]}, its parent ${p} at row ${layout.row[p]}`);
          if (!(layout.lane[i]! >= layout.lane[p]!)) broken.add(`trial ${trial}: item ${i} in lane ${layout.lane[i]}, left of its parent ${p} in lane ${layout.lane[p]}`);
        }
      }
    }
    expect(broken.report()).toEqual({ count: 0, first: [] });
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
    const broken = new Violations();
    for (let trial = 0; trial < 30; trial++) {
      const parents = [-1];
      for (let i = 1; i < 150; i++) parents.push(random() < 0.85 ? i - 1 : Math.floor(random() * i));
      const { layout } = layoutOf(parents);
      for (let pair = 0; pair < 20; pair++) {
        const from = Math.floor(random() * parents.length);
        const to = Math.floor(random() * parents.length);
        if (from === to) continue;
        const route = routeBetweenCards(grid, { lane: layout.lane[from]!, row: layout.row[from]! }, { lane: layout.lane[to]!, row: layout.row[to]! });
        const edge = `trial ${trial}: ${from} → ${to}`;
        for (let k = 1; k < route.length; k++) {
          const a = route[k - 1]!;
          const b = route[k]!;
          if (!(a.x === b.x || a.y === b.y)) broken.add(`${edge}: segment ${k} is not orthogonal`);
          for (let item = 0; item < parents.length; item++) {
            if (crosses(a, b, layout.lane[item]!, layout.row[item]!)) broken.add(`${edge}: segment ${k} crosses the card of item ${item}`);
          }
        }
        const start = { x: layout.lane[from]! * grid.laneWidth + grid.cardWidth / 2, y: layout.row[from]! * grid.rowHeight + grid.cardHeight };
        const end = { x: layout.lane[to]! * grid.laneWidth + grid.cardWidth / 2, y: layout.row[to]! * grid.rowHeight };
        if (!samePoint(route[0], start)) broken.add(`${edge}: starts at ${JSON.stringify(route[0])}, not the bottom middle of its card ${JSON.stringify(start)}`);
        if (!samePoint(route.at(-1), end)) broken.add(`${edge}: ends at ${JSON.stringify(route.at(-1))}, not the top middle of its card ${JSON.stringify(end)}`);
      }
    }
    expect(broken.report()).toEqual({ count: 0, first: [] });
  });

  it('goes straight down between cards of one lane in consecutive rows', () => {
    expect(routeBetweenCards(grid, { lane: 2, row: 3 }, { lane: 2, row: 4 })).toHaveLength(2);
  });
});
