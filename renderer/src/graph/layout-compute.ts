/** The work the layout worker does, callable directly for the synchronous fallback. */
import type { FoldId } from '../../../shared/graph/folds';
import { columnsOfNodes, columnsOfPacked, type GraphColumns } from '../../../shared/graph/graph-columns';
import type { PackedGraphNodes } from '../../../shared/graph/packed-nodes';
import { layoutSession, type SessionLayout } from '../../../shared/graph/session-layout';
import { buildSessionStructure, structureOfColumns, type SessionStructure, type StructureArrays } from '../../../shared/graph/session-structure';
import type { GraphNode, NodeLinks } from '../../../shared/graph/session-tree';
import type { WorkspaceNodeInfo } from '../../../shared/operations';
import { structureArrays } from './layout-protocol';

export function openStructure(
  nodes: readonly GraphNode[],
  expanded: readonly FoldId[],
  workspaceNodes: readonly WorkspaceNodeInfo[] = [],
  hide: Uint8Array | null = null,
  links?: NodeLinks,
) {
  const structure = buildSessionStructure(nodes, undefined, workspaceNodes, links);
  return { structure, arrays: structureArrays(structure), layout: layoutSession(structure, new Set(expanded), hide) };
}

/** What the worker keeps of an opened session: the structure's arrays and its nodes' ids, read from the columns it came as. */
export interface OpenedColumns {
  readonly arrays: StructureArrays;
  readonly columns: GraphColumns;
}

/**
 * The worker's open: the structure straight from the nodes as they were posted (packed columns, read in place),
 * never rebuilding a node object per node, and its first layout.
 */
export function openColumns(
  nodes: PackedGraphNodes | readonly GraphNode[],
  expanded: readonly FoldId[],
  workspaceNodes: readonly WorkspaceNodeInfo[] = [],
  hide: Uint8Array | null = null,
): OpenedColumns & { layout: SessionLayout; timing: { structure: number; layout: number } } {
  const started = performance.now();
  const columns = Array.isArray(nodes) ? columnsOfNodes(nodes as readonly GraphNode[]) : columnsOfPacked(nodes as PackedGraphNodes);
  const arrays = structureOfColumns(columns, undefined, workspaceNodes);
  const built = performance.now();
  const layout = layoutSession(arrays, new Set(expanded), hide, columns.idOf);
  return { arrays, columns, layout, timing: { structure: built - started, layout: performance.now() - built } };
}

export function computeLayout(structure: SessionStructure, expanded: readonly FoldId[], hide: Uint8Array | null = null): SessionLayout {
  return layoutSession(structure, new Set(expanded), hide);
}

/** A later layout (folds or filters changed) of a session the worker opened. */
export function layoutColumns(opened: OpenedColumns, expanded: readonly FoldId[], hide: Uint8Array | null = null): SessionLayout {
  return layoutSession(opened.arrays, new Set(expanded), hide, opened.columns.idOf);
}

export type { StructureArrays };
