import { describe, expect, it } from 'vitest';
import { prefetchWindow } from '../../../../renderer/src/conversation/prefetch-window';

describe('the prefetch window', () => {
  it('reaches at least a block beyond the mounted rows on both sides, within the branch', () => {
    for (const [first, last] of [
      [0, 10],
      [95, 110],
      [500, 520],
      [970, 999],
    ] as const) {
      const { from, to } = prefetchWindow(first, last, 1000, 30);
      expect(from).toBeLessThanOrEqual(Math.max(0, first - 30));
      expect(to).toBeGreaterThanOrEqual(Math.min(999, last + 30));
      expect(from).toBeGreaterThanOrEqual(0);
      expect(to).toBeLessThanOrEqual(999);
    }
  });

  it('moves by whole blocks as a scroll moves the mounted rows a row at a time, so it asks a block at a time, not every frame', () => {
    const windows = new Set<string>();
    for (let first = 300; first < 600; first++) {
      const window = prefetchWindow(first, first + 20, 50_000, 30);
      expect(window.from % 30).toBe(0);
      expect((window.to + 1) % 30).toBe(0);
      windows.add(JSON.stringify(window));
    }
    // 300 rows scrolled: the window's two edges cross 10 block boundaries each.
    expect(windows.size).toBeLessThanOrEqual(21);
  });

  it('is empty for an empty branch', () => {
    expect(prefetchWindow(0, -1, 0, 30)).toEqual({ from: 0, to: -1 });
  });
});
