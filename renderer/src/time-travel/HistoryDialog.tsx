import { useCallback, useEffect, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import type { OperationOutcome, OperationSummary } from '../../../shared/operations';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { absoluteTime, relativeTime } from '../app/format';
import { ChangedPathList, summarizeChanges } from './ChangeLists';
import { ErrorBox } from './ErrorBox';
import { Modal } from './Modal';
import { OPERATION_KIND_LABELS, OPERATION_STATUS_HINTS, OPERATION_STATUS_LABELS, undoHint, undoneBy } from './operation-history';
import { useMounted } from '../app/use-mounted';
import { ProgressLine } from './ProgressLine';
import { NodeName, useNodeSummary } from './use-node-summary';
import { useOperationProgress } from './use-operation-progress';

/** Newest first; older operations stay in the journal (and `arbor` lists them). */
const HISTORY_LIMIT = 200;

/**
 * Every rewind, merge and undo Arbor wrote into a workspace, newest first. An applied operation can be
 * undone from here at any later time, after its own dialog closed or in a later session.
 */
export function HistoryDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useArborClient();
  const store = useAppStoreApi();
  const [operations, setOperations] = useState<readonly OperationSummary[] | null>(null);
  const [error, setError] = useState<{ error: unknown; what: string } | null>(null);
  const [undoing, setUndoing] = useState<string | null>(null);
  /** What each undo started here answered, by the operation it was asked to undo. */
  const [outcomes, setOutcomes] = useState<Readonly<Record<string, OperationOutcome>>>({});
  const progress = useOperationProgress(client, undoing !== null);
  const alive = useMounted();

  const load = useCallback(async () => {
    try {
      const result = await client.call('operations.list', { limit: HISTORY_LIMIT });
      if (alive.current) setOperations(result.operations);
    } catch (cause) {
      if (alive.current) setError({ error: cause, what: 'The history could not be listed.' });
    }
  }, [alive, client]);
  useEffect(() => {
    void load();
  }, [load]);

  const undo = async (operation: OperationSummary) => {
    setError(null);
    setUndoing(operation.operation);
    try {
      const outcome = await client.call('operations.undo', { operationId: operation.operation });
      if (!alive.current) return;
      setOutcomes((known) => ({ ...known, [operation.operation]: outcome }));
      // The open graph draws merge nodes; an undone merge reads differently there (the inspector says so).
      if (outcome.status === 'applied' && operation.kind === 'merge') void store.getState().refreshGraph();
      await load();
    } catch (cause) {
      if (alive.current) setError({ error: cause, what: 'The undo failed.' });
    } finally {
      if (alive.current) setUndoing(null);
    }
  };

  const show = async (nodeId: NodeId) => {
    const state = store.getState();
    if (state.graph?.nodes.some((node) => node.id === nodeId)) {
      onClose();
      await state.selectNode(nodeId);
      return;
    }
    try {
      // Not in the open session: find the session it belongs to.
      const detail = await client.call('nodes.get', { nodeId });
      onClose();
      await state.openSession(detail.node.sessionId, nodeId);
    } catch (cause) {
      if (alive.current) setError({ error: cause, what: 'That node is not in any imported session.' });
    }
  };

  let body: React.ReactNode;
  if (operations === null) body = error ? null : <div className="tt-loading">Reading the history…</div>;
  else if (operations.length === 0)
    body = <div className="tt-empty">No operations yet. Rewinds and merges show here once applied, and can be undone from here later.</div>;
  else {
    const undoes = undoneBy(operations);
    const byId = new Map(operations.map((operation) => [operation.operation, operation]));
    body = (
      <ul className="tt-forks tt-history" data-testid="history-list">
        {operations.map((operation) => (
          <HistoryRow
            key={operation.operation}
            operation={operation}
            undoneBy={undoes.get(operation.operation) ?? null}
            reverses={operation.undoes === null ? null : (byId.get(operation.undoes) ?? null)}
            outcome={outcomes[operation.operation] ?? null}
            undoing={undoing === operation.operation}
            progress={undoing === operation.operation ? <ProgressLine label="Undoing" progress={progress} /> : null}
            disabled={undoing !== null}
            onUndo={() => void undo(operation)}
            onShow={(nodeId) => void show(nodeId)}
          />
        ))}
      </ul>
    );
  }

  return (
    <Modal
      title="History"
      onClose={onClose}
      busy={undoing !== null}
      size="list"
      testId="history-dialog"
      footer={
        <button type="button" className="primary-button" data-autofocus onClick={onClose} disabled={undoing !== null}>
          Close
        </button>
      }
    >
      {error ? <ErrorBox error={error.error} what={error.what} /> : null}
      {body}
    </Modal>
  );
}

