/**
 * What the overview canvas draws: one card per turn at its place (widened to its label only where its row has
 * room), text measured to the room it has (whole when it fits, cut with an ellipsis when not), nothing over
 * another card or label.
 */
import { describe, expect, it } from 'vitest';
import { buildSessionStructure } from '../../../../../shared/graph/session-structure';
import { buildTurnOverview, indexTurns, type TurnOverview } from '../../../../../shared/graph/turn-overview';
import type { NodeId } from '../../../../../shared/model';
import { createFrame, drawOverview, statsText, type OverviewColors } from '../../../../../renderer/src/graph/overview/draw-overview';
import { CARD_HEIGHT, CARD_WIDTH, fitOverview } from '../../../../../renderer/src/graph/overview/overview-camera';
import { SessionBuilder } from '../../../shared/graph/session-builder';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface DrawnText extends Box {
  text: string;
}

/**
 * A 2D context that records the filled boxes (a path's rects take the fill they get) and the text drawn, with a
 * measureText of `charPx` a character (any font), as a font of that advance would measure.
 */
function recordingContext(charPx = 6.5) {
  const texts: DrawnText[] = [];
  const filled: (Box & { fill: string })[] = [];
  let path: Box[] = [];
  const target: Record<string, unknown> = { textAlign: 'left', font: '', fillStyle: '', strokeStyle: '', lineWidth: 1, globalAlpha: 1, textBaseline: 'alphabetic' };
  const ctx = new Proxy(target, {
    get(target, key: string) {
      if (key === 'fillText') {
        return (text: string, x: number, y: number) => {
          const w = text.length * charPx;
          texts.push({ text, x: target.textAlign === 'right' ? x - w : x, y: y - 5, w, h: 10 });
        };
      }
      if (key === 'measureText') return (text: string) => ({ width: text.length * charPx });
      if (key === 'beginPath') return () => void (path = []);
      if (key === 'rect') return (x: number, y: number, w: number, h: number) => void path.push({ x, y, w, h });
      if (key === 'fill') return () => filled.push(...path.map((box) => ({ ...box, fill: String(target.fillStyle) })));
      if (key === 'fillRect') return (x: number, y: number, w: number, h: number) => filled.push({ x, y, w, h, fill: String(target.fillStyle) });
      if (key in target) return target[key];
      return () => undefined;
    },
    set(target, key: string, value: unknown) {
      target[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts, filled };
}

const COLORS: OverviewColors = {
  card: '#fff', cardBorder: '#ccc', text: '#111', muted: '#666', edge: '#999', branch: '#a60', tip: '#888', head: '#06a',
  error: '#c00', accent: '#00f', labelBackground: '#eee', font: 'sans-serif',
};

function overlap(a: Box, b: Box): boolean {
  return Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;
}

function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x - 0.5 && inner.x + inner.w <= outer.x + outer.w + 0.5 && inner.y >= outer.y - 0.5 && inner.y + inner.h <= outer.y + outer.h + 0.5;
}

/** What a user would see wrong: cards drawn over cards (or a card's leftover behind a widened one), text over text or out of its box. */
function problems(filled: readonly (Box & { fill: string })[], texts: readonly DrawnText[]): string[] {
  const found: string[] = [];
  const cards = filled.filter((box) => box.fill === COLORS.card);
  const holders = filled.filter((box) => box.fill === COLORS.card || box.fill === COLORS.labelBackground);
  for (let a = 0; a < cards.length; a++) for (let b = a + 1; b < cards.length; b++) if (overlap(cards[a]!, cards[b]!)) found.push(`cards ${a} and ${b} overlap`);
  for (let a = 0; a < texts.length; a++) for (let b = a + 1; b < texts.length; b++) if (overlap(texts[a]!, texts[b]!)) found.push(`"${texts[a]!.text}" over "${texts[b]!.text}"`);
  for (const text of texts) if (!holders.some((box) => inside(text, box))) found.push(`"${text.text}" out of its card`);
  return found;
}

/** A main line of `turns` turns with a rewind (a one-turn branch) every `every` turns. */
function sessionWithBranches(turns: number, every: number, title: (turn: number) => string = () => 'We should format each query on its own line before the digest') {
  const s = new SessionBuilder();
  let at: NodeId | null = null;
  for (let k = 0; k < turns; k++) {
    const prompt = s.add('user', at, { label: title(k) });
    at = s.add('assistant', prompt);
    if (k % every === every - 1) s.add('assistant', s.add('user', at, { label: title(k), timestamp: '2026-01-01T00:00:00.000Z' }));
  }
  const overview = buildTurnOverview(buildSessionStructure(s.nodes));
  return { s, overview };
}

function frameOf(overview: TurnOverview, title: (turn: number) => string, camera: { x: number; y: number; zoom: number }, width = 1200, height = 800) {
  const frame = createFrame(overview, indexTurns(overview), title, () => 'fork', COLORS);
  frame.camera = camera;
  frame.width = width;
  frame.height = height;
  return frame;
}

describe('drawOverview with text in the cards', () => {
  it('a turn title beside a "branches into N" badge was cut: the title has the whole first line, the badge sits on the stats line', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', prompt);
    s.add('user', answer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' });
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Skip lines it cannot read'; // fits the card's width, not the width left beside the badge
    const frame = frameOf(overview, () => title, { x: 20, y: 20, zoom: 1 });
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frame, 1);
    const titleLine = texts.find((entry) => entry.text.startsWith('#1 '));
    expect(titleLine?.text).toBe(`#1 ${title}`);
    const badge = texts.find((entry) => entry.text === 'branches into 2');
    const stats = texts.find((entry) => entry.text.startsWith('2 steps'));
    expect(badge).toBeDefined();
    expect(badge!.y).toBe(stats!.y);
    expect(badge!.y).toBeGreaterThan(titleLine!.y);
    expect(problems(filled, texts)).toEqual([]);
  });

  it('"34 steps · 8 tool…" was cut beside "branches into 2" by a width estimated per character: measured, it fits whole', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', s.chain(prompt, 40));
    s.add('user', answer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' });
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const stats = statsText(overview, 0);
    // A narrow font (5 px a character) at the zoom where its stats just fit beside the badge; the estimate of
    // 6.4 px a character the drawing used to cut by said they did not.
    const charPx = 5;
    const zoom = ((stats.length + 1) * charPx + 'branches into 2'.length * charPx + 10 + 16) / CARD_WIDTH;
    expect(Math.floor((CARD_WIDTH * zoom - 16 - 'branches into 2'.length * charPx - 10) / 6.4)).toBeLessThan(stats.length);
    const frame = frameOf(overview, () => 'Skip lines', { x: 20, y: 20, zoom });
    const { ctx, texts, filled } = recordingContext(charPx);
    drawOverview(ctx, frame, 1);
    expect(texts.map((entry) => entry.text)).toContain(stats);
    expect(problems(filled, texts)).toEqual([]);
  });
});

describe('side labels at Fit', () => {
  it('a card widened to exactly its label\'s width cut the label\'s end ("#1 branches into…"): the label is whole', () => {
    const s = new SessionBuilder();
    const answer = s.add('assistant', s.add('user', null));
    s.add('user', answer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' });
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    // 6.6 px a character: the label's width is not a whole number of pixels.
    const { ctx, texts, filled } = recordingContext(6.6);
    drawOverview(ctx, frameOf(overview, () => 'Skip lines', { x: 20, y: 20, zoom: 0.3 }, 300, 300), 1);
    expect(texts.map((entry) => entry.text)).toContain('#1 branches into 2');
    expect(problems(filled, texts)).toEqual([]);
  });

  it('a card widened to its label left its narrower outline behind (two cards at one place): it is drawn once, at its width', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('assistant', prompt);
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Format each query on its own line';
    const zoom = 0.56;
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frameOf(overview, () => title, { x: 20, y: 20, zoom }), 1);
    const label = texts.find((entry) => entry.text === `#1 ${title}`);
    expect(label).toBeDefined(); // whole: the row had room
    const cards = filled.filter((box) => box.fill === COLORS.card);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.w).toBeGreaterThan(CARD_WIDTH * zoom);
    expect(problems(filled, texts)).toEqual([]);
  });

  it('a card widened past the canvas\'s edge had its label cut there, with no ellipsis: it stops short of the edge, its label ellipsized', () => {
    const s = new SessionBuilder();
    s.add('assistant', s.add('user', null));
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Format each query on its own line';
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frameOf(overview, () => title, { x: 20, y: 20, zoom: 0.56 }, 220, 400), 1);
    const card = filled.find((box) => box.fill === COLORS.card)!;
    expect(card.w).toBeGreaterThan(CARD_WIDTH * 0.56);
    expect(card.x + card.w).toBeLessThanOrEqual(220);
    const label = texts.find((entry) => entry.text.startsWith('#1 '))!;
    expect(label.text.endsWith('…')).toBe(true);
    expect(problems(filled, texts)).toEqual([]);
  });

  it('a title beside the next lane\'s card went on two crammed lines: one line, cut to its card with an ellipsis, the next card untouched', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', prompt);
    const main = s.add('user', answer);
    const mainAnswer = s.add('assistant', main);
    s.add('user', mainAnswer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' }); // a rewind: a branch end in lane 1, beside #2 (numbered after the main line's #3)
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Actually, good, the migration change is in and the tests pass again';
    const zoom = 0.56;
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frameOf(overview, () => title, { x: 20, y: 20, zoom }), 1);
    const second = texts.filter((entry) => entry.text.startsWith('#2 '));
    expect(second).toHaveLength(1);
    expect(second[0]!.text.endsWith('…')).toBe(true);
    expect(second[0]!.text.length).toBeGreaterThan('#2 Actually,'.length);
    const card = filled.find((box) => box.fill === COLORS.card && inside(second[0]!, box));
    expect(card!.w).toBeCloseTo(CARD_WIDTH * zoom);
    expect(texts.some((entry) => entry.text === 'branch end #4')).toBe(true);
    expect(problems(filled, texts)).toEqual([]);
  });

  it('Fit on a session too big to show whole, in a narrow pane: a card beside a card in the next lane keeps a readable part of its title', () => {
    // Regression: Fit went out to 0.3, where a branch's first turn beside the line it left showed "#3 Actu…".
    const title = 'Actually, good, the migration change is in and the tests pass again';
    const { overview } = sessionWithBranches(3000, 7, () => title);
    const camera = fitOverview(overview, 255, 700);
    const frame = frameOf(overview, () => title, camera, 255, 700);
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frame, 1);
    const inCards = texts.filter((text) => text.text.startsWith('#') && filled.some((box) => box.fill === COLORS.card && inside(text, box)));
    const cut = inCards.filter((text) => text.text.endsWith('…'));
    expect(inCards.length).toBeGreaterThan(10);
    expect(cut.length).toBeGreaterThan(0); // beside a next-lane card the title is still cut: the check sees such cards
    const shortest = Math.min(...cut.map((text) => text.text.length - 1));
    expect(shortest, cut.map((text) => text.text).join(' | ')).toBeGreaterThanOrEqual(16);
    expect(problems(filled, texts)).toEqual([]);
  });

  it('Fit on a session of thousands of turns with branches: every card in view reads, no card or label over another', () => {
    const titles = (turn: number) => (turn % 3 === 0 ? 'Good' : `The test for the config path fails because the digest is stale (${turn})`);
    const { overview } = sessionWithBranches(3000, 7, titles);
    // A narrow pane: Fit is below the zoom at which cards carry their own text.
    const camera = fitOverview(overview, 400, 700);
    expect(camera.zoom).toBeLessThan(0.7);
    const frame = frameOf(overview, (turn) => titles(turn), camera, 400, 700);
    const { ctx, texts, filled } = recordingContext();
    drawOverview(ctx, frame, 1);
    const cards = filled.filter((box) => box.fill === COLORS.card && box.y < 700 && box.y + box.h > 0);
    expect(cards.length).toBeGreaterThan(20);
    expect(frame.labelCount).toBe(cards.length);
    expect(texts.filter((entry) => entry.text.endsWith('…')).length).toBeGreaterThan(0);
    expect(problems(filled, texts)).toEqual([]);
    // Zoomed out past Fit, cards too small for text keep their labels beside them where the screen is free.
    const far = frameOf(overview, (turn) => titles(turn), { ...camera, zoom: 0.15 }, 400, 700);
    const small = recordingContext();
    drawOverview(small.ctx, far, 1);
    expect(CARD_HEIGHT * 0.15).toBeLessThan(13);
    expect(far.labelCount).toBeGreaterThan(0);
    expect(problems(small.filled, small.texts)).toEqual([]);
  });
});
