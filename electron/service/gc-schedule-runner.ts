/**
 * The background gc (issue 15): a host (the app, `arbor serve`) starts this once; it looks every `checkMs`
 * whether the user's schedule (`store.gcSchedule`) makes a gc due and runs `store.gc`, which waits for this
 * process's imports and takes the store's writer turn like every writer, so imports are never blocked
 * mid-batch. Returns its disposer; stopping aborts a gc in flight.
 */
import type { ArborApi } from '../../shared/contract';
import { gcDue, type GcReport } from '../../shared/forget';

export interface ScheduledGcOptions {
  readonly now?: () => Date;
  /** How often the schedule is looked at (default hourly). */
  readonly checkMs?: number;
  readonly onReport?: (report: GcReport) => void;
  readonly onError?: (error: unknown) => void;
}

export function startScheduledGc(api: Pick<ArborApi, 'store.gc' | 'store.gcSchedule'>, options: ScheduledGcOptions = {}): { check(): Promise<void>; stop(): void } {
  const now = options.now ?? (() => new Date());
  const stopped = new AbortController();
  let running: Promise<void> | null = null;
  const check = (): Promise<void> =>
    (running ??= (async () => {
      try {
        if (stopped.signal.aborted) return;
        const state = await api['store.gcSchedule']({}, { signal: stopped.signal });
        if (!gcDue(state, now())) return;
        options.onReport?.(await api['store.gc']({}, { signal: stopped.signal }));
      } catch (error) {
        if (!stopped.signal.aborted) options.onError?.(error);
      } finally {
        running = null;
      }
    })());
  const timer = setInterval(() => void check(), options.checkMs ?? 3_600_000);
  timer.unref?.();
  return {
    check,
    stop() {
      clearInterval(timer);
      stopped.abort();
    },
  };
}
