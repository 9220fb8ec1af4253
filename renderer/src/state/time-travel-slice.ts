import type { NodeId, SessionId, WorkspaceStateKnown } from '../../../shared/model';
import type { SliceCreator } from './app-state';

/** Which time-travel dialog is open: one at a time, each about one node (or, for forks and history, about all of them). */
export type TimeTravelDialog =
  | { readonly kind: 'rewind'; readonly nodeId: NodeId }
  | { readonly kind: 'fork'; readonly nodeId: NodeId }
  | { readonly kind: 'compare'; readonly nodeIdA: NodeId; readonly nodeIdB: NodeId }
  | { readonly kind: 'forks' }
  | { readonly kind: 'history' };

export type InspectorTab = 'content' | 'files';

export interface TimeTravelSlice {
  /** How each node's workspace state is known, for the graph's markers; null until loaded. */
  readonly nodeStates: Readonly<Record<NodeId, WorkspaceStateKnown>> | null;
  /** The session `nodeStates` belongs to. */
  readonly nodeStatesSession: SessionId | null;
  readonly timeTravelDialog: TimeTravelDialog | null;
  readonly inspectorTab: InspectorTab;
  /** Loads `sessions.states` in the background; the graph never waits for it. Newest call wins. */
  loadNodeStates(sessionId: SessionId): Promise<void>;
  openTimeTravel(dialog: TimeTravelDialog): void;
  closeTimeTravel(): void;
  setInspectorTab(tab: InspectorTab): void;
}

export const createTimeTravelSlice: SliceCreator<TimeTravelSlice> = (client) => (set, get) => {
  let statesRequest: AbortController | null = null;
  return {
    nodeStates: null,
    nodeStatesSession: null,
    timeTravelDialog: null,
    inspectorTab: 'content',
    async loadNodeStates(sessionId) {
      statesRequest?.abort();
      const request = (statesRequest = new AbortController());
      if (get().nodeStatesSession !== sessionId) set({ nodeStates: null, nodeStatesSession: sessionId });
      try {
        const { known } = await client.call('sessions.states', { sessionId }, { signal: request.signal });
        if (request.signal.aborted || get().selectedSessionId !== sessionId) return;
        set({ nodeStates: known, nodeStatesSession: sessionId });
      } catch (error) {
        // Markers are a hint: a failure leaves them off and says why, the graph stays usable.
        if (!request.signal.aborted) get().reportError(error, 'Could not tell how workspace states are known');
      }
    },
    openTimeTravel(dialog) {
      set({ timeTravelDialog: dialog });
    },
    closeTimeTravel() {
      set({ timeTravelDialog: null });
    },
    setInspectorTab(tab) {
      set({ inspectorTab: tab });
    },
  };
};
