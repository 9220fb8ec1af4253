/**
 * Keyboard navigation over what is on screen (the visible graph, in item indices), and the path from
 * the root to an item. Every function returns -1 when there is nowhere to go.
 */
import { BRANCH_NONE } from './branch-points';
import { ITEM_NODE, type VisibleGraph } from './folds';
import type { SessionStructure } from './session-structure';

export function parentItem(visible: VisibleGraph, item: number): number {
  return item < 0 || item >= visible.count ? -1 : visible.forest.parent[item]!;
}

export function firstChildItem(visible: VisibleGraph, item: number): number {
  const { childStart, children } = visible.forest;
  if (item < 0 || item >= visible.count || childStart[item] === childStart[item + 1]) return -1;
  return children[childStart[item]!]!;
}

/** The next (+1) or previous (-1) sibling; roots of a forest are siblings of each other. */
export function siblingItem(visible: VisibleGraph, item: number, direction: 1 | -1): number {
  if (item < 0 || item >= visible.count) return -1;
  const { parent, childStart, children, roots } = visible.forest;
  const p = parent[item]!;
  const list = p < 0 ? roots : children.subarray(childStart[p]!, childStart[p + 1]!);
  const at = list.indexOf(item);
  const next = at + direction;
  return next >= 0 && next < list.length ? list[next]! : -1;
}

export function isBranchItem(structure: SessionStructure, visible: VisibleGraph, item: number): boolean {
  return visible.kind[item] === ITEM_NODE && structure.branch[visible.node[item]!] !== BRANCH_NONE;
}

/**
 * The next branch point after `item` in reading order (preorder), wrapping around; direction -1 goes
 * backwards. From -1 it starts at the top (or the bottom going backwards).
 */
export function nextBranchItem(structure: SessionStructure, visible: VisibleGraph, item: number, direction: 1 | -1): number {
  const count = visible.count;
  if (count === 0) return -1;
  const start = item < 0 || item >= count ? (direction === 1 ? count - 1 : 0) : item;
  for (let step = 1; step <= count; step++) {
    const candidate = (((start + direction * step) % count) + count) % count;
    if (candidate !== item && isBranchItem(structure, visible, candidate)) return candidate;
  }
  return -1;
}

/** Items from the root down to `item` (inclusive); empty for -1. */
export function pathToRoot(visible: VisibleGraph, item: number): Int32Array {
  if (item < 0 || item >= visible.count) return new Int32Array(0);
  let length = 0;
  for (let at = item; at >= 0; at = visible.forest.parent[at]!) length++;
  const path = new Int32Array(length);
  for (let at = item, k = length - 1; at >= 0; at = visible.forest.parent[at]!, k--) path[k] = at;
  return path;
}

/**
 * The selected path: the root down to `item`, then on along the line `item` is on (first children) to
 * that branch's end, so the whole branch the selection belongs to reads as one.
 */
export function pathThroughItem(visible: VisibleGraph, item: number): Int32Array {
  const above = pathToRoot(visible, item);
  if (above.length === 0) return above;
  const below: number[] = [];
  for (let at = firstChildItem(visible, item); at >= 0; at = firstChildItem(visible, at)) below.push(at);
  if (below.length === 0) return above;
  const path = new Int32Array(above.length + below.length);
  path.set(above);
  path.set(below, above.length);
  return path;
}

/** How many branches leave an item as drawn (its children on screen, after folds and filters). */
export function drawnChildren(visible: VisibleGraph, item: number): number {
  return visible.forest.childStart[item + 1]! - visible.forest.childStart[item]!;
}
