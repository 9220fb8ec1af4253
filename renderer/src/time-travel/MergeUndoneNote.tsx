import { useEffect, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import { useAppState, useArborClient } from '../app/app-context';
import { relativeTime } from '../app/format';

/**
 * On a merge node whose merge was undone: says so, since the node stays in the graph as a record.
 * Asked of the journal when the node is selected, when the graph is refreshed and whenever a dialog closes
 * (an undo may have run).
 */
export function MergeUndoneNote({ nodeId }: { readonly nodeId: NodeId }) {
  const client = useArborClient();
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  // A refreshed graph (as after an undo from the merge view) asks again.
  const graph = useAppState((s) => s.graph);
  const dir = graph?.workspaceNodes?.find((info) => info.nodeId === nodeId && info.kind === 'merge')?.dir ?? null;
  const dialogOpen = useAppState((s) => s.timeTravelDialog !== null);
  const [undoneAt, setUndoneAt] = useState<string | null>(null);

  useEffect(() => {
    setUndoneAt(null);
    if (dir === null || dialogOpen) return;
    const request = new AbortController();
    client
      .call('operations.list', { workspace: dir }, { signal: request.signal })
      .then(({ operations }) => {
        if (request.signal.aborted) return;
        const merge = operations.find((operation) => operation.kind === 'merge' && operation.nodeId === nodeId);
        if (merge?.status !== 'undone') return;
        const undo = operations.find((operation) => operation.undoes === merge.operation);
        setUndoneAt(undo?.createdAt ?? merge.createdAt);
      })
      // A hint only: without the journal the node reads as it always did.
      .catch(() => undefined);
    return () => request.abort();
  }, [client, graph, dir, nodeId, dialogOpen]);

  if (undoneAt === null || dir === null) return null;
  return (
    <div className="tt-merge-undone" role="note" data-testid="merge-undone-note">
      This merge was undone {relativeTime(undoneAt)}: its result is no longer in <code className="tt-dir">{dir}</code>. The node stays as a record.{' '}
      <button type="button" className="link-button" onClick={() => openTimeTravel({ kind: 'history' })}>
        History
      </button>
    </div>
  );
}
