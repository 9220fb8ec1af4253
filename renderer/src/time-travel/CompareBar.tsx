import { useAppState } from '../app/app-context';
import './time-travel.css';
import { NodeName, useNodeSummary } from './use-node-summary';

/**
 * Shown while a second node is chosen (Shift+click): which two nodes, and what to do with them.
 * Other actions on the pair (e.g. "Merge…") belong here beside "Compare files".
 */
export function CompareBar({ children }: { readonly children?: React.ReactNode }) {
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const compareNodeId = useAppState((s) => s.compareNodeId);
  const setCompareNode = useAppState((s) => s.setCompareNode);
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  const selected = useNodeSummary(selectedNodeId);
  const compared = useNodeSummary(compareNodeId);
  if (compareNodeId === null) return null;
  const ready = selectedNodeId !== null && selectedNodeId !== compareNodeId;
  return (
    <div className="compare-bar" data-testid="compare-bar" role="region" aria-label="Comparison">
      <span className="compare-bar__label">Compare</span>
      {ready ? <NodeName node={selected} nodeId={selectedNodeId} /> : <span className="muted">select another node</span>}
      <span className="compare-bar__arrow" aria-hidden="true">
        →
      </span>
      <span className="compare-bar__other">
        <NodeName node={compared} nodeId={compareNodeId} />
      </span>
      <div className="compare-bar__actions">
        <button
          type="button"
          className="primary-button compare-bar__button"
          data-testid="compare-open"
          disabled={!ready}
          onClick={() => ready && openTimeTravel({ kind: 'compare', nodeIdA: selectedNodeId, nodeIdB: compareNodeId })}
        >
          Compare files
        </button>
        {children}
        <button type="button" className="compare-bar__close" aria-label="Stop comparing" title="Stop comparing" onClick={() => setCompareNode(null)}>
          ×
        </button>
      </div>
    </div>
  );
}
