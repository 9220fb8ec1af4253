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
  /** The text as drawn: whole, or its start with an ellipsis, measured to the room it had. */
  drawn: string;
  /** Where the text starts (its left end, vertically its middle), in the canvas's CSS pixels. */
  x: number;
  y: number;
  /** In its card (widened to it where the row had room), or beside the card on a background of its own. */
  inside: boolean;
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
  /** Scratch: the turns in view, each card's drawn width (by the same index), and the screen's occupancy. */
  visible: Int32Array;
  widths: Float32Array;
  /** CELL px cells: 0 free, else the turn that holds it + 1, or SHARED when two turns' things touch it. */
  occupancy: Int32Array;
  readonly meter: TextMeter;
}

/** Fine enough that an edge passing 2 px under a card does not count as in the card's row (it did at 4 px). */
const CELL = 2;
const SHARED = -1;
const LABEL_FONT_PX = 11;
const CARD_FONT_PX = 12;
/** A card this tall (on screen) holds its label's one line of LABEL_FONT_PX text. */
const INSIDE_LABEL_PX = 13;
/** Space between a card's text and its right border, and between a label and what it must not touch. */
const PAD = 6;
/** A card is widened to its label up to this width, where its row has room (the next lane's card is not there). */
const WIDE_CARD_PX = 260;
const SIDE_LABEL_PX = 240;
const MIN_SIDE_LABEL_PX = 40;
const BADGE_GAP = 10;
const METER_ENTRIES = 8192;

/**
 * Text widths measured with the canvas (the font's own advances), cached by font and text. A per-character
 * estimate cut labels that would have fit ("34 steps · 8 tool…" beside "branches into 2") and let others run
 * out of their card; measuring each label once and each cut once costs a few µs per label in view.
 */
export class TextMeter {
  private readonly widths = new Map<string, number>();
  private readonly cuts = new Map<string, string>();

