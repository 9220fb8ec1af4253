/**
 * "Clean up" (issue 15, `arbor gc`): a dry run lists what gc finds — orphan forks (their folder deleted by hand,
 * their branch and transcript left behind) and temporary forks past their time to live — each with a checkbox;
 * the run removes only the ticked ones (`store.gc` with `forkIds`), prunes the snapshot objects nothing reaches
 * any more, and says what was reclaimed.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GcReport } from '../../../shared/forget';
import type { ForkSummary } from '../../../shared/operations';
import { useAppState, useArborClient } from '../app/app-context';
import { absoluteTime, plural, relativeTime } from '../app/format';
import { useMounted } from '../app/use-mounted';
import { formatBytes } from '../files/format-bytes';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import { ProgressLine } from '../time-travel/ProgressLine';
import { useOperationProgress } from '../time-travel/use-operation-progress';
import { TruncatedPath } from './TruncatedPath';
import './forget.css';

interface Candidate {
  readonly fork: string;
  readonly why: 'orphan' | 'expired';
  readonly dir: string;
  readonly transcript: string | null;
  readonly sessionTitle: string;
  readonly createdAt: string | null;
}

export function CleanUpDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useArborClient();
  const sessions = useAppState((s) => s.sessions);
  const refreshGraph = useAppState((s) => s.refreshGraph);
  const alive = useMounted();
  const [found, setFound] = useState<{ report: GcReport; forks: readonly ForkSummary[] } | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<GcReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const progress = useOperationProgress(client, running);

  const look = useCallback(async () => {
    try {
      const [report, listed] = await Promise.all([client.call('store.gc', { dryRun: true }), client.call('forks.list', {})]);
      if (!alive.current) return;
      setFound({ report, forks: listed.forks });
      setChosen(new Set([...report.orphans.map((o) => o.fork), ...report.expired]));
    } catch (cause) {
      if (alive.current) setError(cause);
    }
  }, [client, alive]);
  useEffect(() => {
    void look();
  }, [look]);

  const candidates = useMemo((): Candidate[] => {
    if (found === null) return [];
    const titleOf = (sessionId: string): string => sessions.find((s) => s.id === sessionId)?.title ?? sessionId;
    const forkOf = new Map(found.forks.map((fork) => [fork.fork, fork]));
    return [
      ...found.report.orphans.map((orphan): Candidate => ({ fork: orphan.fork, why: 'orphan', dir: orphan.dir, transcript: orphan.transcript, sessionTitle: titleOf(orphan.sessionId), createdAt: forkOf.get(orphan.fork)?.createdAt ?? null })),
      ...found.report.expired.flatMap((id): Candidate[] => {
        const fork = forkOf.get(id);
        return fork === undefined ? [] : [{ fork: id, why: 'expired', dir: fork.dir, transcript: fork.transcript, sessionTitle: titleOf(fork.sessionId), createdAt: fork.createdAt }];
      }),
    ];
  }, [found, sessions]);

  const run = async () => {
    setError(null);
    setRunning(true);
    try {
      const report = await client.call('store.gc', { forkIds: [...chosen] });
      if (!alive.current) return;
      setDone(report);
      // A removed fork's branch leaves the open graph.
      await refreshGraph();
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      if (alive.current) setRunning(false);
    }
  };

  if (done !== null) {
    const removed = done.orphansRemoved.length + done.expired.length;
    return (
      <Modal
        title="Clean up"
        onClose={onClose}
        testId="clean-up-dialog"
        footer={
          <button type="button" className="primary-button" data-autofocus onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="tt-done" role="status" data-testid="clean-up-done">
          {removed > 0 ? `Removed ${plural(removed, 'fork')}.` : 'No fork removed.'} Reclaimed {formatBytes(done.reclaimed.bytes)}
          {done.reclaimed.objects > 0 ? `, ${plural(done.reclaimed.objects, 'snapshot object')}` : ''}
          {done.reclaimed.folders > 0 ? `, ${plural(done.reclaimed.folders, 'folder')}` : ''}.
        </div>
        {done.problems.length > 0 ? (
          <ul className="tt-warnings" data-testid="clean-up-problems">
            {done.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
      </Modal>
    );
  }

  const toggle = (fork: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(fork);
      else next.delete(fork);
      return next;
    });

  return (
    <Modal
      title="Clean up"
      onClose={onClose}
      busy={running}
      size="list"
      testId="clean-up-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onClose} disabled={running}>
            Cancel
          </button>
          <button type="button" className="primary-button" data-testid="clean-up-run" data-autofocus onClick={() => void run()} disabled={running || found === null}>
            {running ? 'Cleaning up…' : chosen.size > 0 ? `Remove ${plural(chosen.size, 'fork')} and reclaim space` : 'Reclaim space'}
          </button>
        </>
      }
    >
      {error ? <ErrorBox error={error} what="Clean up did not finish." /> : null}
      <p className="tt-lead">
        Removes what Arbor no longer needs: snapshot objects nothing reaches, and the forks you choose below. Forks listed here have lost their folder,
        or were made temporary and are past their time.
      </p>
      {found === null ? (
        error ? null : <div className="tt-loading">Looking for what can go…</div>
      ) : candidates.length === 0 ? (
        <div className="tt-empty" data-testid="clean-up-nothing">
          No orphan or expired fork. {found.report.reclaimed.objects > 0 ? `${plural(found.report.reclaimed.objects, 'unused snapshot object')} (${formatBytes(found.report.reclaimed.bytes)}) can go.` : 'Nothing else to reclaim either.'}
        </div>
      ) : (
        <ul className="forget-candidates" data-testid="clean-up-list" aria-label="Forks that can go">
          {candidates.map((candidate) => (
            <li key={candidate.fork} className="forget-candidate" data-testid="clean-up-fork" data-fork-id={candidate.fork}>
              <label>
                <input type="checkbox" checked={chosen.has(candidate.fork)} disabled={running} onChange={(event) => toggle(candidate.fork, event.target.checked)} />{' '}
                <TruncatedPath path={candidate.dir} testId="clean-up-dir" />
              </label>
              <div className="forget-candidate__meta">
                <span className={`forget-why forget-why--${candidate.why}`}>{candidate.why === 'orphan' ? 'folder deleted' : 'temporary, past its time'}</span>
                <span>fork of {candidate.sessionTitle}</span>
                {candidate.createdAt !== null ? <span title={absoluteTime(candidate.createdAt)}>made {relativeTime(candidate.createdAt)}</span> : null}
              </div>
              {candidate.transcript !== null ? (
                <div className="forget-candidate__meta forget-candidate__path">
                  <span>transcript</span>
                  <TruncatedPath path={candidate.transcript} testId="clean-up-transcript" />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {running ? <ProgressLine label="Cleaning up" progress={progress} /> : null}
    </Modal>
  );
}
