/**
 * Keeps the open session and node in the page's hash (#session=…&node=…), so a reload or a shared link
 * returns to the same place. Returns the disposer.
 */
import type { NodeId, SessionId } from '../../../shared/model';
import type { AppStore } from './store';

export interface HashLocation {
  readonly sessionId: SessionId | null;
  readonly nodeId: NodeId | null;
}

export function parseHash(hash: string): HashLocation {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { sessionId: params.get('session') || null, nodeId: params.get('node') || null };
}

export function formatHash({ sessionId, nodeId }: HashLocation): string {
  if (sessionId === null) return '';
  const params = new URLSearchParams({ session: sessionId });
  if (nodeId !== null) params.set('node', nodeId);
  return `#${params.toString()}`;
}

type HashWindow = Pick<Window, 'location' | 'history' | 'addEventListener' | 'removeEventListener'>;

/**
 * Selection changes reach the hash after this delay, coalesced. history.replaceState is a same-document
 * navigation the browser process takes part in: right after a session opens it measured 100–300 ms on the
 * UI thread (in Chromium under load), and holding an arrow key in the graph would fire dozens a second,
 * which Chromium throttles. A write still pending when the page goes away is flushed.
 */
export const HASH_WRITE_DELAY_MS = 250;

export function syncSelectionWithHash(store: AppStore, win: HashWindow): () => void {
  const openFromHash = () => {
    const { sessionId, nodeId } = parseHash(win.location.hash);
    const state = store.getState();
    if (sessionId === null || (sessionId === state.selectedSessionId && nodeId === state.selectedNodeId)) return;
    void state.openSession(sessionId, nodeId);
  };
  let pending: ReturnType<typeof setTimeout> | null = null;
  const writeHash = () => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    const state = store.getState();
    const hash = formatHash({ sessionId: state.selectedSessionId, nodeId: state.selectedNodeId });
    if (hash !== win.location.hash) {
      // replaceState: every click must not become a history entry; the token in the query is kept.
      win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${hash}`);
    }
  };
  openFromHash();
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.selectedSessionId === previous.selectedSessionId && state.selectedNodeId === previous.selectedNodeId) return;
    // The hash is computed when the write happens, from the selection at that time.
    pending ??= setTimeout(writeHash, HASH_WRITE_DELAY_MS);
  });
  const flush = () => {
    if (pending !== null) writeHash();
  };
  win.addEventListener('hashchange', openFromHash);
  win.addEventListener('pagehide', flush);
  return () => {
    unsubscribe();
    flush();
    win.removeEventListener('hashchange', openFromHash);
    win.removeEventListener('pagehide', flush);
  };
}
