/**
 * One frame of the turn overview on a 2D canvas: edges in one path, cards batched by kind, text at a
 * fixed pixel size. Only the turns in view are visited (the grid index); labels that would collide on
 * screen are left out, most important first (selection, branch heads, branch points, branch ends,
 * turns). Nothing here allocates per turn: the label list and occupancy grid are reused between frames.
 */
import { forEachTurnIn, TURN_BRANCH_POINT, TURN_HEAD, TURN_PLAIN, TURN_TIP, type TurnGrid, type TurnOverview } from '../../../../shared/graph/turn-overview';
import type { Viewport } from '../mount-items';
import { CARD_HEIGHT, CARD_TEXT_ZOOM, CARD_WIDTH, TURN_LANE_WIDTH, TURN_ROW_HEIGHT } from './overview-camera';

export interface OverviewColors {
  readonly card: string;
  readonly cardBorder: string;
  readonly text: string;
  readonly muted: string;
  readonly edge: string;
  readonly accent: string;
  readonly branch: string;
  readonly head: string;
  readonly tip: string;
  readonly error: string;
  readonly labelBackground: string;
  readonly font: string;
}

export function readOverviewColors(element: Element): OverviewColors {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  return {
    card: read('--arbor-kind-user-bg', '#e6eefc'),
    cardBorder: read('--arbor-kind-user', '#2f6fde'),
    text: read('--arbor-text', '#1b1f24'),
    muted: read('--arbor-text-muted', '#59636e'),
    edge: read('--arbor-text-faint', '#7d8691'),
    accent: read('--arbor-accent', '#2f6fde'),
    branch: read('--arbor-warning', '#9a6200'),
    head: read('--arbor-kind-thinking', '#7a5ab8'),
    tip: read('--arbor-text-faint', '#7d8691'),
    error: read('--arbor-danger', '#c6282d'),
    labelBackground: read('--arbor-surface', '#ffffff'),
    font: read('--arbor-font', 'system-ui, sans-serif'),
  };
}

/** A label drawn this frame (also what the hidden list tells screen readers and tests). */
export interface OverviewLabel {
  turn: number;
  mark: number;
}

/** What one frame needs; the mutable parts are reused between frames. */
export interface OverviewFrame {
  readonly overview: TurnOverview;
  readonly grid: TurnGrid;
  /** The prompt's text per turn (cut short), and the name a branch head is shown with. */
  readonly title: (turn: number) => string;
  readonly headName: (turn: number) => string;
  camera: Viewport;
  width: number;
  height: number;
  selectedTurn: number;
  colors: OverviewColors;
  /** Output: the labels drawn, `labelCount` of them. */
  readonly labels: OverviewLabel[];
  labelCount: number;
  /** Scratch: the turns in view by mark, and the screen's label occupancy (8 px cells). */
  visible: Int32Array;
  occupancy: Uint8Array;
}

const CELL = 8;
const LABEL_FONT_PX = 11;
const CARD_FONT_PX = 12;
/** Rough width of a character of the label font (measureText per label per frame costs more than it saves). */
const CHAR_PX = 6.4;

export function createFrame(overview: TurnOverview, grid: TurnGrid, title: (turn: number) => string, headName: (turn: number) => string, colors: OverviewColors): OverviewFrame {
  return {
    overview, grid, title, headName, colors,
    camera: { x: 0, y: 0, zoom: 1 }, width: 0, height: 0, selectedTurn: -1,
    labels: [], labelCount: 0,
    visible: new Int32Array(Math.min(overview.count, 4096)), occupancy: new Uint8Array(0),
  };
}

export function markName(mark: number): 'turn' | 'branch-point' | 'branch-end' | 'branch-head' {
  return mark === TURN_HEAD ? 'branch-head' : mark === TURN_BRANCH_POINT ? 'branch-point' : mark === TURN_TIP ? 'branch-end' : 'turn';
}

/** The short text beside a card at low zoom. */
export function labelText(frame: OverviewFrame, turn: number): string {
  const { overview } = frame;
  const mark = overview.mark[turn]!;
  const number = `#${turn + 1}`;
  if (mark === TURN_HEAD) return `${frame.headName(turn)} ${number}`;
  if (mark === TURN_BRANCH_POINT) return `${number} branches into ${overview.branches[turn]}`;
  if (mark === TURN_TIP) return `branch end ${number}`;
  return `${number} ${frame.title(turn)}`;
}

