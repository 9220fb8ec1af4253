/** Pure helpers behind the view's keyboard and camera: what a key does, where to look. */
import { agentFoldId, foldIdOfItem, ITEM_NODE, runFoldId, type FoldId, type VisibleGraph } from '../../../shared/graph/folds';
import type { LaneLayout } from '../../../shared/graph/lane-layout';
import { firstChildItem, nextBranchItem, parentItem, siblingItem } from '../../../shared/graph/navigation';
import type { SessionStructure } from '../../../shared/graph/session-structure';
import { DETAIL_ZOOM, LANE_WIDTH, NODE_HEIGHT, NODE_WIDTH, ROW_HEIGHT, type Viewport } from './mount-items';

const PADDING = 32;
/** The zoom a session opens at (at least) and a jump lands at: node text at ~10px, comfortably read. */
export const OPEN_ZOOM = 0.8;
/** Pointer travel (px) between press and release that still counts as a click rather than a pan. */
export const CLICK_SLOP_PX = 6;
/** A jump target nearer the pane's edge than this (px) is re-centred: at the edge it is easy to miss. */
const REVEAL_MARGIN = 96;

/** 1/zoom (at least 1, at most 25) rounded to a power of 1.15, as a CSS value: rings keep about one size on screen. */
export function unzoomStep(zoom: number): string {
  const unzoom = Math.min(25, Math.max(1, 1 / zoom));
  return (1.15 ** Math.round(Math.log(unzoom) / Math.log(1.15))).toFixed(3);
}

/**
 * Fits the whole layout, but never below `minZoom`; what does not fit starts at the top left, where the
 * session begins.
 */
export function fitViewport(layout: LaneLayout, width: number, height: number, minZoom: number): Viewport {
  const { contentWidth, contentHeight } = contentSize(layout);
  const fitted = Math.min((width - 2 * PADDING) / contentWidth, (height - 2 * PADDING) / contentHeight, 1);
  const zoom = Math.max(minZoom, fitted);
  const x = contentWidth * zoom <= width - 2 * PADDING ? (width - contentWidth * zoom) / 2 : PADDING;
  const y = contentHeight * zoom <= height - 2 * PADDING ? (height - contentHeight * zoom) / 2 : PADDING;
  return { x, y, zoom };
}

/** A viewport showing `item`: the current one when the item is already inside it (`margin` px clear of the edges), else centred. */
export function itemViewport(
  layout: LaneLayout,
  item: number,
  width: number,
  height: number,
  zoom: number,
  current?: Viewport,
  margin: number = PADDING,
): Viewport {
  const left = layout.lane[item]! * LANE_WIDTH;
  const top = layout.row[item]! * ROW_HEIGHT;
  if (current) {
    // A pane too small for the margin on both sides still keeps a node that is on screen at all.
    const marginX = Math.min(margin, Math.max(0, (width - NODE_WIDTH * current.zoom) / 2));
    const marginY = Math.min(margin, Math.max(0, (height - NODE_HEIGHT * current.zoom) / 2));
    const screenLeft = left * current.zoom + current.x;
    const screenTop = top * current.zoom + current.y;
    const inside =
      screenLeft >= marginX &&
      screenTop >= marginY &&
      screenLeft + NODE_WIDTH * current.zoom <= width - marginX &&
      screenTop + NODE_HEIGHT * current.zoom <= height - marginY;
    if (inside) return current;
  }
  return centreOn(layout, item, width, height, zoom);
}

/**
 * Centres `item`, but never leaves empty space above or left of the session's start (centring the first
 * prompt would show half a pane of nothing) nor right of its last lane; content narrower than the pane
 * stays centred as a whole, so jumps between lanes do not slide the view sideways.
 */
function centreOn(layout: LaneLayout, item: number, width: number, height: number, zoom: number): Viewport {
  const { contentWidth } = contentSize(layout);
  const left = layout.lane[item]! * LANE_WIDTH;
  const top = layout.row[item]! * ROW_HEIGHT;
  let x = width / 2 - (left + NODE_WIDTH / 2) * zoom;
  if (contentWidth * zoom <= width - 2 * PADDING) x = (width - contentWidth * zoom) / 2;
  else x = Math.min(PADDING, Math.max(width - PADDING - contentWidth * zoom, x));
  const y = Math.min(PADDING, height / 2 - (top + NODE_HEIGHT / 2) * zoom);
  return { x, y, zoom };
}

