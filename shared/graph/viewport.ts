/**
 * Culling: which items to mount for a viewport. React Flow's DOM tops out near a thousand nodes, so the
 * view mounts at most `budget` items: everything in view when that fits; otherwise the important ones
 * (selection, its path, branch points, groups, prompts) and an even sample of the rest, with edges
 * drawn to the nearest mounted ancestor so the chain still reads as one line.
 */
import type { Forest } from './forest';
import type { LaneLayout } from './lane-layout';

/** Items bucketed by row, for range queries by row. */
export interface RowIndex {
  readonly rowStart: Int32Array;
  readonly items: Int32Array;
}

export function indexRows(layout: LaneLayout): RowIndex {
  const count = layout.row.length;
  const rowStart = new Int32Array(layout.rows + 1);
  for (let i = 0; i < count; i++) rowStart[layout.row[i]! + 1]!++;
  for (let r = 0; r < layout.rows; r++) rowStart[r + 1]! += rowStart[r]!;
  const fill = rowStart.slice(0, layout.rows);
  const items = new Int32Array(count);
  for (let i = 0; i < count; i++) items[fill[layout.row[i]!]!++] = i;
  return { rowStart, items };
}

/** A rectangle in layout units (lanes across, rows down); bounds are inclusive and may be fractional. */
export interface LayoutRect {
  readonly laneMin: number;
  readonly laneMax: number;
  readonly rowMin: number;
  readonly rowMax: number;
}

export interface MountPlan {
  /** Items to mount, ascending. */
  readonly items: Int32Array;
  /** False when some items in view were left out to stay within budget. */
  readonly complete: boolean;
}

export function planMount(
  layout: LaneLayout,
  rows: RowIndex,
  forest: Forest,
  rect: LayoutRect,
  budget: number,
  important: (item: number) => boolean,
): MountPlan {
  const rowMin = Math.max(0, Math.floor(rect.rowMin));
  const rowMax = Math.min(layout.rows - 1, Math.ceil(rect.rowMax));
  const inView: number[] = [];
  for (let r = rowMin; r <= rowMax; r++) {
    for (let k = rows.rowStart[r]!; k < rows.rowStart[r + 1]!; k++) {
      const item = rows.items[k]!;
      const lane = layout.lane[item]!;
      if (lane >= rect.laneMin && lane <= rect.laneMax) inView.push(item);
    }
  }
  const chosen = new Uint8Array(layout.row.length);
  let taken = 0;
  const take = (item: number): void => {
    if (chosen[item] === 0 && taken < budget) {
      chosen[item] = 1;
      taken++;
    }
  };
  let complete = true;
  if (inView.length <= budget) {
    for (const item of inView) take(item);
    // Anchor edges that leave the view: mount the parents just outside it while the budget allows.
    for (const item of inView) {
      const p = forest.parent[item]!;
      if (p >= 0) take(p);
    }
  } else {
    complete = false;
    const rest: number[] = [];
    for (const item of inView) if (important(item)) take(item); else rest.push(item);
    const room = budget - taken;
    if (room > 0 && rest.length > 0) {
      const stride = rest.length / room;
      for (let k = 0; k < room; k++) take(rest[Math.floor(k * stride)]!);
    }
  }
  const items = new Int32Array(taken);
  for (let i = 0, k = 0; i < chosen.length; i++) if (chosen[i] === 1) items[k++] = i;
  return { items, complete };
}

/**
 * For each mounted item, the mounted item its edge comes from: the parent when mounted, else the
 * nearest mounted ancestor within `maxWalk` steps (an elided edge), else -1.
 */
export function mountedParents(forest: Forest, items: Int32Array, maxWalk = 256): { parent: Int32Array; elided: Uint8Array } {
  const mounted = new Set<number>(items);
  const parent = new Int32Array(items.length).fill(-1);
  const elided = new Uint8Array(items.length);
  for (let k = 0; k < items.length; k++) {
    let at = forest.parent[items[k]!]!;
    for (let step = 0; at >= 0 && step < maxWalk; step++) {
      if (mounted.has(at)) {
        parent[k] = at;
        elided[k] = step > 0 ? 1 : 0;
        break;
      }
      at = forest.parent[at]!;
    }
  }
  return { parent, elided };
}
