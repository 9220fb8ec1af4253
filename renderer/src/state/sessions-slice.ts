import type { SessionSummary } from '../../../shared/model';
import type { LoadStatus, SliceCreator } from './app-state';

export interface SessionsSlice {
  /** Newest first. */
  readonly sessions: readonly SessionSummary[];
  readonly sessionsStatus: LoadStatus;
  /** The text typed into the session filter; applied client-side (see filterSessions). */
  readonly sessionFilter: string;
  loadSessions(): Promise<void>;
  setSessionFilter(text: string): void;
}

/** Upper bound the contract allows; the list is virtualized, so loading all of them is fine. */
export const SESSION_LIST_LIMIT = 100_000;

const sortKey = (s: SessionSummary): string => s.lastActivityAt ?? s.updatedAt ?? s.startedAt ?? '';

export function newestFirst(sessions: readonly SessionSummary[]): SessionSummary[] {
  return [...sessions].sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    return ka === kb ? a.id.localeCompare(b.id) : ka < kb ? 1 : -1;
  });
}

/** Every whitespace-separated word must appear in the title, project (path or group) or id (case-insensitive). */
export function filterSessions(sessions: readonly SessionSummary[], text: string): readonly SessionSummary[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions;
  return sessions.filter((s) => {
    const hay = `${s.title}\n${s.project ?? ''}\n${s.projectKey ?? ''}\n${s.id}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

export const createSessionsSlice: SliceCreator<SessionsSlice> = (client) => (set, get) => {
  let generation = 0;
  return {
    sessions: [],
    sessionsStatus: 'idle',
    sessionFilter: '',
    async loadSessions() {
      const mine = ++generation;
      // A reload keeps the old list on screen; only the very first load shows "loading".
      if (get().sessionsStatus === 'idle') set({ sessionsStatus: 'loading' });
      try {
        const { sessions } = await client.call('sessions.list', { limit: SESSION_LIST_LIMIT });
        if (mine !== generation) return; // A newer reload won the race.
        set({ sessions: newestFirst(sessions), sessionsStatus: 'ready' });
      } catch (error) {
        if (mine !== generation) return;
        set({ sessionsStatus: get().sessions.length > 0 ? 'ready' : 'error' });
        get().reportError(error, 'Could not load sessions');
      }
    },
    setSessionFilter(text) {
      set({ sessionFilter: text });
    },
  };
};
