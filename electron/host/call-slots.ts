/**
 * A few slots for calls whose answers are big (a session graph's pages, ~2 MB each): a call takes a slot
 * before the service produces its answer and gives it back once the transport has let the answer go. A client
 * that asks every page at once, or reads its socket slowly, then has the next page produced only when an
 * earlier one has left, so what the serving process holds follows the slots, not the session's size.
 */

/** Graph pages one client may have being read or not yet written out: two keeps the socket busy while the next is read. */
export const GRAPH_PAGES_UNSENT = 2;

export interface CallSlots {
  /**
   * Resolves with the slot's release once one is free (callers are served in the order they asked), or with
   * null when the signal aborts first: the call then never ran.
   */
  acquire(signal: AbortSignal): Promise<(() => void) | null>;
  /** Callers waiting for a slot. */
  readonly waiting: number;
}

export function createCallSlots(limit: number): CallSlots {
  let free = limit;
  const queue: (() => void)[] = [];

  function releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next === undefined) free++;
      else next();
    };
  }

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.resolve(null);
      if (free > 0) {
        free--;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve) => {
        const grant = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve(releaser());
        };
        const onAbort = (): void => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          resolve(null);
        };
        queue.push(grant);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
