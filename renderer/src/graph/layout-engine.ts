/**
 * Runs the graph layout in a Web Worker (Vite bundles `layout.worker.ts`), or synchronously where
 * workers are unavailable (happy-dom tests). Both give the same answers through one interface.
 */
import type { FoldId } from '../../../shared/graph/folds';
import type { SessionLayout } from '../../../shared/graph/session-layout';
import type { SessionStructure } from '../../../shared/graph/session-structure';
import { toGraphNode } from '../../../shared/graph/session-tree';
import { buildTurnOverview, type TurnOverview } from '../../../shared/graph/turn-overview';
import type { NodeId, NodeSummary } from '../../../shared/model';
import type { WorkspaceNodeInfo } from '../../../shared/operations';
import { markGraphStage } from '../client/graph-timing';
import { computeLayout, openStructure } from './layout-compute';
import { packedNodesOf } from '../../../shared/graph/packed-nodes';
import {
  packGraphNodes,
  type LayoutRequest,
  type LayoutResponse,
  type OverviewRequest,
  type OverviewResponse,
  type StructureArrays,
  type WarmupRequest,
} from './layout-protocol';

export interface OpenedGraph {
  readonly structure: SessionStructure;
  readonly layout: SessionLayout;
}

export interface LayoutEngine {
  /** `workspaceNodes`: the graph's nodes Arbor added (SessionGraph.workspaceNodes). */
  /** `hide`: 1 per node the toolbar's filters leave out (shared/graph/line-filters.ts), or null. */
  open(
    nodes: readonly NodeSummary[],
    expanded: ReadonlySet<FoldId>,
    workspaceNodes?: readonly WorkspaceNodeInfo[],
    hide?: Uint8Array | null,
  ): Promise<OpenedGraph>;
  layout(expanded: ReadonlySet<FoldId>, hide?: Uint8Array | null): Promise<SessionLayout>;
  /** The opened session's turn overview, built where the layout runs (off the UI thread). */
  overview(): Promise<TurnOverview>;
  dispose(): void;
}

function indexNodes(nodes: readonly NodeSummary[]): Map<NodeId, number> {
  const indexById = new Map<NodeId, number>();
  for (let i = 0; i < nodes.length; i++) if (!indexById.has(nodes[i]!.id)) indexById.set(nodes[i]!.id, i);
  return indexById;
}

function withNodes(arrays: StructureArrays, nodes: readonly NodeSummary[], indexById = indexNodes(nodes)): SessionStructure {
  return { ...arrays, nodes, indexById };
}

function startWorker(): Worker {
  return new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
}

/** A worker started ahead of need, taken by the next engine. */
let spareWorker: Worker | null = null;

/**
 * Starts a layout worker now, while a session's nodes are still on their way: a new worker loads and
 * compiles its script for a few hundred ms, which would otherwise come after the nodes arrived. It then runs
 * its code once on a made-up session (layout-warmup.ts), so the first real open is not run cold.
 */
export function prewarmLayoutWorker(): void {
  if (spareWorker !== null || typeof Worker === 'undefined') return;
  try {
    spareWorker = startWorker();
    spareWorker.postMessage({ type: 'warm' } satisfies WarmupRequest);
  } catch {
    spareWorker = null;
  }
}