export function statsText(overview: TurnOverview, turn: number): string {
  const errors = overview.errors[turn]!;
  return `${overview.steps[turn]} steps · ${overview.tools[turn]} tools` + (errors > 0 ? ` · ${errors} error${errors === 1 ? '' : 's'}` : '');
}

/** A card this tall (on screen) holds a side label on two lines. */
const TWO_LINES_PX = 24;

/** `text` on two lines of `pixels`, broken at a space where one is near, the second ellipsized. */
export function twoLines(text: string, pixels: number, charPx = CHAR_PX): readonly [string, string] {
  const chars = Math.floor(pixels / charPx);
  if (text.length <= chars) return [text, ''];
  const space = text.lastIndexOf(' ', chars);
  const breakAt = space > chars / 2 ? space : chars;
  return [text.slice(0, breakAt), cut(text.slice(breakAt).trimStart(), pixels, charPx)];
}

function cut(text: string, pixels: number, charPx = CHAR_PX): string {
  const chars = Math.floor(pixels / charPx);
  if (chars <= 1) return '';
  return text.length <= chars ? text : text.slice(0, chars - 1) + '…';
}

export function drawOverview(ctx: CanvasRenderingContext2D, frame: OverviewFrame, dpr: number): void {
  const { overview, grid, camera, width, height, colors } = frame;
  const { lane, row } = overview.layout;
  const zoom = camera.zoom;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);

  // Turns in view, one row and one lane of margin so edges into the view are drawn too.
  const laneMin = (-camera.x / zoom - CARD_WIDTH) / TURN_LANE_WIDTH - 1;
  const laneMax = (width - camera.x) / zoom / TURN_LANE_WIDTH;
  const rowMin = (-camera.y / zoom - CARD_HEIGHT) / TURN_ROW_HEIGHT - 1;
  const rowMax = (height - camera.y) / zoom / TURN_ROW_HEIGHT + 1;
  let count = 0;
  if (frame.visible.length < overview.count && (laneMax - laneMin) * (rowMax - rowMin) > frame.visible.length) frame.visible = new Int32Array(overview.count);
  const visible = frame.visible;
  forEachTurnIn(grid, overview, laneMin, laneMax, rowMin, rowMax, (t) => {
    if (count < visible.length) visible[count++] = t;
  });

  const sx = (t: number): number => lane[t]! * TURN_LANE_WIDTH * zoom + camera.x;
  const sy = (t: number): number => row[t]! * TURN_ROW_HEIGHT * zoom + camera.y;
  const cardW = CARD_WIDTH * zoom;
  const cardH = Math.max(1, CARD_HEIGHT * zoom);

  // Edges: parent's bottom to child's top, an elbow across lanes.
  ctx.beginPath();
  for (let k = 0; k < count; k++) {
    const t = visible[k]!;
    const p = overview.forest.parent[t]!;
    if (p < 0) continue;
    const x0 = sx(p) + Math.min(cardW / 2, 12 * zoom);
    const y0 = sy(p) + cardH;
    const x1 = sx(t) + Math.min(cardW / 2, 12 * zoom);
    const y1 = sy(t);
    ctx.moveTo(x0, y0);
    if (x0 !== x1) {
      const mid = (y0 + y1) / 2;
      ctx.lineTo(x0, mid);
      ctx.lineTo(x1, mid);
    }
    ctx.lineTo(x1, y1);
  }
  ctx.strokeStyle = colors.edge;
  ctx.lineWidth = 1.25;
  ctx.stroke();

  // Cards by kind, one path each.
  const pass = (wanted: number, fill: string, stroke: string, lineWidth: number): void => {
    ctx.beginPath();
    let any = false;
    for (let k = 0; k < count; k++) {
      const t = visible[k]!;
      if (overview.mark[t] !== wanted) continue;
      ctx.rect(sx(t), sy(t), cardW, cardH);
      any = true;
    }
    if (!any) return;
    ctx.fillStyle = fill;
    ctx.fill();
    if (cardH >= 4) {
      ctx.strokeStyle = stroke;
      ctx.lineWidth = lineWidth;
      ctx.stroke();
    }
  };
  pass(TURN_PLAIN, colors.card, colors.cardBorder, 1);
  pass(TURN_TIP, colors.card, colors.tip, 1);
  pass(TURN_BRANCH_POINT, colors.card, colors.branch, 2);
  pass(TURN_HEAD, colors.card, colors.head, 2);

  // A stripe down the left of each card: the turn's kind at a glance, errors in red.
  const stripe = Math.max(2, Math.min(5, cardW * 0.04));
  const stripes = (pick: (t: number) => boolean, color: string): void => {
    ctx.beginPath();
    for (let k = 0; k < count; k++) {
      const t = visible[k]!;
      if (pick(t)) ctx.rect(sx(t), sy(t), stripe, cardH);
    }
    ctx.fillStyle = color;
    ctx.fill();
  };
  stripes((t) => overview.errors[t]! > 0, colors.error);
  stripes((t) => overview.errors[t] === 0 && overview.mark[t] === TURN_BRANCH_POINT, colors.branch);
  stripes((t) => overview.errors[t] === 0 && overview.mark[t] === TURN_HEAD, colors.head);

  if (frame.selectedTurn >= 0 && frame.selectedTurn < overview.count) {
    const t = frame.selectedTurn;
    ctx.strokeStyle = colors.accent;
    ctx.lineWidth = 3;
    ctx.strokeRect(sx(t) - 2, sy(t) - 2, cardW + 4, cardH + 4);
  }

  frame.labelCount = 0;
  if (zoom >= CARD_TEXT_ZOOM) drawCardText(ctx, frame, count, sx, sy, cardW);
  else drawSideLabels(ctx, frame, count, sx, sy, cardW, cardH, stripe);
}