  width(ctx: CanvasRenderingContext2D, text: string): number {
    const key = `${ctx.font}\n${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      if (this.widths.size >= METER_ENTRIES) this.widths.clear();
      width = ctx.measureText(text).width;
      this.widths.set(key, width);
    }
    return width;
  }

  /** `text` whole when it fits in `pixels`, else its longest start that fits with an ellipsis ('' when none does). */
  fit(ctx: CanvasRenderingContext2D, text: string, pixels: number): string {
    // Not floored: a card widened to exactly its label's width lost the label's last letters to the rounding.
    const room = pixels + 0.01;
    if (this.width(ctx, text) <= room) return text;
    const key = `${ctx.font}\n${Math.round(pixels * 4)}\n${text}`;
    let cut = this.cuts.get(key);
    if (cut === undefined) {
      let fits = 0;
      let over = text.length;
      while (over - fits > 1) {
        const mid = (fits + over) >> 1;
        if (ctx.measureText(text.slice(0, mid).trimEnd() + '…').width <= room) fits = mid;
        else over = mid;
      }
      cut = fits === 0 ? '' : text.slice(0, fits).trimEnd() + '…';
      if (this.cuts.size >= METER_ENTRIES) this.cuts.clear();
      this.cuts.set(key, cut);
    }
    return cut;
  }
}

export function createFrame(overview: TurnOverview, grid: TurnGrid, title: (turn: number) => string, headName: (turn: number) => string, colors: OverviewColors): OverviewFrame {
  const visible = Math.min(overview.count, 4096);
  return {
    overview, grid, title, headName, colors,
    camera: { x: 0, y: 0, zoom: 1 }, width: 0, height: 0, selectedTurn: -1,
    labels: [], labelCount: 0,
    visible: new Int32Array(visible), widths: new Float32Array(visible), occupancy: new Int32Array(0), meter: new TextMeter(),
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

/** An edge's ends on screen: the parent's bottom to the child's top, an elbow at `mid` across lanes. */
interface EdgeEnds {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  mid: number;
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
  const stripe = Math.max(2, Math.min(5, cardW * 0.04));
  const ends: EdgeEnds = { x0: 0, y0: 0, x1: 0, y1: 0, mid: 0 };
  const edge = (t: number): boolean => {
    const p = overview.forest.parent[t]!;
    if (p < 0) return false;
    ends.x0 = sx(p) + Math.min(cardW / 2, 12 * zoom);
    ends.y0 = sy(p) + cardH;
    ends.x1 = sx(t) + Math.min(cardW / 2, 12 * zoom);
    ends.y1 = sy(t);
    ends.mid = (ends.y0 + ends.y1) / 2;
    return true;
  };

  if (frame.widths.length < visible.length) frame.widths = new Float32Array(visible.length);
  const widths = frame.widths;
  widths.fill(cardW, 0, count);
  frame.labelCount = 0;
  const cardText = zoom >= CARD_TEXT_ZOOM;
  // Labels are placed before anything is drawn: a card widened to its label is then drawn once, at its width.
  if (!cardText) placeSideLabels(ctx, frame, count, sx, sy, cardW, cardH, stripe, edge, ends);

  ctx.beginPath();
  for (let k = 0; k < count; k++) {
    if (!edge(visible[k]!)) continue;
    ctx.moveTo(ends.x0, ends.y0);
    if (ends.x0 !== ends.x1) {
      ctx.lineTo(ends.x0, ends.mid);
      ctx.lineTo(ends.x1, ends.mid);
    }
    ctx.lineTo(ends.x1, ends.y1);
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
      ctx.rect(sx(t), sy(t), widths[k]!, cardH);
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
    let selectedW = cardW;
    for (let k = 0; k < count; k++) if (visible[k] === t) selectedW = widths[k]!;
    ctx.strokeStyle = colors.accent;
    ctx.lineWidth = 3;
    ctx.strokeRect(sx(t) - 2, sy(t) - 2, selectedW + 4, cardH + 4);
  }

  if (cardText) drawCardText(ctx, frame, count, sx, sy, cardW);
  else drawSideLabels(ctx, frame);
}

function pushLabel(frame: OverviewFrame, turn: number, drawn: string, x: number, y: number, inside: boolean): void {
  const mark = frame.overview.mark[turn]!;
  const slot = frame.labels[frame.labelCount];
  if (slot) {
    slot.turn = turn;
    slot.mark = mark;
    slot.drawn = drawn;
    slot.x = x;
    slot.y = y;
    slot.inside = inside;
  } else frame.labels.push({ turn, mark, drawn, x, y, inside });
  frame.labelCount++;
}

function badgeColor(colors: OverviewColors, mark: number): string {
  return mark === TURN_HEAD ? colors.head : mark === TURN_BRANCH_POINT ? colors.branch : colors.tip;
}

function drawCardText(ctx: CanvasRenderingContext2D, frame: OverviewFrame, count: number, sx: (t: number) => number, sy: (t: number) => number, cardW: number): void {
  const { overview, colors, visible, meter } = frame;
  const zoom = frame.camera.zoom;
  const inner = cardW - 10 - PAD;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
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
    const title = meter.fit(ctx, `#${t + 1} ${frame.title(t)}`, inner);
    ctx.fillText(title, x, y + 14 * zoom);
    let statsRoom = inner;
    if (badge !== '') {
      ctx.font = `600 ${LABEL_FONT_PX}px ${colors.font}`;
      const shown = meter.fit(ctx, badge, inner);
      statsRoom = inner - meter.width(ctx, shown) - BADGE_GAP;
      ctx.fillStyle = badgeColor(colors, mark);
      ctx.textAlign = 'right';
      ctx.fillText(shown, x + inner, y + 31 * zoom);
      ctx.textAlign = 'left';
    }
    ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
    ctx.fillStyle = overview.errors[t]! > 0 ? colors.error : colors.muted;
    const stats = meter.fit(ctx, statsText(overview, t), statsRoom);
    if (stats !== '') ctx.fillText(stats, x, y + 31 * zoom);
    pushLabel(frame, t, title, x, y + 14 * zoom, true);
  }
}

/**
 * Where each label goes at low zoom, most important first: in its card when the card is tall enough, the
 * card widened to the whole label where its row has room, else the label cut (measured) to the card; beside
 * the card, where the screen is free, when the card is too small for text. A label never covers another
 * card, an edge or another label: every card and edge in view is claimed first, each label claims its own.
 */
