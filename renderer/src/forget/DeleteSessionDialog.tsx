/**
 * Delete a session (issue 15, `arbor delete`): the dialog first asks the service what would go (a dry run) and
 * lists it — the steps, search entries and snapshots, the transcripts that stay on disk but are never imported
 * again, and the forks and continuations that go on from it. Those are refused unless "also delete" is ticked
 * (`--forks`), which takes them with their fork folders and transcripts. The deletion shows its progress, an
 * error stays in the dialog, and the list and the open session follow once it is done.
 */
import { useEffect, useRef, useState } from 'react';
import { DEPENDANT_KINDS, type SessionDeleteOutcome, type SessionDeletePlan } from '../../../shared/forget';
import type { SessionId } from '../../../shared/model';
import { useAppState, useArborClient } from '../app/app-context';
import { formatCount, plural } from '../app/format';
import { useMounted } from '../app/use-mounted';
import { formatBytes } from '../files/format-bytes';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import { ProgressLine } from '../time-travel/ProgressLine';
import { useOperationProgress } from '../time-travel/use-operation-progress';
import './forget.css';

type Deleted = Extract<SessionDeleteOutcome, { status: 'deleted' }>;

export function DeleteSessionDialog({ sessionId, onClose }: { readonly sessionId: SessionId; readonly onClose: () => void }) {
  const client = useArborClient();
  const listedTitle = useAppState((s) => s.sessions.find((session) => session.id === sessionId)?.title ?? (s.graph?.session.id === sessionId ? s.graph.session.title : null));
  // Kept once the session has left the list, for the "deleted" line.
  const rememberedTitle = useRef<string | null>(null);
  if (listedTitle !== null) rememberedTitle.current = listedTitle;
  const title = rememberedTitle.current ?? sessionId;
  const loadSessions = useAppState((s) => s.loadSessions);
  const closeSessions = useAppState((s) => s.closeSessions);
  const alive = useMounted();
  const [withForks, setWithForks] = useState(false);
  const [plan, setPlan] = useState<SessionDeletePlan | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const [error, setError] = useState<unknown>(null);
  const progress = useOperationProgress(client, deleting);

  // The plan for the current tick; the previous one stays on screen while the next is asked for.
  const [plannedWithForks, setPlannedWithForks] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    client.call('sessions.delete', { sessionIds: [sessionId], withForks, dryRun: true }).then(
      (outcome) => {
        if (!current) return;
        setPlan(outcome.plan);
        setPlannedWithForks(withForks);
      },
      (cause: unknown) => current && setError(cause),
    );
    return () => {
      current = false;
    };
  }, [client, sessionId, withForks]);

  const planned = plan !== null && plannedWithForks === withForks;
  const refused = plan !== null && plan.dependants.length > 0 && !withForks;
  // Once offered, the tick stays (ticked, the plan has no dependants left: they are in it).
  const [offerForks, setOfferForks] = useState(false);
  useEffect(() => {
    if (plan !== null && (plan.dependants.length > 0 || plan.forks.length > 0)) setOfferForks(true);
  }, [plan]);
  const run = async () => {
    if (!planned || refused) return;
    setError(null);
    setDeleting(true);
    try {
      const outcome = await client.call('sessions.delete', { sessionIds: [sessionId], withForks });
      if (!alive.current) return;
      // A fork made since the preview: the service refused; the dialog shows who, as before.
      if (outcome.status !== 'deleted') setPlan(outcome.plan);
      else {
        setDeleted(outcome);
        await closeSessions(outcome.plan.sessionIds);
        await loadSessions();
      }
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      if (alive.current) setDeleting(false);
    }
  };

  if (deleted !== null) {
    const others = deleted.plan.sessionIds.length - 1;
    return (
      <Modal
        title="Session deleted"
        onClose={onClose}
        testId="delete-dialog"
        footer={
          <button type="button" className="primary-button" data-autofocus onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="tt-done" role="status" data-testid="delete-done">
          Deleted “{title}”{others > 0 ? ` and ${plural(others, 'session')} going on from it` : ''}.
          <div className="muted" data-testid="delete-reclaimed">
            {deleted.reclaimed.bytes > 0 ? `Reclaimed ${formatBytes(deleted.reclaimed.bytes)}` : "Its space in the store is zeroed and reused by the next imports"}
            {deleted.reclaimed.objects > 0 ? ` · ${plural(deleted.reclaimed.objects, 'snapshot object')}` : ''}
            {deleted.reclaimed.folders > 0 ? ` · ${plural(deleted.reclaimed.folders, 'fork folder')}` : ''}.
          </div>
        </div>
        {deleted.problems.length > 0 ? (
          <ul className="tt-warnings" data-testid="delete-problems">
            {deleted.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
      </Modal>
    );
  }

  return (
    <Modal
      title="Delete session"
      onClose={onClose}
      busy={deleting}
      size="list"
      testId="delete-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" data-autofocus onClick={onClose} disabled={deleting}>
            Cancel
          </button>
          <button type="button" className="danger-button" data-testid="delete-confirm" onClick={() => void run()} disabled={deleting || !planned || refused}>
            {deleting ? 'Deleting…' : withForks && plan !== null && plan.sessionIds.length > 1 ? `Delete ${plural(plan.sessionIds.length, 'session')}` : 'Delete'}
          </button>
        </>
      }
    >
      {error ? <ErrorBox error={error} what="The session was not deleted." /> : null}
      <p className="tt-lead">
        Every trace of <strong data-testid="delete-title">“{title}”</strong> leaves Arbor's store: its steps, search entries, stored lines and the snapshots
        nothing else uses. This cannot be undone.
      </p>
      {plan === null ? (
        error ? null : <div className="tt-loading">Looking at what would go…</div>
      ) : (
        <PlanFacts plan={plan} withForks={withForks} />
      )}
      {offerForks ? (
        <label className="forget-check">
          <input type="checkbox" data-testid="delete-with-forks" checked={withForks} disabled={deleting} onChange={(event) => setWithForks(event.target.checked)} /> Also delete
          its forks and continuations, with the folders and transcripts Arbor made for them
        </label>
      ) : null}
      {refused ? (
        <p className="forget-refused" role="note" data-testid="delete-refused">
          {plural(plan.dependants.length, 'session')} {plan.dependants.length === 1 ? 'goes' : 'go'} on from this one, and {plan.dependants.length === 1 ? 'its' : 'their'} first
          steps are stored in it. Tick “Also delete” to delete {plan.dependants.length === 1 ? 'it' : 'them'} too, or keep this session.
        </p>
      ) : null}
      {deleting ? <ProgressLine label="Deleting" progress={progress} /> : null}
    </Modal>
  );
}

function PlanFacts({ plan, withForks }: { readonly plan: SessionDeletePlan; readonly withForks: boolean }) {
  const forkTranscripts = new Set(plan.forks.flatMap((fork) => (fork.transcript === null ? [] : [fork.transcript])));
  return (
    <div className="forget-plan" data-testid="delete-plan">
      <dl className="tt-facts">
        <dt>Steps</dt>
        <dd data-testid="delete-nodes">
          {plural(plan.nodes, 'node')}
          {plan.sessionIds.length > 1 ? ` in ${plural(plan.sessionIds.length, 'session')}` : ''}
        </dd>
        <dt>Stored</dt>
        <dd>
          {formatBytes(plan.rawBytes)} of transcript lines · {formatCount(plan.indexEntries)} {plan.indexEntries === 1 ? 'search entry' : 'search entries'} · {plural(plan.snapshots, 'snapshot')}
          {plan.operations > 0 ? ` · ${plural(plan.operations, 'journaled operation')}` : ''}
        </dd>
      </dl>
      {plan.dependants.length > 0 ? (
        <section aria-label="Sessions that go on from it">
          <h3 className="tt-group__title">Going on from it</h3>
          <ul className="forget-list" data-testid="delete-dependants">
            {plan.dependants.map((dependant) => (
              <li key={dependant.sessionId}>
                {dependant.title} <span className="muted">({DEPENDANT_KINDS[dependant.kind] ?? dependant.kind})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {plan.forks.length > 0 ? (
        <section aria-label="Forks">
          <h3 className="tt-group__title">{withForks ? 'Fork folders and transcripts removed' : 'Forks kept (tick “Also delete” to remove them)'}</h3>
          <ul className="forget-list" data-testid="delete-forks">
            {plan.forks.map((fork) => (
              <li key={fork.fork}>
                <code className="tt-dir">{fork.dir}</code>
                {fork.dirCreated ? '' : <span className="muted"> (a folder Arbor did not create: left in place)</span>}
                {fork.transcript !== null ? (
                  <div>
                    <code className="tt-dir">{fork.transcript}</code>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {plan.files.length > 0 ? (
        <section aria-label="Transcripts">
          <h3 className="tt-group__title">Its transcripts</h3>
          <p className="tt-group__hint">The agent's own files are left on disk, and Arbor will not import them again.</p>
          <ul className="forget-list" data-testid="delete-files">
            {plan.files.map((file) => (
              <li key={file.path}>
                <code className="tt-dir">{file.path}</code>
                {!file.onDisk ? (
                  <span className="muted"> (already gone)</span>
                ) : withForks && forkTranscripts.has(file.path) ? (
                  <span className="muted"> (a fork's transcript: removed with the fork)</span>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
