/**
 * Where the overview's camera goes: the turn overview's own coordinates (one row per turn), the fit a
 * user reads, and the hand-over to and from the step graph so zooming across feels like one camera.
 */
import { itemShowingNode } from '../../../../shared/graph/folds';
import type { SessionLayout } from '../../../../shared/graph/session-layout';
import type { SessionStructure } from '../../../../shared/graph/session-structure';
import { forEachTurnIn, type TurnGrid, type TurnOverview } from '../../../../shared/graph/turn-overview';
import type { RowIndex } from '../../../../shared/graph/viewport';
import { DETAIL_ZOOM, LANE_WIDTH, NODE_HEIGHT, NODE_WIDTH, ROW_HEIGHT, type Viewport } from '../mount-items';

export const TURN_LANE_WIDTH = 270;
export const TURN_ROW_HEIGHT = 56;
export const CARD_WIDTH = 240;
export const CARD_HEIGHT = 44;
const PADDING = 32;

/** Below this overview zoom a card is too small for its own text: labels go beside it, decluttered. */
export const CARD_TEXT_ZOOM = 0.7;
/** "Fit" never goes below this: a row per turn stays ~17 px, each labelled turn still reads. */
export const READABLE_OVERVIEW_ZOOM = 0.3;
/**
 * Where Fit cannot show the whole session (it is scrolled through anyway), it goes no further out than this: a card
 * beside a card in the next lane (a branch's first turn beside the line it left) keeps ~17 characters of its label.
 * At READABLE_OVERVIEW_ZOOM such a card is 72 px and kept 4 ("#3 Actu…").
 */
export const SIDE_BY_SIDE_ZOOM = 0.55;
export const MIN_OVERVIEW_ZOOM = 0.02;
/** Zooming in past this opens the turn under the pointer into its steps. */
export const OPEN_STEPS_ZOOM = 1.6;
/** The step graph's zoom when a turn opens: labels drawn, a whole turn or two in view. */
export const STEPS_ENTRY_ZOOM = 0.6;
/**
 * Zooming the step graph out below this, on a session the overview serves, hands over to the overview:
 * below it steps draw as unlabelled pills, and a turn card says more.
 */
export const OVERVIEW_ENTRY_STEP_ZOOM = DETAIL_ZOOM;
/** The overview's zoom when the step graph hands over. */
export const OVERVIEW_ENTRY_ZOOM = 1;
/**
 * A session whose step graph would fit only below this zoom gets the overview: below it steps draw as
 * unlabelled pills (the demo's 90 nodes fitted were unreadable tiny cards), and a turn card still says
 * what each turn did. "Fit" means "show me the whole session, readable".
 */
export const OVERVIEW_FIT_THRESHOLD = DETAIL_ZOOM;

export function turnLeft(overview: TurnOverview, turn: number): number {
  return overview.layout.lane[turn]! * TURN_LANE_WIDTH;
}

export function turnTop(overview: TurnOverview, turn: number): number {
  return overview.layout.row[turn]! * TURN_ROW_HEIGHT;
}

export function overviewSize(overview: TurnOverview): { width: number; height: number } {
  return {
    width: Math.max(CARD_WIDTH, overview.layout.lanes * TURN_LANE_WIDTH - (TURN_LANE_WIDTH - CARD_WIDTH)),
    height: Math.max(CARD_HEIGHT, overview.layout.rows * TURN_ROW_HEIGHT - (TURN_ROW_HEIGHT - CARD_HEIGHT)),
  };
}

/**
 * "Fit" on the overview: the whole overview when it reads at READABLE_OVERVIEW_ZOOM or closer; else the
 * full width, but no further out than SIDE_BY_SIDE_ZOOM (cards beside each other read), from the top (where the
 * session begins), or around the selected turn when there is one, so Fit never throws away where the user is.
 */
export function fitOverview(overview: TurnOverview, width: number, height: number, selectedTurn = -1): Viewport {
  const size = overviewSize(overview);
  const whole = Math.min((width - 2 * PADDING) / size.width, (height - 2 * PADDING) / size.height, 1);
  if (whole >= READABLE_OVERVIEW_ZOOM) {
    return { x: (width - size.width * whole) / 2, y: (height - size.height * whole) / 2, zoom: whole };
  }
  const zoom = Math.max(SIDE_BY_SIDE_ZOOM, Math.min(1, (width - 2 * PADDING) / size.width));
  const x = size.width * zoom <= width - 2 * PADDING ? (width - size.width * zoom) / 2 : PADDING;
  if (selectedTurn < 0) return { x, y: PADDING, zoom };
  const centre = turnTop(overview, selectedTurn) + CARD_HEIGHT / 2;
  return { x, y: Math.min(PADDING, height / 2 - centre * zoom), zoom };
}

