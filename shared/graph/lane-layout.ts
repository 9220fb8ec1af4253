/**
 * Lane layout, top-down: row = depth; a chain (each node's first child) stays in its parent's column and
 * every other child starts a branch in a new lane to the right, like `git log --graph`. Lanes are reused
 * once the branch that held them has ended (with one free row between, so two unrelated chains never
 * look joined). Trees of a forest sit side by side.
 *
 * Cost: O(n) for the chains, O(b log b) for the b branches (a min-tree over lanes answers "first lane
 * ≥ k that is free at row r"). No recursion: depth is bounded only by memory.
 */
import { ArborError } from '../errors';
import type { Forest } from './forest';

export interface LaneLayout {
  /** Column per item. */
  readonly lane: Int32Array;
  /** Row (depth) per item. */
  readonly row: Int32Array;
  readonly lanes: number;
  readonly rows: number;
}

export function layoutLanes(forest: Forest): LaneLayout {
  const n = forest.size;
  const row = new Int32Array(n);
  const lane = new Int32Array(n);
  if (n === 0) return { lane, row, lanes: 0, rows: 0 };

  // Depth and tree index per node, from a preorder walk.
  const tree = new Int32Array(n);
  const order = new Int32Array(n);
  let tail = 0;
  for (let t = 0; t < forest.roots.length; t++) {
    const root = forest.roots[t]!;
    const stack = [root];
    tree[root] = t;
    while (stack.length > 0) {
      const node = stack.pop()!;
      order[tail++] = node;
      for (let c = forest.childStart[node + 1]! - 1; c >= forest.childStart[node]!; c--) {
        const child = forest.children[c]!;
        row[child] = row[node]! + 1;
        tree[child] = t;
        stack.push(child);
      }
    }
  }

  // Segment heads: roots and every child that is not its parent's first child.
  const heads: number[] = [];
  for (let k = 0; k < tail; k++) {
    const node = order[k]!;
    const p = forest.parent[node]!;
    if (p < 0 || forest.children[forest.childStart[p]!] !== node) heads.push(node);
  }
  // Place heads tree by tree (trees are contiguous in preorder), top row first, preorder within a row:
  // a stable counting sort on the row inside each tree, O(n) overall.
  const sorted = new Int32Array(heads.length);
  for (let from = 0; from < heads.length; ) {
    let to = from;
    let low = Infinity;
    let high = -1;
    while (to < heads.length && tree[heads[to]!] === tree[heads[from]!]) {
      const r = row[heads[to]!]!;
      if (r < low) low = r;
      if (r > high) high = r;
      to++;
    }
    const bucket = new Int32Array(high - low + 2);
    for (let h = from; h < to; h++) bucket[row[heads[h]!]! - low + 1]!++;
    for (let b = 1; b < bucket.length; b++) bucket[b]! += bucket[b - 1]!;
    for (let h = from; h < to; h++) sorted[from + bucket[row[heads[h]!]! - low]!++] = heads[h]!;
    from = to;
  }
  let maxRow = 0;
  for (let i = 0; i < n; i++) if (row[i]! > maxRow) maxRow = row[i]!;

  const lanes = new FreeLanes(heads.length);
  let base = 0;
  let currentTree = -1;
  let widest = 0;
  for (let h = 0; h < sorted.length; h++) {
    const head = sorted[h]!;
    if (tree[head] !== currentTree) {
      currentTree = tree[head]!;
      base = widest;
    }
    const p = forest.parent[head]!;
    const from = p < 0 ? base : Math.max(base, lane[p]! + 1);
    const column = lanes.firstFree(from, row[head]! - 1);
    // Walk the chain: the head and its first-child descendants share the column.
    let node = head;
    for (;;) {
      lane[node] = column;
      if (forest.childStart[node + 1] === forest.childStart[node]) break;
      node = forest.children[forest.childStart[node]!]!;
    }
    lanes.occupy(column, row[node]!);
    if (column + 1 > widest) widest = column + 1;
  }
  return { lane, row, lanes: widest, rows: maxRow + 1 };
}

/** Last used row per lane in a min-tree, so "first lane ≥ k whose last row < r" is O(log lanes). */
class FreeLanes {
  private readonly size: number;
  private readonly last: Int32Array;

  constructor(capacity: number) {
    let size = 1;
    while (size < capacity + 1) size *= 2;
    this.size = size;
    this.last = new Int32Array(2 * size).fill(-2);
  }

  /** The first lane ≥ from whose last row is < before. */
  firstFree(from: number, before: number): number {
    const { size, last } = this;
    let i = from + size;
    for (;;) {
      if (last[i]! < before) {
        while (i < size) {
          i *= 2;
          if (last[i]! >= before) i++;
        }
        return i - size;
      }
      while ((i & 1) === 1) {
        i >>= 1;
        // Capacity exceeds the number of heads, so some lane is always still fresh.
        if (i === 0) throw new ArborError('INTERNAL', 'lane layout ran out of lanes');
      }
      i++;
    }
  }

  occupy(laneIndex: number, lastRow: number): void {
    const { size, last } = this;
    let i = laneIndex + size;
    last[i] = lastRow;
    for (i >>= 1; i >= 1; i >>= 1) last[i] = Math.min(last[2 * i]!, last[2 * i + 1]!);
  }
}

/** Where cards sit: each lane `laneWidth` wide with a card of `cardWidth` at its left, each row likewise. */
export interface CardGrid {
  readonly laneWidth: number;
  readonly rowHeight: number;
  readonly cardWidth: number;
  readonly cardHeight: number;
}

export interface RoutePoint {
  readonly x: number;
  readonly y: number;
}

/**
 * An edge from the bottom of one card to the top of another that crosses no card: out of the source
 * into the empty strip below its row, across to the gap between lanes beside the target, along that
 * gap (no card ever stands in it) to the strip above the target's row, across and down into it. A
 * merge's second parent can be many lanes and rows away; a bezier between them cut through the cards.
 */
export function routeBetweenCards(grid: CardGrid, from: { lane: number; row: number }, to: { lane: number; row: number }): RoutePoint[] {
  const laneGap = grid.laneWidth - grid.cardWidth;
  const rowGap = grid.rowHeight - grid.cardHeight;
  const start = { x: from.lane * grid.laneWidth + grid.cardWidth / 2, y: from.row * grid.rowHeight + grid.cardHeight };
  const end = { x: to.lane * grid.laneWidth + grid.cardWidth / 2, y: to.row * grid.rowHeight };
  const below = start.y + rowGap / 2;
  if (to.row === from.row + 1) {
    if (to.lane === from.lane) return [start, end];
    return [start, { x: start.x, y: below }, { x: end.x, y: below }, end];
  }
  const above = end.y - rowGap / 2;
  // The gap on the target's side facing the source (its right when they share a lane).
  const column = to.lane > from.lane ? to.lane * grid.laneWidth - laneGap / 2 : to.lane * grid.laneWidth + grid.cardWidth + laneGap / 2;
  return [start, { x: start.x, y: below }, { x: column, y: below }, { x: column, y: above }, { x: end.x, y: above }, end];
}
