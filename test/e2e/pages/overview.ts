/** Page object for the turn overview (the canvas a big session's graph becomes when zoomed out) and the minimap. */
import { expect, type Locator, type Page } from '@playwright/test';

export class OverviewPane {
  readonly root: Locator;
  readonly canvas: Locator;
  /** The hidden list of the labels drawn on the canvas (canvas text is not in the DOM). */
  readonly labels: Locator;
  readonly minimap: Locator;
  readonly minimapToggle: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('graph-overview');
    this.canvas = this.root.locator('canvas');
    this.labels = page.getByTestId('overview-labels').locator('li');
    this.minimap = page.getByTestId('graph-minimap');
    this.minimapToggle = page.getByTestId('minimap-toggle');
  }

  labelsOfKind(kind: 'turn' | 'branch-point' | 'branch-end' | 'branch-head'): Locator {
    return this.page.locator(`[data-testid="overview-labels"] li[data-kind="${kind}"]`);
  }

  async zoom(): Promise<number> {
    return Number(await this.root.getAttribute('data-zoom'));
  }

  /** Ctrl + wheel over the canvas centre, like a pinch or Ctrl+scroll. */
  async zoomIn(steps: number): Promise<void> {
    const box = await this.canvas.boundingBox();
    expect(box).not.toBeNull();
    // Over the first lane, where the session's line runs.
    await this.page.mouse.move(box!.x + 90, box!.y + box!.height / 3);
    await this.page.keyboard.down('Control');
    for (let k = 0; k < steps; k++) await this.page.mouse.wheel(0, -120);
    await this.page.keyboard.up('Control');
  }

  /**
   * Records what the overview canvas draws (its last frame): the boxes filled, and each text with its width as
   * the canvas measures it in the font it was drawn in. Canvas text is not in the DOM: this is how a test sees
   * overlaps and cut labels. Call before the page loads.
   */
  static async recordDrawing(page: Page): Promise<void> {
    await page.addInitScript(recordOverviewDrawing);
  }

  /**
   * What reads wrong in the last frame drawn: two cards (or a card and a leftover of one) filled at one place,
   * a label's background over a card or another label, a text over another, a text out of its card or label
   * box, a text cut with "…" though its whole text fits.
   * With `minChars`, also a card's label cut to fewer characters than that (at Fit a card beside the next lane's
   * showed "#3 Actu…"). With counts, so that a check of nothing does not pass.
   */
  async drawingProblems({ minChars = 0 } = {}): Promise<{ cards: number; texts: number; cut: number; problems: string[] }> {
    // The hidden label list follows the picture 120 ms after it settles: the cut check reads the whole texts there.
    await this.page.waitForTimeout(300);
    return this.page.evaluate(overviewDrawingProblems, minChars);
  }

  /** The zoom controls' + and − (React Flow's panel), which zoom the overview while it shows. */
  zoomButton(direction: 'in' | 'out'): Locator {
    return this.page.getByRole('button', { name: direction === 'in' ? 'Zoom in' : 'Zoom out' });
  }
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface Filled extends Box {
  fill: string;
  path: boolean;
}
interface Drawn extends Box {
  text: string;
  font: string;
}
interface Drawing {
  filled: Filled[];
  texts: Drawn[];
  path: Box[];
}

/** In the page: wraps the 2D context's drawing calls, for the overview canvas only; a frame starts at its clearRect. */
function recordOverviewDrawing(): void {
  const proto = CanvasRenderingContext2D.prototype;
  const store = window as unknown as { __overviewDrawing?: Drawing };
  const mine = (ctx: CanvasRenderingContext2D): boolean => ctx.canvas.classList.contains('graph-overview__canvas');
  const { clearRect, beginPath, rect, fill, fillRect, fillText, measureText } = proto;
  let current: Drawing = { filled: [], texts: [], path: [] };
  proto.clearRect = function (this: CanvasRenderingContext2D, ...args: Parameters<typeof clearRect>) {
    if (mine(this)) store.__overviewDrawing = current = { filled: [], texts: [], path: [] };
    return clearRect.apply(this, args);
  };
  proto.beginPath = function (this: CanvasRenderingContext2D) {
    if (mine(this)) current.path = [];
    return beginPath.call(this);
  };
  proto.rect = function (this: CanvasRenderingContext2D, x: number, y: number, w: number, h: number) {
    if (mine(this)) current.path.push({ x, y, w, h });
    return rect.call(this, x, y, w, h);
  };
  proto.fill = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
    if (mine(this)) for (const box of current.path) current.filled.push({ ...box, fill: String(this.fillStyle), path: true });
    return (fill as (...a: unknown[]) => void).apply(this, args);
  };
  proto.fillRect = function (this: CanvasRenderingContext2D, x: number, y: number, w: number, h: number) {
    if (mine(this)) current.filled.push({ x, y, w, h, fill: String(this.fillStyle), path: false });
    return fillRect.call(this, x, y, w, h);
  };
  proto.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) {
    if (mine(this)) {
      const width = measureText.call(this, text).width;
      const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 10);
      const left = this.textAlign === 'right' || this.textAlign === 'end' ? x - width : this.textAlign === 'center' ? x - width / 2 : x;
      const top = this.textBaseline === 'middle' ? y - size / 2 : this.textBaseline === 'top' ? y : y - size * 0.8;
      current.texts.push({ text, x: left, y: top, w: width, h: size, font: this.font });
    }
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
  };
}