interface HistoryRowProps {
  readonly operation: OperationSummary;
  /** The undo that reversed this operation, when it is in the list. */
  readonly undoneBy: OperationSummary | null;
  /** For an undo: the operation it reversed, when it is in the list. */
  readonly reverses: OperationSummary | null;
  readonly outcome: OperationOutcome | null;
  readonly undoing: boolean;
  readonly progress: React.ReactNode;
  readonly disabled: boolean;
  onUndo(): void;
  onShow(nodeId: NodeId): void;
}

function HistoryRow({ operation, undoneBy, reverses, outcome, undoing, progress, disabled, onUndo, onShow }: HistoryRowProps) {
  const kind = OPERATION_KIND_LABELS[operation.kind];
  return (
    <li
      className={`tt-fork tt-history__row is-${operation.status}`}
      data-testid="history-row"
      data-operation-id={operation.operation}
      data-kind={operation.kind}
      data-status={operation.status}
    >
      <div className="tt-fork__main">
        <div className="tt-history__title">
          <strong>{kind}</strong>
          <span className={`badge tt-history__status is-${operation.status}`} data-testid="history-status" title={OPERATION_STATUS_HINTS[operation.status]}>
            {OPERATION_STATUS_LABELS[operation.status]}
          </span>
          <code className="tt-dir" title={operation.workspace} data-testid="history-workspace">
            {operation.workspace}
          </code>
        </div>
        <div className="tt-fork__meta">
          <span data-testid="history-counts">{summarizeChanges(operation)}</span>
          <span title={absoluteTime(operation.createdAt)}>{relativeTime(operation.createdAt)}</span>
          {reverses !== null ? (
            <span className="muted">
              reverses the {OPERATION_KIND_LABELS[reverses.kind].toLowerCase()} of {relativeTime(reverses.createdAt)}
            </span>
          ) : null}
          {undoneBy !== null ? <span className="muted">undone {relativeTime(undoneBy.createdAt)}</span> : null}
        </div>
        {operation.nodeId !== null ? <OperationNode operation={operation} onShow={onShow} /> : null}
        {operation.kind === 'merge' && operation.status === 'undone' ? (
          <div className="muted tt-history__note" data-testid="history-merge-undone">
            The merge result was taken back out of the folder; its merge node stays in the graph as a record.
          </div>
        ) : null}
        {undoing ? progress : null}
        {outcome !== null ? <UndoOutcome outcome={outcome} undone={operation} /> : null}
      </div>
      <div className="tt-fork__actions">
        {operation.status === 'applied' ? (
          <button type="button" className="secondary-button" data-testid="history-undo" title={undoHint(operation)} disabled={disabled} onClick={onUndo}>
            {undoing ? 'Undoing…' : 'Undo'}
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** The operation's node: its label when the open session has it, and a way to it. */
function OperationNode({ operation, onShow }: { readonly operation: OperationSummary; readonly onShow: (nodeId: NodeId) => void }) {
  const nodeId = operation.nodeId!;
  const node = useNodeSummary(nodeId);
  return (
    <div className="tt-history__node">
      <span className="muted">{operation.kind === 'merge' ? 'merge node' : 'to'}</span>
      {node ? <NodeName node={node} nodeId={nodeId} /> : null}
      <button type="button" className="link-button" data-testid="history-show" onClick={() => onShow(nodeId)}>
        Show in graph
      </button>
    </div>
  );
}

function UndoOutcome({ outcome, undone }: { readonly outcome: OperationOutcome; readonly undone: OperationSummary }) {
  if (outcome.status === 'applied') {
    return (
      <div className="tt-done" role="status" data-testid="history-undone">
        Undone: {summarizeChanges(outcome)} put back in <code className="tt-dir">{outcome.workspace}</code>.
      </div>
    );
  }
  return (
    <div className="tt-changed" role="alert" data-testid="history-workspace-changed">
      <p>
        <strong>The workspace changed since this {OPERATION_KIND_LABELS[undone.kind].toLowerCase()}</strong>, so the undo stopped before writing
        anything. Put these files back as the operation left them (or keep them and leave the operation in place):
      </p>
      <ChangedPathList paths={outcome.changed} />
    </div>
  );
}

/** The header's way to the operation history. */
export function HistoryButton() {
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  return (
    <button
      type="button"
      className="secondary-button header-button"
      data-testid="open-history"
      title="Rewinds, merges and undos, with Undo"
      onClick={() => openTimeTravel({ kind: 'history' })}
    >
      History
    </button>
  );
}
