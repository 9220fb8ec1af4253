/** What the overview canvas writes on a card: the title keeps the card's width beside a "branches into N" badge. */
import { describe, expect, it } from 'vitest';
import { buildSessionStructure } from '../../../../../shared/graph/session-structure';
import { buildTurnOverview, indexTurns } from '../../../../../shared/graph/turn-overview';
import { createFrame, drawOverview, twoLines, type OverviewColors } from '../../../../../renderer/src/graph/overview/draw-overview';
import { SessionBuilder } from '../../../shared/graph/session-builder';

/** A 2D context that records the text drawn, with a measureText of 6.5 px a character (any font). */
function recordingContext() {
  const texts: { text: string; x: number; y: number; align: string }[] = [];
  const lines: { x: number; y: number; strokeStyle: string }[] = [];
  const ctx = new Proxy(
    { textAlign: 'left', font: '', fillStyle: '', strokeStyle: '', lineWidth: 1, globalAlpha: 1, textBaseline: 'alphabetic' } as Record<string, unknown>,
    {
      get(target, key: string) {
        if (key === 'fillText') return (text: string, x: number, y: number) => texts.push({ text, x, y, align: String(target.textAlign) });
        if (key === 'lineTo') return (x: number, y: number) => lines.push({ x, y, strokeStyle: String(target.strokeStyle) });
        if (key === 'measureText') return (text: string) => ({ width: text.length * 6.5 });
        if (key in target) return target[key];
        return () => undefined;
      },
      set(target, key: string, value: unknown) {
        target[key] = value;
        return true;
      },
    },
  );
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts, lines };
}

const COLORS: OverviewColors = {
  card: '#fff', cardBorder: '#ccc', text: '#111', muted: '#666', edge: '#999', branch: '#a60', tip: '#888', head: '#06a',
  error: '#c00', accent: '#00f', labelBackground: '#fff', font: 'sans-serif',
};

describe('drawOverview', () => {
  it('a turn title beside a "branches into N" badge was cut: the title has the whole first line, the badge sits on the stats line', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', prompt);
    s.add('user', answer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' });
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Skip lines it cannot read'; // fits the card's width (32 characters here), not the width left beside the badge
    const frame = createFrame(overview, indexTurns(overview), () => title, () => 'fork', COLORS);
    frame.camera = { x: 20, y: 20, zoom: 1 };
    frame.width = 1200;
    frame.height = 800;
    const { ctx, texts } = recordingContext();
    drawOverview(ctx, frame, 1);
    const titleLine = texts.find((entry) => entry.text.startsWith('#1 '));
    expect(titleLine?.text).toBe(`#1 ${title}`);
    const badge = texts.find((entry) => entry.text === 'branches into 2');
    const stats = texts.find((entry) => entry.text.startsWith('2 steps'));
    expect(badge).toBeDefined();
    expect(badge!.y).toBe(stats!.y);
    expect(badge!.y).toBeGreaterThan(titleLine!.y);
  });

  it('at Fit a title beside the next lane\'s "branch end" label was cut to a few words: it goes on two lines in its card', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', prompt);
    const main = s.add('user', answer);
    const mainAnswer = s.add('assistant', main);
    s.add('user', mainAnswer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' }); // a rewind: a branch end in lane 1
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'Actually, good, the migration change is in and the tests pass again';
    const frame = createFrame(overview, indexTurns(overview), () => title, () => 'fork', COLORS);
    frame.camera = { x: 20, y: 20, zoom: 0.56 };
    frame.width = 1200;
    frame.height = 800;
    const { ctx, texts } = recordingContext();
    drawOverview(ctx, frame, 1);
    const [first, second] = twoLines(`#2 ${title}`, 240 * 0.56 - 5 - 6 - 8);
    expect(second).not.toBe('');
    const drawn = texts.map((entry) => entry.text);
    expect(drawn).toContain(first);
    expect(drawn).toContain(second);
  });
});

describe('side labels at Fit', () => {
  it('a label longer than its card spilled past the card\'s border: the card is outlined out to the label\'s end', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('assistant', prompt);
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const title = 'We should format each query on its own line before the digest';
    const frame = createFrame(overview, indexTurns(overview), () => title, () => 'fork', COLORS);
    const zoom = 0.56;
    frame.camera = { x: 20, y: 20, zoom };
    frame.width = 1200;
    frame.height = 800;
    const { ctx, texts, lines } = recordingContext();
    drawOverview(ctx, frame, 1);
    const label = texts.find((entry) => entry.text.startsWith('#1 '));
    expect(label).toBeDefined();
    const cardRight = 20 + 240 * zoom;
    const labelRight = label!.x - 4 + Math.min(label!.text.length, 34) * 6.4 + 8;
    expect(labelRight).toBeGreaterThan(cardRight);
    const outline = lines.filter((line) => line.strokeStyle === COLORS.cardBorder && line.x > cardRight);
    expect(outline.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...outline.map((line) => line.x))).toBeGreaterThanOrEqual(labelRight - 8);
  });
});

describe('twoLines', () => {
  it('breaks at a space and ellipsizes the second line', () => {
    expect(twoLines('short', 100)).toEqual(['short', '']);
    const [a, b] = twoLines('one two three four five six seven eight nine ten eleven twelve', 64);
    expect(a).toBe('one two');
    expect(b.endsWith('…')).toBe(true);
    expect(b.startsWith('three')).toBe(true);
  });
});
