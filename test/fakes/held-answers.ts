/**
 * Answers a test holds back and lets go one at a time, oldest first: a socket that writes a message out only when
 * told, a host that answers a graph page only when let. The graph-page slot tests (socket session, IPC binding, the
 * renderer's page reader) each kept a list of resolvers and the same let-go loop; this is that, once.
 */

/** One turn of the timers: the promise jobs a step set off, and what they set off in turn, have run. */
export const settled = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface HeldAnswers {
  /** Resolves with `value` once let go. */
  hold<T>(value: T): Promise<T>;
  /** How many are held now. */
  readonly count: number;
  /** Lets the oldest go and waits `settle` ms for what it sets off; refuses when none is held. */
  letNext(): Promise<void>;
  /** Lets them go one at a time, calling `after` after each, until none is held (those each sets off included). */
  letAll(after?: () => void): Promise<void>;
  /** Lets every one held go at once, without waiting. */
  release(): void;
}

export function holdAnswers({ settle = 0 }: { readonly settle?: number } = {}): HeldAnswers {
  const held: (() => void)[] = [];
  const letNext = async (): Promise<void> => {
    const next = held.shift();
    if (next === undefined) throw new Error('no answer is held');
    next();
    await settled(settle);
  };
  return {
    hold: <T>(value: T) => new Promise<T>((resolve) => held.push(() => resolve(value))),
    get count() {
      return held.length;
    },
    letNext,
    async letAll(after) {
      while (held.length > 0) {
        await letNext();
        after?.();
      }
    },
    release() {
      for (const go of held.splice(0)) go();
    },
  };
}
