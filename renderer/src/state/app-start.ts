/**
 * What happens when the window opens: show what is already imported, import in the background,
 * keep the list fresh from events, and make sure something is open. Returns the disposer.
 */
import type { SessionSummary } from '../../../shared/model';
import type { ArborClient } from '../client/arbor-client';
import type { ImportPhase } from './import-slice';
import { syncSelectionWithHash } from './location-sync';
import type { AppStore } from './store';

/**
 * Coalesces bursts of 'sessions.changed' (a large import sends many): the first refreshes the list at once
 * (a first import's sessions show as soon as they are stored), the rest at most this often.
 */
export const SESSIONS_REFRESH_MS = 300;

/**
 * The session opened when nothing is: the newest real one (the list is newest first). While the list fills
 * (before and during the first import) an orphan subagent's session or one with no node yet is never opened:
 * the real sessions are still on their way. Only once the import is over with nothing else does the newest
 * session with nodes open, so the centre is not left empty.
 */
export function sessionToOpenAtStart(sessions: readonly SessionSummary[], importPhase: ImportPhase): SessionSummary | null {
  const real = sessions.find((session) => session.orphanSubagent !== true && session.nodeCount > 0);
  if (real !== undefined) return real;
  if (importPhase === 'idle' || importPhase === 'running') return null;
  return sessions.find((session) => session.nodeCount > 0) ?? null;
}

export function startApp(store: AppStore, client: ArborClient, win?: Parameters<typeof syncSelectionWithHash>[1]): () => void {
  const disposers: Array<() => void> = [];
  // A session named in the page's hash opens first; otherwise the newest one will.
  if (win) disposers.push(syncSelectionWithHash(store, win));
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let lastRefresh = -Infinity;
  let disposed = false;
  const refreshList = (): void => {
    lastRefresh = Date.now();
    void store.getState().loadSessions();
  };

  // The open session's graph, reloaded as an import changes it: one reload at a time, and after one that took T ms
  // the next waits T ms. Until the writer has brought a session's stored graph up to date, its read goes over every
  // row on the thread that answers requests: a reload per 'sessions.changed' (every 500 ms of a big file), each
  // cancelled by the next on this side only, kept that thread busy and clicks waiting for seconds (issue 12).
  let graphRunning = false;
  let graphPending = false;
  let graphTimer: ReturnType<typeof setTimeout> | null = null;
  const refreshOpenGraph = (): void => {
    if (graphRunning) {
      graphPending = true;
      return;
    }
    graphRunning = true;
    const started = Date.now();
    void store
      .getState()
      .refreshGraph()
      .finally(() => {
        graphTimer = setTimeout(() => {
          graphTimer = null;
          graphRunning = false;
          if (graphPending && !disposed) {
            graphPending = false;
            refreshOpenGraph();
          }
        }, Date.now() - started);
      });
  };

  disposers.push(client.on('import.progress', (p) => store.getState().applyImportProgress(p)));
  disposers.push(
    client.on('sessions.changed', ({ sessionIds }) => {
      const openId = store.getState().selectedSessionId;
      if (openId !== null && sessionIds.includes(openId)) refreshOpenGraph();
      if (refreshTimer !== null) return;
      const wait = lastRefresh + SESSIONS_REFRESH_MS - Date.now();
      if (wait <= 0) return refreshList();
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        if (!disposed) refreshList();
      }, wait);
    }),
  );
  // Events sent while the web host was unreachable are lost: catch up after a reconnect.
  let wasDisconnected = false;
  disposers.push(
    client.onConnection((state) => {
      if (state === 'disconnected') wasDisconnected = true;
      else if (state === 'connected' && wasDisconnected) {
        wasDisconnected = false;
        void store.getState().loadSessions();
        void store.getState().refreshGraph();
      }
    }),
  );
  // Once a list exists and nothing is open, open the newest real session: the app never shows an empty centre.
  disposers.push(
    store.subscribe((state) => {
      if (state.selectedSessionId === null && state.sessions.length > 0 && state.sessionFilter === '') {
        const newest = sessionToOpenAtStart(state.sessions, state.importPhase);
        if (newest) void state.openSession(newest.id);
      }
    }),
  );

  void (async () => {
    await store.getState().loadSessions();
    if (!disposed) await store.getState().runImport();
  })();

  return () => {
    disposed = true;
    if (refreshTimer !== null) clearTimeout(refreshTimer);
    if (graphTimer !== null) clearTimeout(graphTimer);
    store.getState().cancelImport();
    for (const dispose of disposers) dispose();
  };
}
