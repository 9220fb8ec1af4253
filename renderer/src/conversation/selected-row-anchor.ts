/**
 * Keeps the selected row in view after a jump to it. Rows measured on the way in, and details arriving in
 * batches, change the offsets the jump was computed from, and rows above the selected one that grow after it
 * came into view push it out again. So the selected row stays anchored: whenever it is out of view, jump
 * again, until the user scrolls or SETTLE_MS passes. Stopping at the first frame it was in view left it
 * pushed off screen on a busy machine, where the details land seconds later (a flaky e2e in CI, 4 runs in 8
 * under load).
 *
 * The check runs every frame for those seconds, so it must cost nothing while nothing moves: the row's box is
 * read from the page (a layout) only when the scroll offset, the list's height, the row's start or the row's
 * element changed since the last frame that found it in view.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

/**
 * How long a jump keeps the selected row in view while the rows around it are measured and their details
 * arrive (each can grow a row by hundreds of pixels). Ended sooner by the user's own scrolling.
 */
export const SETTLE_MS = 10_000;

/** What the selected row's place on screen depends on, read without a layout. */
export interface AnchorState {
  readonly offset: number;
  readonly total: number;
  readonly start: number;
  readonly element: Element | null;
}

export function sameAnchor(a: AnchorState | null, b: AnchorState): boolean {
  return a !== null && a.offset === b.offset && a.total === b.total && a.start === b.start && a.element === b.element;
}

/** Whether the row's top is inside the scroller, with at least a line of it showing. */
export function rowInView(scroller: Element, element: Element | null): boolean {
  if (!element) return false;
  const box = element.getBoundingClientRect();
  const port = scroller.getBoundingClientRect();
  return box.top >= port.top - 1 && box.top < port.bottom - Math.min(24, box.height);
}

export interface AnchorOptions {
  readonly scroller: HTMLElement | null;
  readonly virtualizer: Virtualizer<HTMLDivElement, Element>;
  readonly row: number;
  readonly jump: () => void;
  /** Injected for tests. */
  readonly frames?: { request: (fn: () => void) => number; cancel: (handle: number) => void; now: () => number };
}

const USER_SCROLLS = ['wheel', 'pointerdown', 'touchstart', 'keydown'] as const;

/** Starts anchoring `row` (the jump to it already made); returns the disposer. */
export function anchorSelectedRow({ scroller, virtualizer, row, jump, frames }: AnchorOptions): () => void {
  const clock = frames ?? { request: (fn: () => void) => requestAnimationFrame(fn), cancel: (h: number) => cancelAnimationFrame(h), now: () => performance.now() };
  const started = clock.now();
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  for (const type of USER_SCROLLS) scroller?.addEventListener(type, stop, { passive: true });
  let settled: AnchorState | null = null;
  const settle = (): void => {
    if (stopped || !scroller || clock.now() - started > SETTLE_MS) return;
    const state: AnchorState = {
      offset: virtualizer.scrollOffset ?? 0,
      total: virtualizer.getTotalSize(),
      start: virtualizer.measurementsCache[row]?.start ?? -1,
      element: scroller.querySelector(`[data-index="${row}"]`),
    };
    if (!sameAnchor(settled, state)) {
      if (rowInView(scroller, state.element)) settled = state;
      else {
        settled = null;
        jump();
      }
    }
    frame = clock.request(settle);
  };
  let frame = clock.request(settle);
  return () => {
    clock.cancel(frame);
    for (const type of USER_SCROLLS) scroller?.removeEventListener(type, stop);
  };
}