function contentSize(layout: LaneLayout): { contentWidth: number; contentHeight: number } {
  return {
    contentWidth: Math.max(NODE_WIDTH, layout.lanes * LANE_WIDTH - (LANE_WIDTH - NODE_WIDTH)),
    contentHeight: Math.max(NODE_HEIGHT, layout.rows * ROW_HEIGHT - (ROW_HEIGHT - NODE_HEIGHT)),
  };
}

/**
 * Where to look after a jump from outside the graph (a search hit, a link): keep the view only when the
 * item is readable (labels drawn) and well clear of the edges; otherwise centre on it, zooming in to at
 * least OPEN_ZOOM.
 */
export function revealViewport(layout: LaneLayout, item: number, width: number, height: number, current: Viewport): Viewport {
  const zoom = Math.max(current.zoom, OPEN_ZOOM);
  if (current.zoom < DETAIL_ZOOM) return itemViewport(layout, item, width, height, zoom);
  return itemViewport(layout, item, width, height, zoom, current, REVEAL_MARGIN);
}

/**
 * The item a navigation key moves the cursor to: null when the key is not a navigation key, -1 when
 * there is nowhere to go. Without a cursor, any navigation key starts at the first root.
 */
export function keyToMove(structure: SessionStructure, visible: VisibleGraph, cursor: number, key: string, shift: boolean): number | null {
  const navigation = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'b', 'B'];
  if (!navigation.includes(key)) return null;
  if (cursor < 0 || cursor >= visible.count) return visible.count > 0 ? 0 : -1;
  switch (key) {
    case 'ArrowUp':
      return parentItem(visible, cursor);
    case 'ArrowDown':
      return firstChildItem(visible, cursor);
    case 'ArrowLeft':
      return siblingItem(visible, cursor, -1);
    case 'ArrowRight':
      return siblingItem(visible, cursor, 1);
    default:
      return nextBranchItem(structure, visible, cursor, shift || key === 'B' ? -1 : 1);
  }
}

/**
 * What Enter toggles at the cursor: a group expands; a node inside an expanded run or at the root of an
 * expanded agent run folds it back.
 */
export function foldToToggle(structure: SessionStructure, visible: VisibleGraph, expanded: ReadonlySet<FoldId>, cursor: number): FoldId | null {
  if (cursor < 0 || cursor >= visible.count) return null;
  if (visible.kind[cursor] !== ITEM_NODE) return foldIdOfItem(structure, visible, cursor);
  const node = visible.node[cursor]!;
  const run = structure.runOf[node]!;
  if (run >= 0) {
    const fold = runFoldId(structure.nodes[structure.runStart[run]!]!.id);
    if (expanded.has(fold)) return fold;
  }
  for (let at = node; at >= 0; at = structure.display.parent[at]!) {
    if (structure.agentRoot[at] !== 1) continue;
    const fold = agentFoldId(structure.nodes[at]!.id);
    return expanded.has(fold) ? fold : null;
  }
  return null;
}

/** How close to the pane's side edges a resize may bring the card it keeps in view. */
const RESIZE_MARGIN = 16;

/**
 * The camera after the pane's width went from `before` to `width`: it keeps the pane's centre where it was
 * (Graph → Both narrows the pane from its right edge, and the cards in its middle went under the conversation), but
 * not at the cost of the selected card, or without one, of the graph's left edge where its first lane runs: a
 * card in view before stays in view (a 1000 px window cut the selected prompt's card by half, its text with it).
 */
export function resizedViewport(current: Viewport, before: number, width: number, layout: LaneLayout | null, item: number): Viewport {
  const x = current.x + (width - before) / 2;
  const left = layout !== null && item >= 0 && item < layout.lane.length ? layout.lane[item]! * LANE_WIDTH * current.zoom : 0;
  const cardWidth = NODE_WIDTH * current.zoom;
  const shownAt = left + current.x;
  if (shownAt < 0 || shownAt + cardWidth > before) return { ...current, x };
  const margin = Math.min(RESIZE_MARGIN, Math.max(0, (width - cardWidth) / 2));
  // Its left end at least `margin` from the pane's left side, its right end as far from the right side; in a pane
  // narrower than the card, its left end (where its text starts).
  const lowest = margin - left;
  const highest = width - margin - cardWidth - left;
  return { ...current, x: Math.max(lowest, Math.min(highest, x)) };
}