export function createLayoutEngine(): LayoutEngine {
  if (typeof Worker === 'undefined') return createSyncEngine();
  let worker: Worker;
  try {
    worker = spareWorker ?? startWorker();
    spareWorker = null;
  } catch {
    return createSyncEngine();
  }
  let nextId = 1;
  const pending = new Map<number, { resolve(response: LayoutResponse & { ok: true }): void; reject(error: Error): void }>();
  const overviews = new Map<number, { resolve(overview: TurnOverview): void; reject(error: Error): void }>();
  worker.onmessage = (event: MessageEvent<LayoutResponse | OverviewResponse>) => {
    const response = event.data;
    const overviewWaiter = overviews.get(response.id);
    if (overviewWaiter) {
      overviews.delete(response.id);
      if ('overview' in response) overviewWaiter.resolve(response.overview);
      else overviewWaiter.reject(new Error(response.ok ? 'no overview in the answer' : response.message));
      return;
    }
    if ('overview' in response) return;
    const waiter = pending.get(response.id);
    if (!waiter) return;
    pending.delete(response.id);
    if (response.ok) waiter.resolve(response);
    else waiter.reject(new Error(response.message));
  };
  worker.onerror = (event) => {
    for (const waiter of pending.values()) waiter.reject(new Error(event.message || 'layout worker failed'));
    pending.clear();
    for (const waiter of overviews.values()) waiter.reject(new Error(event.message || 'layout worker failed'));
    overviews.clear();
  };
  const send = (request: LayoutRequest, transfer: Transferable[] = []) =>
    new Promise<LayoutResponse & { ok: true }>((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  return {
    async open(nodes, expanded, workspaceNodes = [], hide = null) {
      // Only the fields the shape depends on cross to the worker (labels and tool calls stay here), packed: a
      // decoded graph brought its packed form (the client made it from the wire's columns), else pack here.
      // Its arrays are copied, not transferred: the nodes' links (session-tree.ts) keep using them here.
      let indexById = packedNodesOf(nodes) === undefined ? indexNodes(nodes) : undefined;
      const packed = packedNodesOf(nodes) ?? packGraphNodes(nodes, indexById!);
      const request = { id: nextId++, type: 'open', expanded: [...expanded], workspaceNodes, hide } as const;
      const answer = packed === null ? send({ ...request, nodes: nodes.map(toGraphNode) }) : send({ ...request, nodes: packed });
      markGraphStage('posted');
      // The view's id map is built while the worker builds the structure (the two run side by side).
      indexById ??= indexNodes(nodes);
      const response = await answer;
      markGraphStage('laid-out');
      if (response.timing) measureWorkerParts(response.timing);
      // The next session opened finds a worker loaded: started only now, so it does not compete with this open.
      prewarmLayoutWorker();
      return { structure: withNodes(response.structure!, nodes, indexById), layout: response.layout };
    },
    async layout(expanded, hide = null) {
      return (await send({ id: nextId++, type: 'layout', expanded: [...expanded], hide })).layout;
    },
    overview() {
      const id = nextId++;
      return new Promise<TurnOverview>((resolve, reject) => {
        overviews.set(id, { resolve, reject });
        worker.postMessage({ id, type: 'overview' } satisfies OverviewRequest);
      });
    },
    dispose() {
      worker.terminate();
      for (const waiter of pending.values()) waiter.reject(new Error('layout worker disposed'));
      pending.clear();
      for (const waiter of overviews.values()) waiter.reject(new Error('layout worker disposed'));
      overviews.clear();
    },
  };
}

/** The worker's own account of an open, as performance measures beside the arbor:graph:* marks (DevTools, the bench). */
function measureWorkerParts(timing: { readonly structure: number; readonly layout: number }): void {
  const perf = globalThis.performance as Performance | undefined;
  if (typeof perf?.measure !== 'function') return;
  for (const [part, ms] of Object.entries(timing)) {
    const name = `arbor:worker:${part}`;
    perf.clearMeasures?.(name);
    perf.measure(name, { start: 0, duration: ms });
  }
}

function createSyncEngine(): LayoutEngine {
  let structure: SessionStructure | null = null;
  return {
    async open(nodes, expanded, workspaceNodes = [], hide = null) {
      const opened = openStructure(nodes, [...expanded], workspaceNodes, hide);
      structure = withNodes(opened.arrays, nodes);
      return { structure, layout: opened.layout };
    },
    async layout(expanded, hide = null) {
      if (structure === null) throw new Error('layout requested before the session was opened');
      return computeLayout(structure, [...expanded], hide);
    },
    async overview() {
      if (structure === null) throw new Error('overview requested before the session was opened');
      return buildTurnOverview(structure);
    },
    dispose() {
      structure = null;
    },
  };
}
