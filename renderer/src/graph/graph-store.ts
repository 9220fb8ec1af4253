/**
 * The graph view's own state (one store per mounted view): the laid-out session, the user's fold
 * expansions, the keyboard cursor, the viewport, and the React Flow nodes/edges mounted for it.
 * Selection itself lives in the app store and arrives through props.
 */
import { applyNodeChanges, type Edge, type NodeChange } from '@xyflow/react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { absorbedLines, itemByNode, type FoldId } from '../../../shared/graph/folds';
import { DEFAULT_FILTERS, hideMask, type LineFilters } from '../../../shared/graph/line-filters';
import { classifyNoise } from '../../../shared/graph/noise';
import type { NodeKind, NodeSummary } from '../../../shared/model';
import type { SessionLayout } from '../../../shared/graph/session-layout';
import type { SessionStructure } from '../../../shared/graph/session-structure';
import { indexRows, type RowIndex } from '../../../shared/graph/viewport';
import { DETAIL_ZOOM, mountItems, NO_MARKS, type GraphFlowNode, type GraphMarks, type Viewport } from './mount-items';

/**
 * A pan or zoom that keeps the view inside what was mounted (mountItems mounts 200 layout units beyond
 * the pane; this keeps a little of that in hand) and on the same side of DETAIL_ZOOM needs no new mount:
 * React Flow only moves its transform. Remounting on every frame of a pan cost 20–30 fps at 50k nodes.
 */
const MOUNT_SLACK = 150;

function viewStaysMounted(mounted: Viewport, next: Viewport, width: number, height: number): boolean {
  if (mounted.zoom < DETAIL_ZOOM !== next.zoom < DETAIL_ZOOM) return false;
  const left = -next.x / next.zoom;
  const top = -next.y / next.zoom;
  return (
    left >= -mounted.x / mounted.zoom - MOUNT_SLACK &&
    top >= -mounted.y / mounted.zoom - MOUNT_SLACK &&
    left + width / next.zoom <= (width - mounted.x) / mounted.zoom + MOUNT_SLACK &&
    top + height / next.zoom <= (height - mounted.y) / mounted.zoom + MOUNT_SLACK
  );
}

export interface GraphViewState {
  readonly status: 'loading' | 'ready' | 'error';
  readonly error: string | null;
  readonly structure: SessionStructure | null;
  readonly layout: SessionLayout | null;
  readonly rows: RowIndex | null;
  readonly byNode: Int32Array | null;
  readonly expanded: ReadonlySet<FoldId>;
  /** The keyboard cursor (an item index), or -1. */
  readonly cursor: number;
  readonly selectedNode: number;
  readonly viewport: Viewport;
  readonly width: number;
  readonly height: number;
  readonly nodes: GraphFlowNode[];
  readonly edges: Edge[];
  /** False when zoomed out so far that some nodes in view are not drawn. */
  readonly complete: boolean;
  readonly marks: GraphMarks;
  /** What the toolbar hides (kinds, noise) and which hidden lines the user opened. */
  readonly filters: LineFilters;

  setLoading(): void;
  setFilters(filters: LineFilters): void;
  /** Opens the hidden lines that hang on a node (its annotation was clicked); false when there were none. */
  revealLinesOf(nodeIndex: number): boolean;
  setError(message: string): void;
  setLayout(structure: SessionStructure, layout: SessionLayout, expanded: ReadonlySet<FoldId>, cursor: number): void;
  setCursor(cursor: number): void;
  setSelectedNode(node: number): void;
  setViewport(viewport: Viewport): void;
  setSize(width: number, height: number): void;
  setMarks(marks: GraphMarks): void;
  onNodesChange(changes: NodeChange<GraphFlowNode>[]): void;
}

export type GraphStore = StoreApi<GraphViewState>;

interface NodeFacts {
  readonly kinds: readonly NodeKind[];
  readonly noise: Uint8Array;
}
const facts = new WeakMap<readonly NodeSummary[], NodeFacts>();

/** The layout's hide mask for a session's nodes under the toolbar's filters (noise classified once per graph). */
export function hideMaskFor(nodes: readonly NodeSummary[], filters: LineFilters): Uint8Array | null {
  let known = facts.get(nodes);
  if (!known) facts.set(nodes, (known = { kinds: nodes.map((node) => node.kind), noise: classifyNoise(nodes) }));
  return hideMask(known.kinds, known.noise, filters);
}

export function createGraphStore(): GraphStore {
  return createStore<GraphViewState>()((set, get) => {
    /** The viewport the mounted nodes were chosen for. */
    let mountedFor: Viewport | null = null;
    /** Recomputes what to mount after anything that changes it. */
    const remount = (patch: Partial<GraphViewState>): void => {
      const next = { ...get(), ...patch };
      if (next.structure === null || next.layout === null || next.rows === null || next.byNode === null) {
        set(patch);
        return;
      }
      mountedFor = next.viewport;
      const previous = new Map(next.nodes.map((node) => [node.id, node]));
      const mounted = mountItems({
        structure: next.structure,
        layout: next.layout,
        rows: next.rows,
        byNode: next.byNode,
        viewport: next.viewport,
        width: next.width,
        height: next.height,
        selectedNode: next.selectedNode,
        cursor: next.cursor,
        previous,
        marks: next.marks,
      });
      set({ ...patch, nodes: mounted.nodes, edges: mounted.edges, complete: mounted.complete });
    };
    return {
      status: 'loading',
      error: null,
      structure: null,
      layout: null,
      rows: null,
      byNode: null,
      expanded: new Set(),
      cursor: -1,
      selectedNode: -1,
      viewport: { x: 0, y: 0, zoom: 1 },
      // Until the container is measured (and in DOM-less tests) assume a typical pane.
      width: 1200,
      height: 800,
      nodes: [],
      edges: [],
      complete: true,
      marks: NO_MARKS,
      filters: DEFAULT_FILTERS,
      // Opened lines are node indices of the session being left: a new one starts with none.
      setLoading: () => set({ status: 'loading', error: null, filters: { ...get().filters, revealed: new Set() } }),
      setFilters: (filters) => set({ filters }),
      revealLinesOf: (nodeIndex) => {
        const { structure, filters } = get();
        if (!structure) return false;
        const lines = absorbedLines(structure, hideMaskFor(structure.nodes as readonly NodeSummary[], filters), nodeIndex);
        if (lines.length === 0) return false;
        set({ filters: { ...filters, revealed: new Set([...filters.revealed, ...lines]) } });
        return true;
      },
      setError: (message) => set({ status: 'error', error: message }),
      setLayout: (structure, layout, expanded, cursor) =>
        remount({
          status: 'ready',
          error: null,
          structure,
          layout,
          expanded,
          cursor,
          rows: indexRows(layout.layout),
          byNode: itemByNode(structure, layout.visible),
        }),
      setCursor: (cursor) => remount({ cursor }),
      setSelectedNode: (selectedNode) => remount({ selectedNode }),
      setViewport: (viewport) => {
        const { width, height } = get();
        if (mountedFor !== null && viewStaysMounted(mountedFor, viewport, width, height)) set({ viewport });
        else remount({ viewport });
      },
      setMarks: (marks) => remount({ marks }),
      setSize: (width, height) => {
        if (width > 0 && height > 0 && (width !== get().width || height !== get().height)) remount({ width, height });
      },
      // React Flow reports measurements and the like; keeping them avoids nodes stuck hidden (ELECTRON-SETUP.md §2).
      onNodesChange: (changes) => set({ nodes: applyNodeChanges(changes, get().nodes) }),
    };
  });
}
