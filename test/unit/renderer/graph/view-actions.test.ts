import { describe, expect, it } from 'vitest';
import { buildVisibleGraph, ITEM_RUN, runFoldId } from '../../../../shared/graph/folds';
import { forestFromParents } from '../../../../shared/graph/forest';
import { layoutLanes } from '../../../../shared/graph/lane-layout';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { LANE_WIDTH, NODE_HEIGHT, NODE_WIDTH, ROW_HEIGHT } from '../../../../renderer/src/graph/mount-items';
import { fitViewport, foldToToggle, itemViewport, keyToMove, OPEN_ZOOM, resizedViewport, revealViewport, unzoomStep } from '../../../../renderer/src/graph/view-actions';
import { SessionBuilder } from '../../shared/graph/session-builder';

describe('view actions', () => {
  it('fits a small tree whole and starts a tall one at the top at the minimum zoom', () => {
    const small = layoutLanes(forestFromParents(Int32Array.from([-1, 0, 1])));
    const fitted = fitViewport(small, 1000, 800, 0.5);
    expect(fitted.zoom).toBe(1);
    const tall = layoutLanes(forestFromParents(Int32Array.from({ length: 5000 }, (_, i) => i - 1)));
    const top = fitViewport(tall, 1000, 800, 0.5);
    expect(top.zoom).toBe(0.5);
    expect(top.y).toBe(32);
  });

  it('keeps the view when the item is inside it, else centres on it', () => {
    const layout = layoutLanes(forestFromParents(Int32Array.from({ length: 100 }, (_, i) => i - 1)));
    const current = { x: 100, y: 100, zoom: 1 };
    expect(itemViewport(layout, 2, 1000, 800, 1, current)).toBe(current);
    const moved = itemViewport(layout, 90, 1000, 800, 1, current);
    expect(moved).not.toBe(current);
    expect(moved.y).toBeLessThan(0);
  });

  it('a jump keeps a readable view that shows the node well inside, and otherwise centres at a readable zoom', () => {
    const layout = layoutLanes(forestFromParents(Int32Array.from({ length: 100 }, (_, i) => i - 1)));
    const readable = { x: 100, y: 100, zoom: 1 };
    expect(revealViewport(layout, 2, 1000, 800, readable)).toBe(readable);
    // This row sits at the bottom edge (its top on screen, its bottom past 800): easy to miss, so centre it.
    const edgeRow = Math.floor((800 - readable.y) / ROW_HEIGHT);
    const edge = revealViewport(layout, edgeRow, 1000, 800, readable);
    expect(edge).not.toBe(readable);
    expect(edge.y + (edgeRow * ROW_HEIGHT + NODE_HEIGHT / 2) * edge.zoom).toBeCloseTo(400);
    // Zoomed out to pills, the node is "in view" but unreadable: zoom in on it.
    const overview = { x: 0, y: 0, zoom: 0.1 };
    const jumped = revealViewport(layout, 50, 1000, 800, overview);
    expect(jumped.zoom).toBe(OPEN_ZOOM);
    expect(jumped.y + (50 * ROW_HEIGHT + NODE_HEIGHT / 2) * jumped.zoom).toBeCloseTo(400);
    expect(revealViewport(layout, 50, 1000, 800, { x: 0, y: 0, zoom: 1.5 }).zoom).toBe(1.5);
    // Centring the session's first node would show half a pane of nothing above it: the start stays at the top.
    expect(revealViewport(layout, 0, 1000, 800, { x: 0, y: -5000, zoom: 1 }).y).toBe(32);
  });

  it('Enter expands a group and folds an expanded run back from any of its nodes', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.chain(prompt, 6);
    const structure = buildSessionStructure(s.nodes);
    const folded = buildVisibleGraph(structure, new Set());
    expect(folded.kind[1]).toBe(ITEM_RUN);
    expect(foldToToggle(structure, folded, new Set(), 1)).toBe(runFoldId('n1'));
    expect(foldToToggle(structure, folded, new Set(), 0)).toBeNull();
    const expanded = new Set([runFoldId('n1')]);
    const open = buildVisibleGraph(structure, expanded);
    expect(foldToToggle(structure, open, expanded, 4)).toBe(runFoldId('n1'));
    expect(keyToMove(structure, open, 4, 'ArrowUp', false)).toBe(3);
    expect(keyToMove(structure, open, 4, 'x', false)).toBeNull();
    expect(keyToMove(structure, open, -1, 'ArrowDown', false)).toBe(0);
  });

  it('a zoom that barely changes leaves the rings\' size alone (restyling every card at every frame of a zoom cost 0.4 s in 2.5 s at 50k)', () => {
    expect(unzoomStep(0.8)).toBe(unzoomStep(0.81));
    expect(unzoomStep(1.5)).toBe('1.000');
    expect(unzoomStep(0.001)).toBe(unzoomStep(0.04));
    expect(Number(unzoomStep(0.1))).toBeGreaterThan(8.5);
    expect(Number(unzoomStep(0.1))).toBeLessThan(11.5);
    expect(Number(unzoomStep(0.25))).toBeGreaterThan(Number(unzoomStep(0.4)));
  });

  it('a narrower pane keeps its centre, but a selected card that was in view stays whole in view', () => {
    // Two lanes: item 0 in lane 0, its second child (item 3) in lane 1.
    const layout = layoutLanes(forestFromParents(Int32Array.from([-1, 0, 1, 0])));
    const zoom = 0.8;
    const shown = (x: number, item: number) => [layout.lane[item]! * LANE_WIDTH * zoom + x, layout.lane[item]! * LANE_WIDTH * zoom + x + NODE_WIDTH * zoom];
    // Regression: a 1000 px window (pane 650 -> 255) cut the selected prompt's card in lane 0 by half.
    const narrowed = resizedViewport({ x: 34, y: 10, zoom }, 650, 255, layout, 0);
    const [left, right] = shown(narrowed.x, 0);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(255);
    expect(narrowed.y).toBe(10);
    // A card in the middle of a wide pane keeps the centre's shift while it stays in view (Graph -> Both).
    expect(resizedViewport({ x: 200, y: 0, zoom }, 1000, 800, layout, 0).x).toBe(100);
    // Selected in lane 1, it stays whole when the pane narrows; without a selection the first lane does.
    const [left1, right1] = shown(resizedViewport({ x: 34, y: 0, zoom }, 900, 400, layout, 3).x, 3);
    expect(left1).toBeGreaterThanOrEqual(0);
    expect(right1).toBeLessThanOrEqual(400);
    expect(shown(resizedViewport({ x: 34, y: 0, zoom }, 650, 255, layout, -1).x, 0)[0]).toBeGreaterThanOrEqual(0);
    // A card the user had panned out of view is not pulled back: the centre is kept.
    expect(resizedViewport({ x: -500, y: 0, zoom }, 650, 255, layout, 0).x).toBe(-500 + (255 - 650) / 2);
  });
});

