/** What the layout worker computes per fold state: the visible graph and where each item sits. */
import { buildVisibleGraph, type FoldId, type VisibleGraph } from './folds';
import { layoutLanes, type LaneLayout } from './lane-layout';
import type { NodeId } from '../model';
import type { SessionStructure, StructureArrays } from './session-structure';

export interface SessionLayout {
  readonly visible: VisibleGraph;
  readonly layout: LaneLayout;
}

/** `hide`: 1 per node a filter leaves out; `idOf` for a structure without its nodes (see buildVisibleGraph). */
export function layoutSession(structure: SessionStructure, expanded: ReadonlySet<FoldId>, hide?: Uint8Array | null): SessionLayout;
export function layoutSession(structure: StructureArrays, expanded: ReadonlySet<FoldId>, hide: Uint8Array | null, idOf: (node: number) => NodeId): SessionLayout;
export function layoutSession(structure: SessionStructure | StructureArrays, expanded: ReadonlySet<FoldId>, hide: Uint8Array | null = null, idOf?: (node: number) => NodeId): SessionLayout {
  const visible = idOf === undefined ? buildVisibleGraph(structure as SessionStructure, expanded, hide) : buildVisibleGraph(structure, expanded, hide, idOf);
  return { visible, layout: layoutLanes(visible.forest) };
}
