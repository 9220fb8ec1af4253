import { useMemo } from 'react';
import type { NodeId, NodeSummary } from '../../../shared/model';
import { useAppState } from '../app/app-context';

/** The open graph's summary of a node (its label and kind), looked up once per graph. */
export function useNodeSummary(nodeId: NodeId | null): NodeSummary | null {
  const graph = useAppState((s) => s.graph);
  return useMemo(() => (nodeId === null ? null : (graph?.nodes.find((node) => node.id === nodeId) ?? null)), [graph, nodeId]);
}

export function NodeName({ node, nodeId }: { readonly node: NodeSummary | null; readonly nodeId: NodeId }) {
  return (
    <span className="tt-node-name" title={node?.label ?? nodeId}>
      {node ? `“${node.label}”` : nodeId}
    </span>
  );
}