function placeSideLabels(
  ctx: CanvasRenderingContext2D,
  frame: OverviewFrame,
  count: number,
  sx: (t: number) => number,
  sy: (t: number) => number,
  cardW: number,
  cardH: number,
  stripe: number,
  edge: (t: number) => boolean,
  ends: EdgeEnds,
): void {
  const { overview, colors, visible, width, height, widths, meter } = frame;
  const columns = Math.max(1, Math.ceil(width / CELL));
  const rows = Math.max(1, Math.ceil(height / CELL));
  if (frame.occupancy.length !== columns * rows) frame.occupancy = new Int32Array(columns * rows);
  const occupancy = frame.occupancy;
  occupancy.fill(0);
  const claim = (x0: number, y0: number, x1: number, y1: number, owner: number): void => {
    if (x1 < 0 || y1 < 0 || x0 >= width || y0 >= height) return;
    const c0 = Math.max(0, Math.floor(x0 / CELL));
    const c1 = Math.min(columns - 1, Math.floor(x1 / CELL));
    const r0 = Math.max(0, Math.floor(y0 / CELL));
    const r1 = Math.min(rows - 1, Math.floor(y1 / CELL));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = occupancy[r * columns + c]!;
        occupancy[r * columns + c] = cell === 0 || cell === owner + 1 ? owner + 1 : SHARED;
      }
    }
  };
  /** How far right of `x` (up to `wanted`) the band y0..y1 is free of what is not the owner's, less PAD. */
  const roomRight = (x: number, y0: number, y1: number, wanted: number, owner: number): number => {
    const r0 = Math.max(0, Math.floor(y0 / CELL));
    const r1 = Math.min(rows - 1, Math.floor(y1 / CELL));
    const c0 = Math.max(0, Math.floor(x / CELL));
    const c1 = Math.min(columns - 1, Math.floor((x + wanted + PAD) / CELL));
    for (let c = c0; c <= c1; c++) {
      for (let r = r0; r <= r1; r++) {
        const cell = occupancy[r * columns + c]!;
        if (cell !== 0 && cell !== owner + 1) return Math.max(0, Math.min(wanted, c * CELL - x - PAD));
      }
    }
    return wanted;
  };
  for (let k = 0; k < count; k++) {
    const t = visible[k]!;
    claim(sx(t), sy(t), sx(t) + cardW, sy(t) + cardH, t);
    if (!edge(t)) continue;
    claim(ends.x0 - 1, ends.y0, ends.x0 + 1, ends.mid, t);
    claim(Math.min(ends.x0, ends.x1), ends.mid - 0.75, Math.max(ends.x0, ends.x1), ends.mid + 0.75, t);
    claim(ends.x1 - 1, ends.mid, ends.x1 + 1, ends.y1, t);
  }

  ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
  const inside = cardH >= INSIDE_LABEL_PX;
  const place = (k: number): void => {
    const t = visible[k]!;
    const x = sx(t);
    const y = sy(t);
    if (x >= width || y >= height || y + Math.max(cardH, 16) <= 0) return;
    const text = labelText(frame, t);
    const textWidth = meter.width(ctx, text);
    if (inside) {
      const textX = x + stripe + 4;
      const needed = textX - x + textWidth + PAD;
      if (needed > cardW) {
        // Not past the canvas's edge either: there the text would be cut by the edge, without its ellipsis.
        const wanted = Math.min(needed, Math.max(cardW, WIDE_CARD_PX), width - PAD - x) - cardW;
        const room = wanted <= 0 ? 0 : roomRight(x + cardW, y + 1.5, y + cardH - 1.5, wanted, t);
        if (room > 0 && room >= Math.min(wanted, 12)) {
          widths[k] = cardW + room;
          claim(x + cardW, y, x + cardW + room, y + cardH, t);
        }
      }
      const drawn = meter.fit(ctx, text, x + widths[k]! - PAD - textX);
      if (drawn !== '') pushLabel(frame, t, drawn, textX, y + cardH / 2, true);
      return;
    }
    // Beside a card too small for text, on a background of its own, where nothing else is.
    const labelX = x + cardW + 4;
    const labelY = y + cardH / 2 - 8;
    if (labelX >= width || labelY >= height || labelY + 16 <= 0) return;
    const wanted = Math.min(textWidth + 8, SIDE_LABEL_PX, width - PAD - labelX);
    const room = wanted <= 0 ? 0 : roomRight(labelX, labelY, labelY + 16, wanted, t);
    if (room < Math.min(wanted, MIN_SIDE_LABEL_PX)) return;
    const drawn = meter.fit(ctx, text, room - 8);
    if (drawn === '') return;
    claim(labelX, labelY, labelX + meter.width(ctx, drawn) + 8, labelY + 16, t);
    pushLabel(frame, t, drawn, labelX + 4, labelY + 8, false);
  };
  if (frame.selectedTurn >= 0) for (let k = 0; k < count; k++) if (visible[k] === frame.selectedTurn) place(k);
  for (const wanted of [TURN_HEAD, TURN_BRANCH_POINT, TURN_TIP, TURN_PLAIN]) {
    for (let k = 0; k < count; k++) {
      const t = visible[k]!;
      if (overview.mark[t] === wanted && t !== frame.selectedTurn) place(k);
    }
  }
}

/** The labels placed for this frame, drawn over the cards (a widened card was drawn at its label's width). */
function drawSideLabels(ctx: CanvasRenderingContext2D, frame: OverviewFrame): void {
  const { colors, meter } = frame;
  ctx.font = `${LABEL_FONT_PX}px ${colors.font}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (let k = 0; k < frame.labelCount; k++) {
    const { mark, drawn, x, y, inside } = frame.labels[k]!;
    if (!inside) {
      ctx.fillStyle = colors.labelBackground;
      ctx.globalAlpha = 0.88;
      ctx.fillRect(x - 4, y - 8, meter.width(ctx, drawn) + 8, 16);
      ctx.globalAlpha = 1;
    }
    ctx.fillStyle = mark === TURN_PLAIN ? colors.text : mark === TURN_TIP ? colors.muted : badgeColor(colors, mark);
    ctx.fillText(drawn, x, y);
  }
}
