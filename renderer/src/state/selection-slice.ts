import type { NodeDetail, NodeId, SessionGraph, SessionId } from '../../../shared/model';
import { ArborError } from '../../../shared/errors';
import { markGraphStage } from '../client/graph-timing';
import type { LoadStatus, SliceCreator } from './app-state';

export interface SelectionSlice {
  readonly selectedSessionId: SessionId | null;
  readonly selectedNodeId: NodeId | null;
  readonly graph: SessionGraph | null;
  readonly graphStatus: LoadStatus;
  /**
   * True while `graph` is a big session's start only (its first page of nodes), shown while the rest is on
   * its way; the whole graph replaces it.
   */
  readonly graphPartial: boolean;
  readonly nodeDetail: NodeDetail | null;
  readonly nodeStatus: LoadStatus;
  /**
   * A second node chosen beside the selected one (Shift+click in the graph): the other end of "Compare" and
   * "Merge…". Cleared when another session opens.
   */
  readonly compareNodeId: NodeId | null;
  /** Opens a session's graph; with `nodeId`, selects that node too (search hits do this). */
  openSession(sessionId: SessionId, nodeId?: NodeId | null): Promise<void>;
  selectNode(nodeId: NodeId | null): Promise<void>;
  setCompareNode(nodeId: NodeId | null): void;
  /** Reloads the open session's graph in place (after 'sessions.changed'), keeping the selection. */
  refreshGraph(): Promise<void>;
  /** Closes these sessions if one is open (they were deleted): the app then opens another. */
  closeSessions(sessionIds: readonly SessionId[]): Promise<void>;
}

export const createSelectionSlice: SliceCreator<SelectionSlice> = (client) => (set, get) => {
  // Only the newest request of each kind may land; older ones are aborted.
  let graphRequest: AbortController | null = null;
  let nodeRequest: AbortController | null = null;

  const loadGraph = async (sessionId: SessionId, quiet: boolean): Promise<void> => {
    graphRequest?.abort();
    const request = (graphRequest = new AbortController());
    if (!quiet) set({ graphStatus: 'loading' });
    try {
      const current = () => !request.signal.aborted && get().selectedSessionId === sessionId;
      let shownPartial = false;
      const show = (graph: SessionGraph, partial: boolean): void => {
        set({ graph, graphStatus: 'ready', graphPartial: partial });
        // The marks time the first view: the whole graph after a partial one is not it.
        if (!shownPartial) markGraphStage('stored');
        shownPartial ||= partial;
        // A freshly opened session starts at its first prompt, so the inspector is never blank.
        if (!quiet && get().selectedNodeId === null) {
          const start = graph.nodes.find((n) => n.kind === 'user') ?? graph.nodes[0];
          if (start) void get().selectNode(start.id);
        }
      };
      // A refresh (quiet) keeps the whole graph on screen until the new whole one is in.
      const onPartialGraph = quiet
        ? undefined
        : (partial: SessionGraph) => {
            if (current()) show(partial, true);
          };
      const graph = await client.call('sessions.graph', { sessionId }, { signal: request.signal, onPartialGraph });
      if (!current()) return;
      show(graph, false);
    } catch (error) {
      if (request.signal.aborted) return;
      get().reportError(error, 'Could not open the session');
      if (quiet) return;
      // A session that no longer exists (stale link, deleted) closes, so another one can open.
      if (error instanceof ArborError && error.code === 'NOT_FOUND' && get().selectedSessionId === sessionId) {
        set({ selectedSessionId: null, graph: null, graphStatus: 'idle', graphPartial: false });
        await get().selectNode(null);
      } else {
        set({ graphStatus: 'error', graph: null, graphPartial: false });
      }
    }
  };

  return {
    selectedSessionId: null,
    selectedNodeId: null,
    graph: null,
    graphStatus: 'idle',
    graphPartial: false,
    nodeDetail: null,
    nodeStatus: 'idle',
    compareNodeId: null,
    setCompareNode(nodeId) {
      set({ compareNodeId: nodeId });
    },
    async closeSessions(sessionIds) {
      const open = get().selectedSessionId;
      if (open === null || !sessionIds.includes(open)) return;
      graphRequest?.abort();
      set({ selectedSessionId: null, graph: null, graphStatus: 'idle', graphPartial: false, compareNodeId: null });
      await get().selectNode(null);
    },
    async openSession(sessionId, nodeId = null) {
      if (get().selectedSessionId === sessionId && get().graphStatus !== 'error') {
        if (nodeId !== null) await get().selectNode(nodeId);
        return;
      }
      set({ selectedSessionId: sessionId, graph: null, graphPartial: false, compareNodeId: null });
      await Promise.all([get().selectNode(nodeId), loadGraph(sessionId, false)]);
    },
    async selectNode(nodeId) {
      nodeRequest?.abort();
      if (nodeId === null) {
        nodeRequest = null;
        set({ selectedNodeId: null, nodeDetail: null, nodeStatus: 'idle' });
        return;
      }
      const request = (nodeRequest = new AbortController());
      set({ selectedNodeId: nodeId, nodeStatus: 'loading' });
      try {
        const detail = await client.call('nodes.get', { nodeId }, { signal: request.signal });
        if (request.signal.aborted) return;
        set({ nodeDetail: detail, nodeStatus: 'ready' });
      } catch (error) {
        if (request.signal.aborted) return;
        set({ nodeDetail: null, nodeStatus: 'error' });
        get().reportError(error, 'Could not load the node');
      }
    },
    async refreshGraph() {
      const sessionId = get().selectedSessionId;
      if (sessionId !== null) await loadGraph(sessionId, true);
    },
  };
};
