/**
 * The minimap: the turn overview's structure (lanes across, turns down, branch points and heads marked)
 * on a small canvas, with where the camera is. It can be hidden (remembered), and it moves to the other
 * corner whenever the selection would sit under it. A click jumps there.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { TURN_BRANCH_POINT, TURN_HEAD } from '../../../../shared/graph/turn-overview';
import type { GraphStore } from '../graph-store';
import { LANE_WIDTH, NODE_HEIGHT, NODE_WIDTH, ROW_HEIGHT } from '../mount-items';
import { readOverviewColors } from './draw-overview';
import { CARD_HEIGHT, CARD_WIDTH, nearestTurn, overviewSize, turnAtStepPoint, TURN_LANE_WIDTH, TURN_ROW_HEIGHT } from './overview-camera';
import type { OverviewStore } from './overview-store';

export const MINIMAP_WIDTH = 120;
export const MINIMAP_HEIGHT = 170;
/** A turn's row is at most this tall in the minimap: a short session draws thin bars, not big blocks over the cards. */
const MAX_ROW_PX = 6;

/** Overview units → minimap pixels: the whole overview fits, and a short one is not blown up. */
export function minimapScale(size: { readonly width: number; readonly height: number }): { sx: number; sy: number } {
  return {
    sx: MINIMAP_WIDTH / Math.max(size.width, TURN_LANE_WIDTH * 3),
    sy: Math.min(MINIMAP_HEIGHT / size.height, MAX_ROW_PX / TURN_ROW_HEIGHT),
  };
}
/** The minimap is as tall as its picture (a short session's few bars left a tall empty box over the cards), at least this. */
const MIN_HEIGHT = 40;

export function minimapHeight(size: { readonly width: number; readonly height: number }): number {
  return Math.max(MIN_HEIGHT, Math.min(MINIMAP_HEIGHT, Math.ceil(size.height * minimapScale(size).sy) + 8));
}
const MARGIN = 12;
/** How long the minimap waits for the layout worker's overview before building it here. */
const OVERVIEW_FALLBACK_MS = 3000;

export interface OverviewMinimapProps {
  readonly store: GraphStore;
  readonly overviewStore: OverviewStore;
  /** A click on the minimap: go to this turn. */
  onJump(turn: number): void;
}