/** The turn whose card is under a screen point, or -1. */
export function turnAtPoint(overview: TurnOverview, camera: Viewport, screenX: number, screenY: number): number {
  const worldX = (screenX - camera.x) / camera.zoom;
  const worldY = (screenY - camera.y) / camera.zoom;
  const row = Math.floor(worldY / TURN_ROW_HEIGHT);
  const lane = Math.floor(worldX / TURN_LANE_WIDTH);
  if (row < 0 || lane < 0 || worldY - row * TURN_ROW_HEIGHT > CARD_HEIGHT || worldX - lane * TURN_LANE_WIDTH > CARD_WIDTH) return -1;
  // A scan, made on a click or a zoom step only, never per frame.
  for (let t = 0; t < overview.count; t++) if (overview.layout.row[t] === row && overview.layout.lane[t] === lane) return t;
  return -1;
}

/** The step graph's camera that puts a turn's first item where the turn's card was on screen. */
export function stepsViewportForTurn(
  structure: SessionStructure,
  layout: SessionLayout,
  byNode: Int32Array,
  overview: TurnOverview,
  turn: number,
  screenX: number,
  screenY: number,
  zoom = STEPS_ENTRY_ZOOM,
): { viewport: Viewport; item: number } {
  const item = itemShowingNode(structure, layout.visible, byNode, overview.start[turn]!);
  const left = (item < 0 ? 0 : layout.layout.lane[item]!) * LANE_WIDTH;
  const top = (item < 0 ? 0 : layout.layout.row[item]!) * ROW_HEIGHT;
  return { viewport: { x: screenX - (left + NODE_WIDTH / 2) * zoom, y: screenY - (top + NODE_HEIGHT / 2) * zoom, zoom }, item };
}

/** The turn drawn nearest a point of the step graph's screen (the one the user was looking at). */
export function turnAtStepPoint(structure: SessionStructure, layout: SessionLayout, rows: RowIndex, overview: TurnOverview, viewport: Viewport, screenX: number, screenY: number): number {
  const lanes = layout.layout;
  const worldX = (screenX - viewport.x) / viewport.zoom;
  const worldY = (screenY - viewport.y) / viewport.zoom;
  const wantRow = Math.min(lanes.rows - 1, Math.max(0, Math.round(worldY / ROW_HEIGHT)));
  const wantLane = worldX / LANE_WIDTH;
  // The nearest row that holds any item, then the item in it closest across.
  for (let spread = 0; spread < lanes.rows; spread++) {
    for (const row of [wantRow - spread, wantRow + spread]) {
      if (row < 0 || row >= lanes.rows) continue;
      let best = -1;
      for (let k = rows.rowStart[row]!; k < rows.rowStart[row + 1]!; k++) {
        const item = rows.items[k]!;
        if (best < 0 || Math.abs(lanes.lane[item]! - wantLane) < Math.abs(lanes.lane[best]! - wantLane)) best = item;
      }
      if (best >= 0) return overview.turnOf[layout.visible.node[best]!] ?? 0;
    }
  }
  return 0;
}

/** The overview camera that puts `turn` at a screen point. */
export function overviewViewportAt(overview: TurnOverview, turn: number, screenX: number, screenY: number, zoom = OVERVIEW_ENTRY_ZOOM): Viewport {
  return {
    x: screenX - (turnLeft(overview, turn) + CARD_WIDTH / 2) * zoom,
    y: screenY - (turnTop(overview, turn) + CARD_HEIGHT / 2) * zoom,
    zoom,
  };
}

/** Zoom about a screen point, clamped. */
export function zoomAbout(camera: Viewport, factor: number, screenX: number, screenY: number): Viewport {
  const zoom = Math.min(OPEN_STEPS_ZOOM * 1.01, Math.max(MIN_OVERVIEW_ZOOM, camera.zoom * factor));
  const k = zoom / camera.zoom;
  return { x: screenX - (screenX - camera.x) * k, y: screenY - (screenY - camera.y) * k, zoom };
}

/** The turn nearest a point of the overview's world (a zoom that opens steps lands on something). */
export function nearestTurn(overview: TurnOverview, grid: TurnGrid, worldX: number, worldY: number): number {
  const lane = worldX / TURN_LANE_WIDTH;
  const row = worldY / TURN_ROW_HEIGHT;
  for (let reach = 2; reach < 4 * (overview.layout.rows + overview.layout.lanes) + 4; reach *= 2) {
    let best = -1;
    let bestDistance = Infinity;
    forEachTurnIn(grid, overview, lane - reach, lane + reach, row - reach, row + reach, (t) => {
      const dx = (overview.layout.lane[t]! + 0.4 - lane) * TURN_LANE_WIDTH;
      const dy = (overview.layout.row[t]! + 0.4 - row) * TURN_ROW_HEIGHT;
      const distance = dx * dx + dy * dy;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = t;
      }
    });
    if (best >= 0) return best;
  }
  return overview.count > 0 ? 0 : -1;
}
