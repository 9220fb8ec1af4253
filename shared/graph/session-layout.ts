/** What the layout worker computes per fold state: the visible graph and where each item sits. */
import { buildVisibleGraph, type FoldId, type VisibleGraph } from './folds';
import { layoutLanes, type LaneLayout } from './lane-layout';
import type { SessionStructure } from './session-structure';

export interface SessionLayout {
  readonly visible: VisibleGraph;
  readonly layout: LaneLayout;
}

/** `hide`: 1 per node a filter leaves out (see buildVisibleGraph). */
export function layoutSession(structure: SessionStructure, expanded: ReadonlySet<FoldId>, hide: Uint8Array | null = null): SessionLayout {
  const visible = buildVisibleGraph(structure, expanded, hide);
  return { visible, layout: layoutLanes(visible.forest) };
}