export const OverviewMinimap = memo(function OverviewMinimap({ store, overviewStore, onJump }: OverviewMinimapProps) {
  const hidden = useStore(overviewStore, (s) => s.minimapHidden);
  const structure = useStore(store, (s) => s.structure);
  const [corner, setCorner] = useState<MinimapCorner>('right');
  const canvas = useRef<HTMLCanvasElement>(null);
  const jump = useRef(onJump);
  jump.current = onJump;

  useEffect(() => {
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (hidden || !structure || !element || !ctx) return;
    let cancelled = false;
    let scheduled = 0;
    let built: ReturnType<OverviewStore['getState']>['overview'] = null;
    let picture: HTMLCanvasElement | null = null;
    let colors = readOverviewColors(element);
    const dpr = globalThis.devicePixelRatio || 1;
    let height = MINIMAP_HEIGHT;
    const setHeight = (next: number): void => {
      height = next;
      element.width = MINIMAP_WIDTH * dpr;
      element.height = next * dpr;
      element.style.height = `${next}px`;
    };
    setHeight(MINIMAP_HEIGHT);

    /** The structure drawn once per session (and theme); each frame only copies it and adds the camera. */
    const paintStructure = (): void => {
      const { overview } = overviewStore.getState().overviewOf(structure);
      if (overview === built && picture) return;
      built = overview;
      const size = overviewSize(overview);
      const { sx, sy } = minimapScale(size);
      setHeight(minimapHeight(size));
      picture = document.createElement('canvas');
      picture.width = element.width;
      picture.height = element.height;
      const p = picture.getContext('2d');
      if (!p) return;
      colors = readOverviewColors(element);
      p.setTransform(dpr, 0, 0, dpr, 0, 0);
      const w = Math.max(2, (TURN_LANE_WIDTH - 30) * sx);
      const h = Math.max(0.6, TURN_ROW_HEIGHT * sy * 0.8);
      const layer = (pick: (t: number) => boolean, color: string, minHeight: number): void => {
        p.beginPath();
        for (let t = 0; t < overview.count; t++) {
          if (pick(t)) p.rect(overview.layout.lane[t]! * TURN_LANE_WIDTH * sx, overview.layout.row[t]! * TURN_ROW_HEIGHT * sy, w, Math.max(h, minHeight));
        }
        p.fillStyle = color;
        p.fill();
      };
      layer(() => true, colors.cardBorder, 1);
      // Branch points and heads as thin ticks across their lane: at 100k nodes a row is a tenth of a pixel,
      // and anything taller than a pixel would paint the whole lane.
      layer((t) => overview.mark[t] === TURN_BRANCH_POINT, colors.branch, 1);
      layer((t) => overview.mark[t] === TURN_HEAD, colors.head, 1);
    };

    const draw = (): void => {
      scheduled = 0;
      if (!picture || !built) return;
      const overview = built;
      const size = overviewSize(overview);
      const { sx, sy } = minimapScale(size);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, element.width, element.height);
      ctx.drawImage(picture, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const graph = store.getState();
      const view = overviewStore.getState();
      ctx.strokeStyle = colors.accent;
      ctx.lineWidth = 1.5;
      if (view.active) {
        const { camera } = view;
        const x = (-camera.x / camera.zoom) * sx;
        const y = (-camera.y / camera.zoom) * sy;
        ctx.strokeRect(x, y, Math.max(4, (graph.width / camera.zoom) * sx), Math.max(3, (graph.height / camera.zoom) * sy));
      } else if (graph.layout && graph.rows) {
        const turn = turnAtStepPoint(structure, graph.layout, graph.rows, overview, graph.viewport, graph.width / 2, graph.height / 2);
        ctx.strokeRect(0.5, overview.layout.row[turn]! * TURN_ROW_HEIGHT * sy - 3, MINIMAP_WIDTH - 1, Math.max(6, TURN_ROW_HEIGHT * sy));
      }
      const selected = graph.selectedNode >= 0 ? overview.turnOf[graph.selectedNode]! : -1;
      if (selected >= 0) {
        ctx.fillStyle = colors.accent;
        ctx.fillRect(overview.layout.lane[selected]! * TURN_LANE_WIDTH * sx - 2, overview.layout.row[selected]! * TURN_ROW_HEIGHT * sy - 2, 8, 5);
      }
      setCorner(minimapCorner(graph, view, overview, height));
    };
    const requestDraw = (): void => {
      if (scheduled === 0 && !cancelled) scheduled = requestAnimationFrame(draw);
    };
    // The turn overview comes from the layout worker (~80 ms at 100k nodes, off this thread); built here
    // only if it has not come after a while (a worker that failed).
    const known = (): boolean => {
      const view = overviewStore.getState();
      return view.structure === structure && view.overview !== null;
    };
    const paintWhenKnown = (): void => {
      if (!known()) return;
      paintStructure();
      requestDraw();
    };
    paintWhenKnown();
    const start = setTimeout(() => {
      paintStructure();
      requestDraw();
    }, OVERVIEW_FALLBACK_MS);
    const unsubscribeGraph = store.subscribe((state, previous) => {
      if (
        state.viewport !== previous.viewport ||
        state.selectedNode !== previous.selectedNode ||
        state.layout !== previous.layout ||
        state.width !== previous.width ||
        state.height !== previous.height
      )
        requestDraw();
    });
    const unsubscribeOverview = overviewStore.subscribe((state, previous) => {
      if (state.overview !== previous.overview) paintWhenKnown();
      if (state.camera !== previous.camera || state.active !== previous.active) requestDraw();
    });
    const scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    const onScheme = (): void => {
      paintStructure();
      requestDraw();
    };
    scheme?.addEventListener?.('change', onScheme);

    const onClick = (event: MouseEvent): void => {
      if (!built) return;
      const rect = element.getBoundingClientRect();
      const size = overviewSize(built);
      const { sx, sy } = minimapScale(size);
      const grid = overviewStore.getState().grid;
      if (!grid) return;
      const turn = nearestTurn(built, grid, (event.clientX - rect.left) / sx, (event.clientY - rect.top) / sy);
      if (turn >= 0) jump.current(turn);
    };
    element.addEventListener('click', onClick);
    return () => {
      cancelled = true;
      clearTimeout(start);
      if (scheduled !== 0) cancelAnimationFrame(scheduled);
      unsubscribeGraph();
      unsubscribeOverview();
      scheme?.removeEventListener?.('change', onScheme);
      element.removeEventListener('click', onClick);
    };
  }, [hidden, structure, store, overviewStore]);

  const toggle = (
    <button
      type="button"
      className="graph-minimap__toggle"
      data-testid="minimap-toggle"
      aria-pressed={!hidden}
      title={hidden ? 'Show the minimap' : 'Hide the minimap'}
      onClick={() => overviewStore.getState().setMinimapHidden(!hidden)}
    >
      {hidden ? 'Map' : '×'}
    </button>
  );
  return (
    // Crowded out (a narrow pane, or the selection under both corners): kept drawn but out of sight, so it comes back on its own.
    <div
      className={`graph-minimap is-${corner}${hidden ? ' is-hidden' : ''}`}
      data-testid="graph-minimap"
      data-corner={corner}
      data-hidden={hidden ? 'true' : corner === 'none' ? 'crowded' : 'false'}
    >
      {hidden ? null : <canvas ref={canvas} className="graph-minimap__canvas" style={{ width: MINIMAP_WIDTH }} aria-label="Minimap of the session's turns" role="img" />}
      {toggle}
    </div>
  );
});

