import { useRef, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import type { ForkCreated } from '../../../shared/operations';
import { useAppState, useArborClient } from '../app/app-context';
import { plural } from '../app/format';
import { SkippedList } from './ChangeLists';
import { CopyButton } from './CopyButton';
import { ErrorBox } from './ErrorBox';
import { ForkSideEffects } from './ForkSideEffects';
import { Modal } from './Modal';
import { useMounted } from '../app/use-mounted';
import { ProgressLine } from './ProgressLine';
import { resumeLine } from './resume-command';
import { NodeName, useNodeSummary } from './use-node-summary';
import { useOperationProgress } from './use-operation-progress';

const DAY_MS = 86_400_000;
/** The contract's limit for `temporaryMs` (ten years). */
const MAX_TEMPORARY_DAYS = 3650;

/** "Fork from here": a new folder with the node's state, a resumable transcript, a new branch in the graph. */
export function ForkDialog({ nodeId, onClose }: { readonly nodeId: NodeId; readonly onClose: () => void }) {
  const client = useArborClient();
  const node = useNodeSummary(nodeId);
  const refreshGraph = useAppState((s) => s.refreshGraph);
  const selectNode = useAppState((s) => s.selectNode);
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  const [dir, setDir] = useState('');
  // "Temporary — remove after N days" (`arbor fork --temporary 7d`): gc removes the fork once that is over.
  const [temporary, setTemporary] = useState(false);
  const [days, setDays] = useState('7');
  const ttlDays = Number(days);
  const ttlValid = Number.isInteger(ttlDays) && ttlDays >= 1 && ttlDays <= MAX_TEMPORARY_DAYS;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ForkCreated | null>(null);
  const [error, setError] = useState<unknown>(null);
  const progress = useOperationProgress(client, creating);
  const commandRef = useRef<HTMLElement>(null);
  const alive = useMounted();

  const create = async () => {
    setError(null);
    setCreating(true);
    try {
      const target = dir.trim();
      const result = await client.call('fork.create', {
        nodeId,
        ...(target === '' ? {} : { dir: target }),
        ...(temporary ? { temporaryMs: ttlDays * DAY_MS } : {}),
      });
      if (!alive.current) return;
      setCreated(result);
      // The new branch shows at once (the service also announces it); the selection follows it there.
      await refreshGraph();
      await selectNode(result.branch);
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      if (alive.current) setCreating(false);
    }
  };

  let body: React.ReactNode;
  let footer: React.ReactNode;
  if (created) {
    const line = created.resume === null ? null : resumeLine(created.dir, created.resume);
    body = (
      <div className="tt-stack" data-testid="fork-created">
        <div className="tt-done" role="status">
          Forked: {plural(created.files, 'file')} in a new folder, and a new branch in the graph.
        </div>
        <dl className="tt-facts">
          <dt>Folder</dt>
          <dd>
            <code className="tt-dir" data-testid="fork-dir">
              {created.dir}
            </code>
          </dd>
          {temporary ? (
            <>
              <dt>Temporary</dt>
              <dd data-testid="fork-temporary-note">removed by the clean up after {plural(ttlDays, 'day')}</dd>
            </>
          ) : null}
          {created.transcript ? (
            <>
              <dt>Transcript</dt>
              <dd>
                <code className="tt-dir" data-testid="fork-transcript">
                  {created.transcript}
                </code>
              </dd>
            </>
          ) : null}
        </dl>
        {created.warnings && created.warnings.length > 0 ? (
          <ul className="tt-warnings" data-testid="fork-warnings">
            {created.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        ) : null}
        {created.skipped ? <SkippedList skipped={created.skipped} hint="the copied workspace's version stays" /> : null}
        {line ? (
          <div className="tt-resume">
            <div className="tt-resume__label">Continue the run in the new folder:</div>
            <div className="tt-command">
              <code ref={commandRef} data-testid="fork-resume">
                {line}
              </code>
              <CopyButton text={line} fallbackTarget={() => commandRef.current} />
            </div>
          </div>
        ) : (
          <p className="muted">No resumable transcript could be written for this session, so there is no command to continue it.</p>
        )}
      </div>
    );
    footer = (
      <>
        <button type="button" className="secondary-button" onClick={() => openTimeTravel({ kind: 'forks' })}>
          All forks…
        </button>
        <button type="button" className="primary-button" data-autofocus onClick={onClose}>
          Done
        </button>
      </>
    );
  } else {
    body = (
      <form
        id="fork-form"
        className="tt-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!creating && (!temporary || ttlValid)) void create();
        }}
      >
        <p className="tt-lead">
          Start a new branch at <NodeName node={node} nodeId={nodeId} />: a new folder holding the workspace as it was there, and a copy of the
          conversation up to this step that the agent can continue.
        </p>
        <label className="tt-field">
          <span className="tt-field__label">New folder</span>
          <input
            className="text-input tt-field__input"
            data-testid="fork-target"
            data-autofocus
            value={dir}
            onChange={(event) => setDir(event.target.value)}
            placeholder="Leave empty for Arbor's default location"
            spellCheck={false}
            disabled={creating}
          />
          <span className="tt-field__hint">An absolute path to a folder that does not exist yet (or is empty).</span>
        </label>
        <div className="tt-temporary">
          <label className="tt-temporary__check">
            <input type="checkbox" data-testid="fork-temporary" checked={temporary} disabled={creating} onChange={(event) => setTemporary(event.target.checked)} /> Temporary — remove
            after
          </label>
          <input
            className="text-input tt-temporary__days"
            data-testid="fork-temporary-days"
            type="number"
            min={1}
            max={MAX_TEMPORARY_DAYS}
            value={days}
            aria-label="Days to keep the temporary fork"
            aria-invalid={temporary && !ttlValid}
            disabled={creating || !temporary}
            onChange={(event) => setDays(event.target.value)}
          />{' '}
          <span>days</span>
          <span className="tt-field__hint tt-temporary__hint">The clean up removes its folder, transcript and branch once that time is over.</span>
        </div>
        <ForkSideEffects nodeId={nodeId} />
        {creating ? <ProgressLine label="Forking" progress={progress} /> : null}
      </form>
    );
    footer = (
      <>
        <button type="button" className="secondary-button" onClick={onClose} disabled={creating}>
          Cancel
        </button>
        <button type="submit" form="fork-form" className="primary-button" data-testid="fork-create" disabled={creating || (temporary && !ttlValid)}>
          {creating ? 'Forking…' : 'Fork'}
        </button>
      </>
    );
  }

  return (
    <Modal title="Fork from here" onClose={onClose} busy={creating} testId="fork-dialog" footer={footer}>
      {error ? <ErrorBox error={error} what="The fork failed." /> : null}
      {body}
    </Modal>
  );
}
