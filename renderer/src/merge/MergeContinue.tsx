/**
 * "Continue from the merge" on the merge result: Arbor merged the files, the agent merges the conversation.
 * One button writes a resumable transcript for the merged folder (ours' path and a summary of theirs) and
 * shows the command that resumes it, with a copy button, as the fork dialog does; the graph then selects
 * the merge-summary node on the new branch below the merge node.
 */
import { useRef, useState } from 'react';
import type { MergeContinued } from '../../../shared/operations';
import { useAppState, useArborClient } from '../app/app-context';
import { useMounted } from '../app/use-mounted';
import { CopyButton } from '../time-travel/CopyButton';
import { ErrorBox } from '../time-travel/ErrorBox';
import { resumeLine } from '../time-travel/resume-command';
import '../time-travel/time-travel.css';

export function MergeContinue({ operation, disabled }: { readonly operation: string; readonly disabled: boolean }) {
  const client = useArborClient();
  const refreshGraph = useAppState((s) => s.refreshGraph);
  const selectNode = useAppState((s) => s.selectNode);
  const [busy, setBusy] = useState(false);
  const [continued, setContinued] = useState<MergeContinued | null>(null);
  const [error, setError] = useState<unknown>(null);
  const commandRef = useRef<HTMLElement>(null);
  const alive = useMounted();

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('merge.continue', { operation });
      if (!alive.current) return;
      setContinued(result);
      await refreshGraph();
      await selectNode(result.summaryNode ?? result.branch);
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  if (continued !== null) {
    const line = resumeLine(continued.dir, continued.resume);
    return (
      <section className="merge-continue" aria-labelledby="merge-continue-title" data-testid="merge-continued">
        <h3 id="merge-continue-title" className="section-title">
          Continue from the merge
        </h3>
        <p className="muted">The agent resumes on ours&apos; conversation, with a summary of theirs and of how each file was merged.</p>
        <div className="tt-command">
          <code ref={commandRef} data-testid="merge-resume">
            {line}
          </code>
          <CopyButton text={line} fallbackTarget={() => commandRef.current} />
        </div>
        {continued.warnings.length > 0 ? (
          <ul className="tt-warnings">
            {continued.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        ) : null}
      </section>
    );
  }
  return (
    <section className="merge-continue" aria-label="Continue from the merge">
      <p className="muted">Files are merged; the conversations are not. Resume the agent here with ours&apos; history and a summary of theirs.</p>
      <button type="button" className="secondary-button" data-testid="merge-continue" disabled={disabled || busy} onClick={() => void run()}>
        {busy ? 'Writing the transcript…' : 'Continue from the merge'}
      </button>
      {error !== null ? <ErrorBox error={error} what="Could not continue from the merge." /> : null}
    </section>
  );
}
