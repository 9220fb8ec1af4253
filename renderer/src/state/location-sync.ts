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

export function syncSelectionWithHash(store: AppStore, win: HashWindow): () => void {
  const openFromHash = () => {
    const { sessionId, nodeId } = parseHash(win.location.hash);
    const state = store.getState();
    if (sessionId === null || (sessionId === state.selectedSessionId && nodeId === state.selectedNodeId)) return;
    void state.openSession(sessionId, nodeId);
  };
  openFromHash();
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.selectedSessionId === previous.selectedSessionId && state.selectedNodeId === previous.selectedNodeId) return;
    const hash = formatHash({ sessionId: state.selectedSessionId, nodeId: state.selectedNodeId });
    if (hash !== win.location.hash) {
      // replaceState: every click must not become a history entry; the token in the query is kept.
      win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${hash}`);
    }
  });
  win.addEventListener('hashchange', openFromHash);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', openFromHash);
  };
}