function pushLabel(frame: OverviewFrame, turn: number): void {
  const slot = frame.labels[frame.labelCount];
  if (slot) {
    slot.turn = turn;
    slot.mark = frame.overview.mark[turn]!;
  } else frame.labels.push({ turn, mark: frame.overview.mark[turn]! });
  frame.labelCount++;
}

function drawCardText(ctx: CanvasRenderingContext2D, frame: OverviewFrame, count: number, sx: (t: number) => number, sy: (t: number) => number, cardW: number): void {
  const { overview, colors, visible } = frame;
  const zoom = frame.camera.zoom;
  const inner = cardW - 16;
  ctx.textBaseline = 'middle';
  // A handful of cards are in view at this zoom: measure the real width of the bold title font once a frame.
  ctx.font = `600 ${CARD_FONT_PX}px ${colors.font}`;
  const titlePx = ctx.measureText('abcdefghijklmnopqrstuvwxyz #0123456789').width / 38;
  for (let k = 0; k < count; k++) {
    const t = visible[k]!;
    const x = sx(t) + 10;
    const y = sy(t);
    const mark = overview.mark[t]!;
    const badge = mark === TURN_PLAIN ? '' : mark === TURN_HEAD ? frame.headName(t) : mark === TURN_BRANCH_POINT ? `branches into ${overview.branches[t]}` : 'branch end';
    // The title has the card's whole first line: the badge sits on the stats line (short), right-aligned, so
    // "branches into N" never takes the width the title needs.
    ctx.font = `600 ${CARD_FONT_PX}px ${colors.font}`;
    ctx.fillStyle = colors.text;
    ctx.fillText(cut(`#${t + 1} ${frame.title(t)}`, inner, titlePx * 1.05), x, y + 14 * zoom);
    ctx.font = `600 ${LABEL_FONT_PX}px ${colors.font}`;
    let badgeWidth = 0;
    if (badge !== '') {
      badgeWidth = ctx.measureText(badge).width + 10;
      ctx.fillStyle = mark === TURN_HEAD ? colors.head : mark === TURN_BRANCH_POINT ? colors.branch : colors.tip;
      ctx.textAlign = 'right';
      ctx.fillText(badge, x + inner, y + 31 * zoom);
      ctx.textAlign = 'left';
    }
    ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
    ctx.fillStyle = overview.errors[t]! > 0 ? colors.error : colors.muted;
    ctx.fillText(cut(statsText(overview, t), inner - badgeWidth), x, y + 31 * zoom);
    pushLabel(frame, t);
  }
}

