/** What the layout worker computes per fold state: the visible graph and where each item sits. */
import { buildVisibleGraph, type FoldId, type VisibleGraph } from './folds';
import { layoutLanes, type LaneLayout } from './lane-layout';
import type { SessionStructure } from './session-structure';

export interface SessionLayout {
  readonly visible: VisibleGraph;
  readonly layout: LaneLayout;
}

export function layoutSession(structure: SessionStructure, expanded: ReadonlySet<FoldId>): SessionLayout {
  const visible = buildVisibleGraph(structure, expanded);
  return { visible, layout: layoutLanes(visible.forest) };
}
