import { afterEach, describe, expect, it } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { anchorSelectedRow, SETTLE_MS } from '../../../../renderer/src/conversation/selected-row-anchor';

/** A scroller 0–500 px on screen holding row 7 at `top`, a stand-in virtualizer, and frames run by hand. */
function setup(top: number) {
  const scroller = document.createElement('div');
  const row = document.createElement('div');
  row.setAttribute('data-index', '7');
  scroller.appendChild(row);
  document.body.appendChild(scroller);
  const place = { top };
  let layouts = 0;
  scroller.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 400, height: 500 });
  row.getBoundingClientRect = () => {
    layouts++;
    return DOMRect.fromRect({ x: 0, y: place.top, width: 400, height: 100 });
  };
  const virtualizer = { scrollOffset: 0, getTotalSize: () => 10_000, measurementsCache: [] as { start: number }[] };
  let queued: (() => void) | null = null;
  let now = 0;
  const frames = {
    request: (fn: () => void) => {
      queued = fn;
      return 1;
    },
    cancel: () => {
      queued = null;
    },
    now: () => now,
  };
  const frame = (ms = 16) => {
    now += ms;
    const fn = queued;
    queued = null;
    fn?.();
  };
  let jumps = 0;
  const dispose = anchorSelectedRow({
    scroller,
    virtualizer: virtualizer as unknown as Virtualizer<HTMLDivElement, Element>,
    row: 7,
    jump: () => {
      jumps++;
      place.top = 200;
      virtualizer.scrollOffset += 1;
    },
    frames,
  });
  return { scroller, place, virtualizer, frame, dispose, layouts: () => layouts, jumps: () => jumps, running: () => queued !== null };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('keeping the selected row in view', () => {
  it('jumps again when rows above grew and pushed it off screen', () => {
    const view = setup(200);
    view.frame();
    expect(view.jumps()).toBe(0);
    view.place.top = 900; // details landed above it
    view.virtualizer.getTotalSize = () => 12_000;
    view.frame();
    expect(view.jumps()).toBe(1);
    view.frame();
    expect(view.place.top).toBe(200);
    view.dispose();
  });

  it('reads no layout on the frames where nothing it depends on moved (it runs every frame for seconds)', () => {
    const view = setup(200);
    view.frame();
    const after = view.layouts();
    for (let k = 0; k < 100; k++) view.frame();
    expect(view.layouts()).toBe(after);
    view.virtualizer.scrollOffset = 40;
    view.frame();
    expect(view.layouts()).toBe(after + 1);
    view.dispose();
  });

  it('stops when the user scrolls, and after SETTLE_MS', () => {
    const wheel = setup(200);
    wheel.frame();
    wheel.scroller.dispatchEvent(new Event('wheel'));
    wheel.place.top = 900;
    wheel.virtualizer.scrollOffset = 5_000;
    wheel.frame();
    expect(wheel.jumps()).toBe(0);
    expect(wheel.running()).toBe(false);
    wheel.dispose();

    const late = setup(200);
    late.frame(SETTLE_MS + 1);
    late.place.top = 900;
    late.virtualizer.scrollOffset = 5_000;
    late.frame();
    expect(late.jumps()).toBe(0);
    late.dispose();
  });
});
