import { describe, expect, it } from 'vitest';
import { CENTRE_MIN, fitPanes, LEFT_RANGE, resizePane, RIGHT_RANGE, SPLITTERS } from '../../../../renderer/src/app/pane-layout';

const fits = (p: { left: number; right: number }, width: number) => p.left + p.right + SPLITTERS + CENTRE_MIN <= width;

describe('pane layout', () => {
  it('keeps the user\'s widths when they fit', () => {
    expect(fitPanes({ left: 300, right: 440 }, 1400)).toEqual({ left: 300, right: 440 });
  });

  it('regression: a wide saved inspector in a narrow window no longer pushes the graph and itself off-screen', () => {
    for (const width of [1400, 1024, 900, 800, 740]) {
      const shown = fitPanes({ left: 600, right: 900 }, width);
      expect(fits(shown, width), `at ${width}px: ${JSON.stringify(shown)}`).toBe(true);
      expect(shown.left).toBeGreaterThanOrEqual(LEFT_RANGE.floor);
      expect(shown.right).toBeGreaterThanOrEqual(RIGHT_RANGE.floor);
    }
  });

  it('a splitter dragged past the window stops where the graph keeps its minimum width', () => {
    const next = resizePane({ left: 300, right: 440 }, 'right', 5000, 1400);
    expect(next.left).toBe(300);
    expect(fits(next, 1400)).toBe(true);
    expect(next.right).toBe(1400 - SPLITTERS - CENTRE_MIN - 300);
    expect(resizePane({ left: 300, right: 440 }, 'left', 10, 1400).left).toBe(LEFT_RANGE.min);
  });
});