/** Labels beside the cards at a fixed size, placed most important first where the screen is free. */
function drawSideLabels(ctx: CanvasRenderingContext2D, frame: OverviewFrame, count: number, sx: (t: number) => number, sy: (t: number) => number, cardW: number, cardH: number, stripe: number): void {
  const { overview, colors, visible, width, height } = frame;
  const columns = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  if (frame.occupancy.length !== columns * rows) frame.occupancy = new Uint8Array(columns * rows);
  const occupancy = frame.occupancy;
  occupancy.fill(0);
  ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const free = (x: number, y: number, w: number): boolean => {
    const c0 = Math.max(0, Math.floor(x / CELL));
    const c1 = Math.min(columns - 1, Math.floor((x + w) / CELL));
    const r0 = Math.max(0, Math.floor(y / CELL));
    const r1 = Math.min(rows - 1, Math.floor((y + 16) / CELL));
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (occupancy[r * columns + c] === 1) return false;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) occupancy[r * columns + c] = 1;
    return true;
  };
  const place = (t: number): void => {
    const text = labelText(frame, t);
    let labelW = Math.min(text.length, 34) * CHAR_PX + 8;
    // Inside the card when it is tall enough to hold the text (the card reads as the label's start).
    const inside = cardH >= 14;
    const x = inside ? sx(t) + stripe + 3 : sx(t) + cardW + 4;
    const y = sy(t) + cardH / 2 - 8;
    if (x > width || y > height || x + labelW < 0 || y + 16 < 0) return;
    let lines: readonly [string, string] | null = null;
    if (!free(x, y, labelW)) {
      // Crowded by the next lane's card or label: the card's own width holds the text, on two lines when
      // the card is tall enough (a title beside a "branch end" label lost most of its words on one).
      labelW = cardW - stripe - 6;
      if (!inside || labelW < 40 || !free(x, y, labelW)) return;
      if (cardH >= TWO_LINES_PX) lines = twoLines(text, labelW - 8);
    }
    const mark = overview.mark[t]!;
    ctx.fillStyle = inside ? colors.card : colors.labelBackground;
    ctx.globalAlpha = inside ? 1 : 0.88;
    const top = lines === null ? y : sy(t) + (cardH - TWO_LINES_PX) / 2;
    ctx.fillRect(x, Math.max(top, sy(t) + 1), labelW, Math.min(lines === null ? 16 : TWO_LINES_PX, cardH - 2));
    ctx.globalAlpha = 1;
    const overflow = x + labelW - (sx(t) + cardW);
    if (inside && overflow > 0) {
      // A label longer than its card used to spill past the card's border, a box with text leaking out of it:
      // the card is drawn widened to the label (the space was free: `free` claimed it), so it reads as one card.
      ctx.fillStyle = colors.card;
      ctx.fillRect(sx(t) + cardW - 1, sy(t) + 1, overflow + 1, cardH - 2);
      ctx.strokeStyle = colors.cardBorder;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(sx(t) + cardW, sy(t) + 0.5);
      ctx.lineTo(x + labelW + 0.5, sy(t) + 0.5);
      ctx.lineTo(x + labelW + 0.5, sy(t) + cardH - 0.5);
      ctx.lineTo(sx(t) + cardW, sy(t) + cardH - 0.5);
      ctx.stroke();
    }
    ctx.fillStyle = mark === TURN_HEAD ? colors.head : mark === TURN_BRANCH_POINT ? colors.branch : mark === TURN_TIP ? colors.muted : colors.text;
    if (lines === null) ctx.fillText(cut(text, labelW - 8), x + 4, y + 8);
    else {
      // Two 11 px lines 10 px apart touched each other in a 24 px card: one size smaller, 12 px apart.
      ctx.font = `${LABEL_FONT_PX - 1}px ${colors.font}`;
      ctx.fillText(lines[0], x + 4, top + TWO_LINES_PX / 2 - 6);
      ctx.fillText(lines[1], x + 4, top + TWO_LINES_PX / 2 + 6);
      ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
    }
    pushLabel(frame, t);
  };
  if (frame.selectedTurn >= 0) for (let k = 0; k < count; k++) if (visible[k] === frame.selectedTurn) place(frame.selectedTurn);
  for (const wanted of [TURN_HEAD, TURN_BRANCH_POINT, TURN_TIP, TURN_PLAIN]) {
    for (let k = 0; k < count; k++) {
      const t = visible[k]!;
      if (overview.mark[t] === wanted && t !== frame.selectedTurn) place(t);
    }
  }
}
