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
});
