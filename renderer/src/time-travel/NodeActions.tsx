import type { NodeId } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { MergeUndoneNote } from './MergeUndoneNote';
import './time-travel.css';

/** The inspector's time-travel buttons for the selected node. */
export function NodeActions({ nodeId }: { readonly nodeId: NodeId }) {
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  return (
    <div className="node-actions" data-testid="node-actions">
      <button
        type="button"
        className="action-button"
        data-testid="action-rewind"
        title="Put the workspace back to this step (R). Shows exactly what changes before anything is written."
        onClick={() => openTimeTravel({ kind: 'rewind', nodeId })}
      >
        Rewind workspace to here <kbd>R</kbd>
      </button>
      <button
        type="button"
        className="action-button"
        data-testid="action-fork"
        title="Start a new branch from this step in a new folder (Shift+F)"
        onClick={() => openTimeTravel({ kind: 'fork', nodeId })}
      >
        Fork from here <kbd>⇧F</kbd>
      </button>
      <MergeUndoneNote nodeId={nodeId} />
    </div>
  );
}
