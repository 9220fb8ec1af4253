import { useCallback, useEffect, useState } from 'react';
import type { ForkSummary } from '../../../shared/operations';
import { useAppState, useArborClient } from '../app/app-context';
import { absoluteTime, relativeTime } from '../app/format';
import { formatBytes } from '../files/format-bytes';
import { CopyButton } from './CopyButton';
import { ErrorBox } from './ErrorBox';
import { Modal } from './Modal';
import { resumeLine } from './resume-command';
import { NodeName, useNodeSummary } from './use-node-summary';

/** Every fork Arbor made, with its size on disk; removing one deletes its folder, transcript and branch. */
export function ForksDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useArborClient();
  const openSession = useAppState((s) => s.openSession);
  const refreshGraph = useAppState((s) => s.refreshGraph);
  const [forks, setForks] = useState<readonly ForkSummary[] | null>(null);
  const [error, setError] = useState<{ error: unknown; what: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const result = await client.call('forks.list', {});
      setForks(result.forks);
    } catch (cause) {
      setError({ error: cause, what: 'The forks could not be listed.' });
    }
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (fork: ForkSummary) => {
    setError(null);
    setRemoving(fork.fork);
    try {
      const result = await client.call('forks.remove', { forkIds: [fork.fork] });
      const problem = result.problems.find((p) => p.fork === fork.fork);
      if (problem) setError({ error: new Error(problem.message), what: `${fork.dir} was not removed completely.` });
      await load();
      await refreshGraph();
    } catch (cause) {
      setError({ error: cause, what: 'The fork could not be removed.' });
    } finally {
      setRemoving(null);
      setConfirming(null);
    }
  };

  let body: React.ReactNode;
  if (forks === null) body = error ? null : <div className="tt-loading">Looking for forks…</div>;
  else if (forks.length === 0) body = <div className="tt-empty">No forks yet. Select a node and choose “Fork from here” to start one.</div>;
  else
    body = (
      <ul className="tt-forks" data-testid="forks-list">
        {forks.map((fork) => (
          <li key={fork.fork} className="tt-fork" data-testid="fork-row" data-fork-id={fork.fork}>
            <div className="tt-fork__main">
              <code className="tt-dir tt-fork__dir" title={fork.dir}>
                {fork.dir}
              </code>
              <div className="tt-fork__meta">
                <span className="badge" data-testid="fork-size">
                  {fork.bytes === null ? 'folder gone' : formatBytes(fork.bytes)}
                </span>
                <span title={absoluteTime(fork.createdAt)}>created {relativeTime(fork.createdAt)}</span>
                <ForkOrigin fork={fork} />
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    onClose();
                    void openSession(fork.sessionId, fork.branch);
                  }}
                >
                  Show in graph
                </button>
              </div>
              {fork.resume ? (
                <div className="tt-command tt-command--small">
                  <code>{resumeLine(fork.dir, fork.resume)}</code>
                  <CopyButton text={resumeLine(fork.dir, fork.resume)} />
                </div>
              ) : null}
            </div>
            <div className="tt-fork__actions">
              {confirming === fork.fork ? (
                <>
                  <span className="tt-fork__confirm">Delete the folder, its transcript and its branch?</span>
                  <button type="button" className="secondary-button" onClick={() => setConfirming(null)} disabled={removing !== null}>
                    Keep
                  </button>
                  <button type="button" className="danger-button" data-testid="fork-remove-confirm" onClick={() => void remove(fork)} disabled={removing !== null}>
                    {removing === fork.fork ? 'Removing…' : 'Remove'}
                  </button>
                </>
              ) : (
                <button type="button" className="secondary-button" data-testid="fork-remove" onClick={() => setConfirming(fork.fork)} disabled={removing !== null}>
                  Remove…
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <Modal
      title="Forks"
      onClose={onClose}
      busy={removing !== null}
      size="list"
      testId="forks-dialog"
      footer={
        <button type="button" className="primary-button" data-autofocus onClick={onClose}>
          Close
        </button>
      }
    >
      {error ? <ErrorBox error={error.error} what={error.what} /> : null}
      {body}
    </Modal>
  );
}

/** "from “prompt…”" when the fork's node is in the open session. */
function ForkOrigin({ fork }: { readonly fork: ForkSummary }) {
  const node = useNodeSummary(fork.nodeId);
  if (!node) return null;
  return (
    <span className="tt-fork__origin">
      from <NodeName node={node} nodeId={fork.nodeId} />
    </span>
  );
}

/** The header's way to the forks list. */
export function ForksButton() {
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  return (
    <button type="button" className="secondary-button header-button" data-testid="open-forks" onClick={() => openTimeTravel({ kind: 'forks' })}>
      Forks
    </button>
  );
}
