/**
 * The session graph: the session's DAG as a top-down lane tree (@xyflow/react). Layout runs in a
 * worker; only the nodes near the viewport are mounted; folds, branch points, the root→selection path,
 * keyboard navigation. Selection is owned by the app and arrives through props.
 */
import {
  ControlButton,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type NodeMouseHandler,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import { itemShowingNode, revealNode, type FoldId } from '../../../shared/graph/folds';
import type { NodeId, SessionGraph, WorkspaceStateKnown } from '../../../shared/model';
import { createGraphStore, hideMaskFor, type GraphStore } from './graph-store';
import { GraphToolbar } from './GraphToolbar';
import { edgeTypes, nodeTypes } from './GraphNodes';
import { createLayoutEngine, type LayoutEngine } from './layout-engine';
import { sessionTrees } from '../state/session-trees';
import { DETAIL_ZOOM, flowIdOfItem, treeItemDomId, type GraphFlowNode } from './mount-items';
import { OverviewLayer } from './overview/OverviewLayer';
import { OverviewMinimap } from './overview/OverviewMinimap';
import { useSessionOverview } from './overview/use-session-overview';
import { CLICK_SLOP_PX, fitViewport, foldToToggle, itemViewport, keyToMove, OPEN_ZOOM, resizedViewport, revealViewport, unzoomStep } from './view-actions';
import './graph.css';
import './overview/overview.css';

export interface SessionGraphViewProps {
  graph: SessionGraph;
  /** The graph is the session's start only; the whole one follows (it opens as a refresh: camera and folds kept). */
  partial?: boolean;
  selectedNodeId: NodeId | null;
  onSelectNode(nodeId: NodeId): void;
  /** How each node's workspace state is known (markers); loaded after the graph shows. */
  nodeStates?: Readonly<Record<NodeId, WorkspaceStateKnown>> | null;
  /** The second node of a comparison, marked in the graph. */
  compareNodeId?: NodeId | null;
  /** Shift+click on a node: choose it as the other end of a comparison. */
  onCompareNode?(nodeId: NodeId): void;
}

export function SessionGraphView(props: SessionGraphViewProps) {
  return (
    <ReactFlowProvider>
      <GraphCanvas {...props} />
    </ReactFlowProvider>
  );
}

/** What React Flow mounts while the turn overview shows: nothing. */
const NO_NODES: GraphFlowNode[] = [];
const NO_EDGES: Edge[] = [];
/** One press of + or −, as React Flow's own buttons step. */
const ZOOM_STEP = 1.2;

function GraphCanvas({ graph, partial = false, selectedNodeId, onSelectNode, nodeStates = null, compareNodeId = null, onCompareNode }: SessionGraphViewProps) {
  const [store] = useState<GraphStore>(createGraphStore);
  const nodes = useStore(store, (s) => s.nodes);
  const edges = useStore(store, (s) => s.edges);
  const status = useStore(store, (s) => s.status);
  const error = useStore(store, (s) => s.error);
  const complete = useStore(store, (s) => s.complete);
  const structure = useStore(store, (s) => s.structure);
  const onNodesChange = useStore(store, (s) => s.onNodesChange);
  const cursor = useStore(store, (s) => s.cursor);
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  // The ARIA tree is React Flow's renderer (nodes and edges, not the zoom buttons or minimap); React Flow
  // offers no props for that, and never rewrites attributes it did not set.
  useLayoutEffect(() => markGraphTree(wrapper.current), []);
  const engine = useRef<LayoutEngine | null>(null);
  const generation = useRef(0);
  /** The last node this view selected itself: selections from elsewhere (search) reveal and centre. */
  const emitted = useRef<NodeId | null>(null);
  const selectedRef = useRef(selectedNodeId);
  selectedRef.current = selectedNodeId;

  /**
   * Keeps rings and glows about a constant size on screen (graph.css reads --graph-unzoom). In steps of
   * ~15%: the property is inherited, so each change restyles every mounted card, and setting it at every
   * frame of a zoom cost more main-thread time than all the rest of the frame (0.4 s in 2.5 s at 50k).
   */
  const unzoom = useRef('');
  const trackZoom = useCallback((zoom: number) => {
    const value = unzoomStep(zoom);
    if (value === unzoom.current) return;
    unzoom.current = value;
    wrapper.current?.style.setProperty('--graph-unzoom', value);
  }, []);

  // While the camera moves, the viewport is its own compositor layer: a pan or zoom moves pixels already
  // drawn instead of repainting every card each frame (software raster was ~12 ms a frame at 50k). Only
  // while moving, so the cards are drawn sharp again at the zoom the user stops at.
  const onMoveStart = useCallback(() => wrapper.current?.classList.add('is-moving'), []);
  const onMoveEnd = useCallback(() => wrapper.current?.classList.remove('is-moving'), []);

  /** A fit made before React Flow's viewport was ready, applied again once it is (see the open effect). */
  const pendingFit = useRef<Viewport | null>(null);
  const applyViewport = useCallback(
    (viewport: Viewport) => {
      pendingFit.current = null; // A newer camera move wins over a fit still waiting.
      void flow.setViewport(viewport);
      store.getState().setViewport(viewport);
      trackZoom(viewport.zoom);
    },
    [flow, store, trackZoom],
  );
  const overview = useSessionOverview(store, applyViewport);
  const overviewStoreRef = useRef(overview.overviewStore);

  /** Re-lays out with new expansions, keeping the cursor on the same node. */
  const relayout = useCallback(
    async (expanded: ReadonlySet<FoldId>, focusNode: number): Promise<boolean> => {
      const current = engine.current;
      const state = store.getState();
      if (!current || !state.structure) return false;
      const mine = ++generation.current;
      const layout = await current.layout(expanded, hideMaskFor(state.structure.nodes as SessionGraph['nodes'], store.getState().filters));
      if (mine !== generation.current) return false;
      const structureNow = store.getState().structure!;
      state.setLayout(structureNow, layout, expanded, -1);
      const after = store.getState();
      if (focusNode >= 0 && after.byNode) {
        after.setCursor(itemShowingNode(structureNow, layout.visible, after.byNode, focusNode));
      }
      return true;
    },
    [store],
  );

  // The open effect reads these through refs: useReactFlow() returns a new object once React Flow's
  // viewport initializes, and re-running the effect then threw the first layout away and started a
  // second worker (~400 ms more to a first graph). A fit made before that moment is applied again then.
  const applyViewportRef = useRef(applyViewport);
  applyViewportRef.current = applyViewport;
  const viewportReady = useRef(flow.viewportInitialized);
  viewportReady.current = flow.viewportInitialized;
  useEffect(() => {
    if (flow.viewportInitialized && pendingFit.current !== null) applyViewport(pendingFit.current);
  }, [flow.viewportInitialized, applyViewport]);

  // Open the session: build the structure and the first layout off the UI thread, then fit at a
  // readable zoom. A refresh of the same session (live import) keeps the user's folds and camera.
  const openedSession = useRef<string | null>(null);
  useEffect(() => {
    const current = createLayoutEngine();
    engine.current = current;
    const mine = ++generation.current;
    const refresh = openedSession.current === graph.session.id && store.getState().structure !== null;
    const expanded = refresh ? store.getState().expanded : new Set<FoldId>();
    if (!refresh) store.getState().setLoading();
    sessionTrees.getState().claim(graph); // the worker builds the tree the conversation reads too
    current
      .open(graph.nodes, expanded, graph.workspaceNodes ?? [], hideMaskFor(graph.nodes, store.getState().filters))
      .then((opened) => {
        if (mine !== generation.current) return;
        openedSession.current = graph.session.id;
        store.getState().setLayout(opened.structure, opened.layout, expanded, -1);
        sessionTrees.getState().publish(graph, opened.structure);
        // The turn overview (minimap, Fit) is built in the worker too: ~80 ms at 100k was a dropped frame here.
        current.overview().then(
          (built) => {
            if (engine.current === current) overviewStoreRef.current.getState().setOverview(opened.structure, built);
          },
          () => undefined, // built here on first need instead
        );
        if (refresh) {
          // Keep the keyboard cursor on the selection; indices may have shifted with the new nodes.
          const after = store.getState();
          const selected = selectedRef.current === null ? undefined : opened.structure.indexById.get(selectedRef.current);
          if (selected !== undefined && after.byNode) after.setCursor(itemShowingNode(opened.structure, opened.layout.visible, after.byNode, selected));
          return;
        }
        const { width, height } = store.getState();
        const fitted = fitViewport(opened.layout.layout, width, height, OPEN_ZOOM);
        applyViewportRef.current(fitted);
        if (!viewportReady.current) pendingFit.current = fitted;
      })
      .catch((cause: unknown) => {
        sessionTrees.getState().release(graph);
        if (mine === generation.current) store.getState().setError(cause instanceof Error ? cause.message : String(cause));
      });
    return () => {
      sessionTrees.getState().release(graph); // a no-op once published
      current.dispose();
      if (engine.current === current) engine.current = null;
    };
  }, [graph, store]);

  // Follow the app's selection; when it came from elsewhere, unfold to reveal it and centre on it.
  useEffect(() => {
    if (!structure) return;
    const index = selectedNodeId === null ? -1 : (structure.indexById.get(selectedNodeId) ?? -1);
    store.getState().setSelectedNode(index);
    if (index < 0 || selectedNodeId === emitted.current) return;
    emitted.current = selectedNodeId;
    void (async () => {
      const state = store.getState();
      const expanded = revealNode(structure, state.expanded, index);
      if (expanded !== state.expanded && !(await relayout(expanded, index))) return;
      const after = store.getState();
      if (!after.layout || !after.byNode) return;
      const item = itemShowingNode(structure, after.layout.visible, after.byNode, index);
      after.setCursor(item);
      overview.leave(); // a jump from search shows the node itself
      applyViewport(revealViewport(after.layout.layout, item, after.width, after.height, after.viewport));
    })();
  }, [selectedNodeId, structure, store, relayout, applyViewport, overview]);

  // A screen reader follows arrow-key moves through the tree's active descendant: the cursor's treeitem
  // (always mounted: mountItems counts the cursor as important), none while the overview shows.
  useEffect(() => {
    const tree = wrapper.current?.querySelector('.react-flow__renderer');
    if (!tree) return;
    const state = store.getState();
    const id = !overview.active && state.structure && state.layout && cursor >= 0 && cursor < state.layout.visible.count ? flowIdOfItem(state.structure, state.layout.visible, cursor) : null;
    if (id !== null && nodes.some((node) => node.id === id)) tree.setAttribute('aria-activedescendant', treeItemDomId(id));
    else tree.removeAttribute('aria-activedescendant');
  }, [store, cursor, nodes, overview.active]);

  // Markers ride along with the mounted items only (a lookup per mounted node, never a pass over all nodes).
  const workspaceKinds = useMemo(() => new Map((graph.workspaceNodes ?? []).map((info) => [info.nodeId, info.kind])), [graph]);
  const workspaceNodes = useMemo(() => new Map((graph.workspaceNodes ?? []).map((info) => [info.nodeId, info])), [graph]);
  useEffect(() => {
    store.getState().setMarks({ known: nodeStates, workspaceKinds, compareNodeId, workspaceNodes });
  }, [store, nodeStates, workspaceKinds, compareNodeId, workspaceNodes]);

  // Measure before the first layout arrives, so the first fit uses the pane's real size.
  const keepCentre = useRef<(before: number) => void>(() => undefined);
  keepCentre.current = (before: number) => {
    // The overview of a huge session keeps its own camera; a fit still waiting will place the graph itself.
    if (pendingFit.current !== null || overview.active) return;
    const state = store.getState();
    const item = state.byNode !== null && state.selectedNode >= 0 ? (state.byNode[state.selectedNode] ?? -1) : -1;
    applyViewport(resizedViewport(flow.getViewport(), before, state.width, state.layout?.layout ?? null, item));
  };
  useLayoutEffect(() => {
    const element = wrapper.current;
    if (!element) return;
    let width = -1;
    const measure = () => {
      // The canvas is the pane less the toolbar's strip (graph.css: padding-top, and the canvas's margin when
      // the strip wraps onto two rows).
      const canvas = element.querySelector<HTMLElement>('.react-flow');
      const height = canvas !== null ? canvas.clientHeight : element.clientHeight - (parseFloat(getComputedStyle(element).paddingTop) || 0);
      store.getState().setSize(element.clientWidth, height);
      // Graph → Both narrowed the pane from its right edge and the cards in its middle went under the
      // conversation: the camera keeps the pane's centre where it was (and the selected card in view).
      if (width > 0 && element.clientWidth !== width) keepCentre.current(width);
      width = element.clientWidth;
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [store]);

  const select = useCallback(
    (nodeId: NodeId) => {
      emitted.current = nodeId;
      onSelectNode(nodeId);
    },
    [onSelectNode],
  );

  const toggle = useCallback(
    (fold: FoldId, focusNode: number) => {
      const { expanded } = store.getState();
      const next = new Set(expanded);
      if (!next.delete(fold)) next.add(fold);
      void relayout(next, focusNode);
    },
    [store, relayout],
  );

  const onNodeClick: NodeMouseHandler<GraphFlowNode> = useCallback(
    (event, node) => {
      const state = store.getState();
      const index = state.structure?.indexById.get(node.data.nodeId) ?? -1;
      // A step's "+N" annotation opens the hidden lines that hang on it.
      if (event.target instanceof Element && event.target.closest('[data-testid="hidden-lines"]') && state.revealLinesOf(index)) {
        void relayout(state.expanded, index);
        return;
      }
      if (event.shiftKey && onCompareNode && node.data.foldId === null) {
        onCompareNode(node.data.nodeId);
        return;
      }
      if (node.data.foldId !== null) {
        toggle(node.data.foldId, index);
        return;
      }
      if (state.byNode && index >= 0) state.setCursor(state.byNode[index]!);
      select(node.data.nodeId);
    },
    [store, toggle, select, onCompareNode, relayout],
  );

  const fit = useCallback(() => {
    if (overview.fit()) return;
    const { layout, width, height } = store.getState();
    if (layout) applyViewport(fitViewport(layout.layout, width, height, 0.02));
  }, [store, applyViewport, overview]);

  /** The zoom buttons: the overview's camera while it shows (zooming in far enough opens steps, as the wheel does), else React Flow's. */
  const zoomIn = useCallback(() => {
    if (!overview.zoomBy(ZOOM_STEP)) void flow.zoomIn({ duration: 0 });
  }, [flow, overview]);
  const zoomOut = useCallback(() => {
    if (!overview.zoomBy(1 / ZOOM_STEP)) void flow.zoomOut({ duration: 0 });
  }, [flow, overview]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const state = store.getState();
      if (!state.structure || !state.layout) return;
      if (event.key === 'f' && !event.metaKey && !event.ctrlKey) {
        event.preventDefault();
        fit();
        return;
      }
      if (event.key === 'Enter' || event.key === ' ') {
        const fold = foldToToggle(state.structure, state.layout.visible, state.expanded, state.cursor);
        if (fold) {
          event.preventDefault();
          toggle(fold, state.layout.visible.node[state.cursor]!);
        }
        return;
      }
      const target = keyToMove(state.structure, state.layout.visible, state.cursor, event.key, event.shiftKey);
      if (target === null) return;
      event.preventDefault();
      if (target < 0) return;
      state.setCursor(target);
      const visible = state.layout.visible;
      if (visible.kind[target] === 0) select(state.structure.nodes[visible.node[target]!]!.id);
      const after = store.getState();
      // From the overview or a zoom too far out to read, a move brings the camera to a readable level.
      const closer = overview.leave() || after.viewport.zoom < DETAIL_ZOOM;
      const zoom = closer ? OPEN_ZOOM : after.viewport.zoom;
      applyViewport(itemViewport(state.layout.layout, target, after.width, after.height, zoom, closer ? undefined : after.viewport));
    },
    [store, fit, toggle, select, applyViewport, overview],
  );

  const onMove = useCallback(
    (_event: unknown, viewport: Viewport) => {
      store.getState().setViewport(viewport);
      trackZoom(viewport.zoom);
      overview.onStepsMoved(viewport);
    },
    [store, trackZoom, overview],
  );

  return (
    <div className="session-graph" data-testid="graph" ref={wrapper} tabIndex={-1} onKeyDown={onKeyDown}>
      <ReactFlow
        nodes={overview.active ? NO_NODES : nodes}
        edges={overview.active ? NO_EDGES : edges}
        onNodesChange={onNodesChange}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        onMove={onMove}
        onMoveStart={onMoveStart}
        onMoveEnd={onMoveEnd}
        minZoom={0.02}
        maxZoom={2}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        // Shift+click chooses a node to compare; no rubber-band selection may swallow it.
        selectionKeyCode={null}
        // Keyboard focus lives on the wrapper (its own arrow-key navigation), not on hundreds of node tab stops.
        nodesFocusable={false}
        edgesFocusable={false}
        // d3-zoom swallows the click after any pointer travel beyond this; a hand is never perfectly still.
        paneClickDistance={CLICK_SLOP_PX}
        zoomOnDoubleClick={false}
        panOnScroll
        zoomActivationKeyCode={['Control', 'Meta']}
        onlyRenderVisibleElements
        disableKeyboardA11y
        proOptions={{ hideAttribution: true }}
      >
        {/* No dot grid: it moved with the camera and so repainted the whole pane at every frame of a pan. */}
        <OverviewLayer store={store} overviewStore={overview.overviewStore} workspaceKinds={workspaceKinds} onSelectNode={select} onOpenSteps={overview.openSteps} />
        <OverviewMinimap store={store} overviewStore={overview.overviewStore} onJump={overview.jumpToTurn} />
        <Controls showZoom={false} showFitView={false} showInteractive={false}>
          {/* Our own +/−: React Flow's move the step graph's camera, hidden while the overview shows. */}
          <ControlButton className="react-flow__controls-zoomin" onClick={zoomIn} title="Zoom in" aria-label="Zoom in">
            <PlusIcon />
          </ControlButton>
          <ControlButton className="react-flow__controls-zoomout" onClick={zoomOut} title="Zoom out" aria-label="Zoom out">
            <MinusIcon />
          </ControlButton>
          <ControlButton onClick={fit} title="Fit whole session (F)" aria-label="Fit whole session">
            <FitIcon />
          </ControlButton>
        </Controls>
      </ReactFlow>
      <GraphToolbar store={store} onChange={() => void relayout(store.getState().expanded, store.getState().selectedNode)} />
      {status === 'loading' ? <div className="session-graph__status">Laying out {graph.nodes.length.toLocaleString()} nodes…</div> : null}
      {status === 'error' ? <div className="session-graph__status is-error">The graph could not be laid out: {error}</div> : null}
      {status === 'ready' && partial ? (
        <div className="session-graph__arriving" role="status" data-testid="graph-arriving">
          Showing the first {graph.nodes.length.toLocaleString()} of {Math.max(graph.session.nodeCount, graph.nodes.length).toLocaleString()} nodes; the rest is loading…
        </div>
      ) : null}
      {status === 'ready' && !complete && !overview.active ? (
        <div className="session-graph__hint" data-testid="graph-lod-hint">
          Zoomed out: showing key steps only. Zoom in for every node.
        </div>
      ) : null}
    </div>
  );
}

/** The keyboard's stop and the screen reader's tree: the renderer holds the treeitems; edges are drawing. */
function markGraphTree(root: HTMLElement | null): void {
  root?.querySelector('.react-flow')?.setAttribute('role', 'none');
  const tree = root?.querySelector('.react-flow__renderer');
  tree?.setAttribute('role', 'tree');
  tree?.setAttribute('aria-label', 'Session graph');
  tree?.setAttribute('tabindex', '0');
  root?.querySelector('.react-flow__edges')?.setAttribute('aria-hidden', 'true');
}

function PlusIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path d="M8 2.5v11M2.5 8h11" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

function MinusIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path d="M2.5 8h11" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/** Four corners: fit everything in view (inline, so no font has to carry an arrow glyph). */
function FitIcon() {
  return (
    <svg className="session-graph__fit-icon" viewBox="0 0 16 16" aria-hidden="true">
      <path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
