import { ArborError, CancelledError } from '../../../shared/errors';
import type { SliceCreator } from './app-state';

export interface Notice {
  readonly id: number;
  readonly code: string;
  readonly message: string;
}

/** Errors the user should see in the banner. Cancellations are the user's own doing and stay silent. */
export interface NoticeSlice {
  readonly notices: readonly Notice[];
  reportError(error: unknown, context?: string): void;
  dismissNotice(id: number): void;
  /** Clears every notice: they were about what the user has now moved away from. */
  clearNotices(): void;
}

let nextNoticeId = 1;

export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof ArborError && error.code === 'CANCELLED');
}

export const createNoticeSlice: SliceCreator<NoticeSlice> = () => (set) => ({
  notices: [],
  reportError(error, context) {
    if (isCancellation(error)) return;
    const code = error instanceof ArborError ? error.code : 'INTERNAL';
    const text = error instanceof Error ? error.message : String(error);
    const message = context ? `${context}: ${text}` : text;
    // Keep the banner short: the newest few, no duplicates.
    set((s) => ({
      notices: [...s.notices.filter((n) => n.message !== message), { id: nextNoticeId++, code, message }].slice(-3),
    }));
  },
  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
  clearNotices() {
    set((s) => (s.notices.length === 0 ? s : { notices: [] }));
  },
});

/**
 * Stale banners go when the user moves on: selecting another node or opening another session clears the
 * errors shown so far (an error the new selection causes arrives after, and stays). Returns the disposer.
 */
export function clearNoticesOnMove(store: { getState(): NoticeSlice & Moves; subscribe(listener: (state: Moves, previous: Moves) => void): () => void }): () => void {
  return store.subscribe((state, previous) => {
    if (state.selectedNodeId !== previous.selectedNodeId || state.selectedSessionId !== previous.selectedSessionId) store.getState().clearNotices();
  });
}

interface Moves {
  readonly selectedNodeId: string | null;
  readonly selectedSessionId: string | null;
}