/** In the page: the checks drawingProblems() describes, over the last frame recorded. */
function overviewDrawingProblems(minChars: number): { cards: number; texts: number; cut: number; problems: string[] } {
  const drawing = (window as unknown as { __overviewDrawing?: Drawing }).__overviewDrawing;
  if (!drawing) return { cards: 0, texts: 0, cut: 0, problems: ['nothing recorded'] };
  const canvas = document.querySelector<HTMLCanvasElement>('.graph-overview__canvas')!;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  const onScreen = (box: Box): boolean => box.x < width && box.y < height && box.x + box.w > 0 && box.y + box.h > 0;
  const overlap = (a: Box, b: Box): boolean =>
    Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;
  const within = (inner: Box, outer: Box): boolean =>
    inner.x >= outer.x - 0.5 && inner.x + inner.w <= outer.x + outer.w + 0.5 && inner.y >= outer.y - 0.5 && inner.y + inner.h <= outer.y + outer.h + 0.5;
  const name = (box: Box): string => `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.w)}x${Math.round(box.h)}`;
  // Cards are the boxes a path fills wider than a stripe; their fill is the card colour, whatever else is filled in it.
  const pathBoxes = drawing.filled.filter((box) => box.path && box.w > 8 && onScreen(box));
  const counts = new Map<string, number>();
  for (const box of pathBoxes) counts.set(box.fill, (counts.get(box.fill) ?? 0) + 1);
  const cardFill = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const cards = drawing.filled.filter((box) => box.fill === cardFill && box.w > 8 && onScreen(box));
  // A card as laid out (the narrowest drawn): wider ones were widened to their labels.
  const cardWidth = Math.min(...cards.map((card) => card.w));
  const holders = [...cards, ...drawing.filled.filter((box) => !box.path && box.fill !== cardFill && onScreen(box))];
  const texts = drawing.texts.filter(onScreen);
  const problems: string[] = [];
  for (let a = 0; a < cards.length; a++) {
    for (let b = a + 1; b < cards.length; b++) if (overlap(cards[a]!, cards[b]!)) problems.push(`cards at ${name(cards[a]!)} and ${name(cards[b]!)} overlap`);
  }
  // A label's own background (beside a card too small for text) covers no card and no other label.
  const backgrounds = holders.slice(cards.length);
  for (let a = 0; a < backgrounds.length; a++) {
    for (const card of cards) if (overlap(backgrounds[a]!, card)) problems.push(`label at ${name(backgrounds[a]!)} covers the card at ${name(card)}`);
    for (let b = a + 1; b < backgrounds.length; b++) if (overlap(backgrounds[a]!, backgrounds[b]!)) problems.push(`labels at ${name(backgrounds[a]!)} and ${name(backgrounds[b]!)} overlap`);
  }
  for (let a = 0; a < texts.length; a++) {
    for (let b = a + 1; b < texts.length; b++) if (overlap(texts[a]!, texts[b]!)) problems.push(`"${texts[a]!.text}" over "${texts[b]!.text}"`);
  }
  // The whole texts of the turns labelled, by turn number (#N is turn N - 1).
  const whole = new Map<number, string[]>();
  for (const item of document.querySelectorAll<HTMLElement>('[data-testid="overview-labels"] li')) {
    whole.set(Number(item.dataset.turn) + 1, [item.dataset.title ?? '', item.dataset.label ?? '', item.dataset.stats ?? '']);
  }
  const measure = document.createElement('canvas').getContext('2d')!;
  let cut = 0;
  for (const text of texts) {
    const holder = holders.find((box) => within(text, box));
    if (!holder) {
      // Cut at the canvas's own edge is not a label cut short.
      if (text.x >= 0 && text.x + text.w <= width) problems.push(`"${text.text}" out of its card at ${name(text)}`);
      continue;
    }
    // A card widened past the canvas's edge: its label is cut there, with no ellipsis to say so.
    if (text.x + text.w > width + 0.5 && holder.x + cardWidth <= width) problems.push(`"${text.text}" runs past the canvas's edge`);
    if (!text.text.endsWith('…')) continue;
    cut++;
    if (text.text.length - 1 < minChars && cards.includes(holder)) problems.push(`"${text.text}" keeps fewer than ${minChars} characters`);
    const start = text.text.slice(0, -1).trimEnd();
    const number = Number(/#(\d+)/.exec(texts.filter((other) => within(other, holder)).map((other) => other.text).join(' '))?.[1] ?? NaN);
    const full = (whole.get(number) ?? []).find((candidate) => candidate.startsWith(start) && candidate.length > start.length);
    if (full === undefined) continue;
    // The room it had: to its box's end, or to the next text on its line in that box (a badge).
    let right = holder.x + holder.w;
    for (const other of texts) {
      const sameLine = Math.min(other.y + other.h, text.y + text.h) - Math.max(other.y, text.y) > 0.5;
      if (other !== text && sameLine && other.x > text.x && within(other, holder)) right = Math.min(right, other.x);
    }
    measure.font = text.font;
    const needed = measure.measureText(full).width;
    if (text.x + needed <= right - 8) problems.push(`"${text.text}" is cut though "${full}" fits (${Math.round(needed)} of ${Math.round(right - text.x)} px)`);
  }
  return { cards: cards.length, texts: texts.length, cut, problems };
}
