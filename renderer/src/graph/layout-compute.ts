/** The work the layout worker does, callable directly for the synchronous fallback. */
import type { FoldId } from '../../../shared/graph/folds';
import { layoutSession, type SessionLayout } from '../../../shared/graph/session-layout';
import { buildSessionStructure, type SessionStructure } from '../../../shared/graph/session-structure';
import type { GraphNode, NodeLinks } from '../../../shared/graph/session-tree';
import type { WorkspaceNodeInfo } from '../../../shared/operations';
import { structureArrays, type StructureArrays } from './layout-protocol';

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

export function computeLayout(structure: SessionStructure, expanded: readonly FoldId[], hide: Uint8Array | null = null): SessionLayout {
  return layoutSession(structure, new Set(expanded), hide);
}

export type { StructureArrays };
