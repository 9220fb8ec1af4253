import { useStore } from 'zustand';
import type { WorkspaceChanges } from '../../../shared/operations';
import { plural } from '../app/format';
import { MergeContinue } from './MergeContinue';
import type { MergeSession } from './merge-session';

function ChangeList({ changes }: { changes: WorkspaceChanges }) {
  const groups: Array<[string, readonly string[]]> = [
    ['Written', changes.written],
    ['Created', changes.created],
    ['Deleted', changes.deleted],
  ];
  const total = changes.written.length + changes.created.length + changes.deleted.length;
  if (total === 0) return <p className="muted">No file had to change: the target already held the merge result.</p>;
  return (
    <div className="merge-outcome__changes">
      {groups
        .filter(([, paths]) => paths.length > 0)
        .map(([title, paths]) => (
          <section key={title}>
            <h3 className="section-title">
              {title} <span className="muted">{paths.length}</span>
            </h3>
            <ul className="merge-outcome__paths" data-testid={`outcome-${title.toLowerCase()}`}>
              {paths.map((path) => (
                <li key={path}>
                  <code>{path}</code>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}

/** After Apply: what was written, the merge node, and Undo. */
export function MergeOutcomeView({ session, onClose }: { session: MergeSession; onClose(): void }) {
  const outcome = useStore(session.store, (s) => s.outcome);
  const phase = useStore(session.store, (s) => s.phase);
  const undoOutcome = useStore(session.store, (s) => s.undoOutcome);
  const error = useStore(session.store, (s) => s.error);
  if (outcome?.status !== 'applied') return null;
  const undone = phase === 'undone' && undoOutcome?.status === 'applied';
  return (
    <div className="merge-outcome" data-testid="merge-outcome" data-phase={phase}>
      <div className="merge-outcome__card">
        {undone ? (
          <>
            <h2 className="merge-outcome__title" data-testid="merge-undone">
              Merge undone
            </h2>
            <p>
              <code className="break">{outcome.workspace}</code> is back as it was before the merge, byte for byte.
            </p>
            <ChangeList changes={undoOutcome} />
          </>
        ) : (
          <>
            <h2 className="merge-outcome__title">
              <span className="merge-outcome__check" aria-hidden="true">
                ✓
              </span>
              Merged into <code className="break">{outcome.workspace}</code>
            </h2>
            <p className="muted">
              {plural(outcome.written.length + outcome.created.length + outcome.deleted.length, 'file')} changed. A safety snapshot was taken first; Undo puts every
              byte back. The merge node with its two parents is selected in the graph.
            </p>
            <ChangeList changes={outcome} />
            <MergeContinue operation={outcome.operation} disabled={phase !== 'applied'} />
            {undoOutcome?.status === 'workspace-changed' ? (
              <div className="notice notice--warning" data-testid="undo-blocked">
                The target changed since the merge ({undoOutcome.changed.join(', ')}), so nothing was undone. Put those files back, or undo from the
                operations list later.
              </div>
            ) : null}
          </>
        )}
        {error !== null ? <div className="notice notice--warning">{error}</div> : null}
        <div className="merge-outcome__actions">
          {!undone ? (
            <button type="button" className="secondary-button" data-testid="merge-undo" disabled={phase !== 'applied'} onClick={() => void session.store.getState().undo()}>
              {phase === 'undoing' ? 'Undoing…' : 'Undo merge'}
            </button>
          ) : null}
          <button type="button" className="primary-button" data-testid="merge-done" onClick={onClose}>
            Done
          </button>
        </div>
        <p className="merge-outcome__node muted">
          Merge node <code data-testid="merge-node-id">{outcome.mergeNode}</code>
        </p>
      </div>
    </div>
  );
}