export type MinimapCorner = 'right' | 'left' | 'none';

/** Below this pane width the minimap would take too much of it: it stays out of sight. */
export const MINIMAP_MIN_PANE_WIDTH = 520;
/** The zoom controls' column on the left: the minimap's left corner starts beside it. */
const CONTROLS_WIDTH = 56;

/**
 * Where the minimap goes: the corner (bottom right first) that covers neither the selection nor the cards
 * around it (a row above and below, a lane either side) where one does; else the corner that at least
 * leaves the selection free; else nowhere (the selection under both, or a pane too narrow to spare the room).
 */
export function minimapCorner(
  graph: Pick<ReturnType<GraphStore['getState']>, 'selectedNode' | 'byNode' | 'layout' | 'viewport' | 'width' | 'height'>,
  view: Pick<ReturnType<OverviewStore['getState']>, 'active' | 'camera'>,
  overview: NonNullable<ReturnType<OverviewStore['getState']>['overview']>,
  height: number = MINIMAP_HEIGHT,
): MinimapCorner {
  if (graph.width < MINIMAP_MIN_PANE_WIDTH) return 'none';
  const box = selectionBox(graph, view, overview);
  if (box === null) return 'right';
  const boxTop = graph.height - MARGIN - height - 8;
  const boxWidth = MINIMAP_WIDTH + 8 + 26; // the canvas, its padding and the toggle beside it
  const corners: readonly (readonly [MinimapCorner, number, number])[] = [
    ['right', graph.width - MARGIN - boxWidth, graph.width],
    ['left', CONTROLS_WIDTH, CONTROLS_WIDTH + boxWidth],
  ];
  const around = { left: box.left - box.lanePitch, right: box.right + box.lanePitch, top: box.top - box.rowPitch, bottom: box.bottom + box.rowPitch };
  for (const area of [around, box]) {
    const under = (left: number, right: number): boolean => area.right > left && area.left < right && area.bottom > boxTop && area.top < graph.height;
    for (const [corner, left, right] of corners) if (!under(left, right)) return corner;
  }
  return 'none';
}

/** The selected node's box on screen, as drawn now (its turn's card while the overview shows), or null. */
function selectionBox(
  graph: Pick<ReturnType<GraphStore['getState']>, 'selectedNode' | 'byNode' | 'layout' | 'viewport'>,
  view: Pick<ReturnType<OverviewStore['getState']>, 'active' | 'camera'>,
  overview: NonNullable<ReturnType<OverviewStore['getState']>['overview']>,
): { left: number; top: number; right: number; bottom: number; rowPitch: number; lanePitch: number } | null {
  if (graph.selectedNode < 0) return null;
  let left: number;
  let top: number;
  let right: number;
  let bottom: number;
  let rowPitch: number;
  let lanePitch: number;
  if (view.active) {
    const turn = overview.turnOf[graph.selectedNode]!;
    const { camera } = view;
    left = overview.layout.lane[turn]! * TURN_LANE_WIDTH * camera.zoom + camera.x;
    top = overview.layout.row[turn]! * TURN_ROW_HEIGHT * camera.zoom + camera.y;
    right = left + CARD_WIDTH * camera.zoom;
    bottom = top + CARD_HEIGHT * camera.zoom;
    rowPitch = TURN_ROW_HEIGHT * camera.zoom;
    lanePitch = TURN_LANE_WIDTH * camera.zoom;
  } else {
    const item = graph.byNode?.[graph.selectedNode] ?? -1;
    if (item < 0 || !graph.layout) return null;
    const { viewport } = graph;
    left = graph.layout.layout.lane[item]! * LANE_WIDTH * viewport.zoom + viewport.x;
    top = graph.layout.layout.row[item]! * ROW_HEIGHT * viewport.zoom + viewport.y;
    right = left + NODE_WIDTH * viewport.zoom;
    bottom = top + NODE_HEIGHT * viewport.zoom;
    rowPitch = ROW_HEIGHT * viewport.zoom;
    lanePitch = LANE_WIDTH * viewport.zoom;
  }
  return { left, top, right, bottom, rowPitch, lanePitch };
}
