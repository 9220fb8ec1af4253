import { useCallback, useEffect, useRef, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import { describeUnknownReason } from '../../../shared/file-known';
import type { AppliedOperation, OperationOutcome, RewindPreview, UnverifiedPath } from '../../../shared/operations';
import { useArborClient } from '../app/app-context';
import { plural } from '../app/format';
import { ChangedPathList, ChangeLists, changeCount, SideEffectList, SkippedList, summarizeChanges } from './ChangeLists';
import { ErrorBox } from './ErrorBox';
import { Modal } from './Modal';
import { useMounted } from '../app/use-mounted';
import { ProgressLine } from './ProgressLine';
import { NodeName, useNodeSummary } from './use-node-summary';
import { useOperationProgress } from './use-operation-progress';

/**
 * Where the dialog is. Nothing can be applied without a preview on screen: `apply` only exists in the
 * `preview` step, and it sends that preview's token.
 */
export type RewindStep =
  | { readonly step: 'previewing' }
  | { readonly step: 'preview'; readonly preview: RewindPreview }
  | { readonly step: 'applying'; readonly preview: RewindPreview }
  | { readonly step: 'applied'; readonly applied: AppliedOperation }
  | { readonly step: 'undoing'; readonly applied: AppliedOperation }
  | { readonly step: 'undone'; readonly applied: AppliedOperation; readonly undo: AppliedOperation }
  | { readonly step: 'changed'; readonly changed: readonly string[]; readonly during: 'apply' | 'undo' };

const KNOWN_TEXT = {
  exact: 'an exact snapshot: every file in the snapshot is put back',
  reconstructed: 'reconstructed from the transcript: only the files the session touched are put back',
  unknown:
    'partly unknown: files whose content at this node is not known, or whose replay is known to be stale, are left alone; ' +
    'files only in doubt are written from the transcript’s replay and listed as not verified',
} as const;

/**
 * The files the rewind writes from the transcript's replay although a step it cannot replay (a shell command,
 * a subagent, …) may have changed them: shown before apply, so doubt never passes for knowledge.
 */
function UnverifiedList({ unverified }: { readonly unverified: readonly UnverifiedPath[] }) {
  if (unverified.length === 0) return null;
  return (
    <section className="tt-group tt-group--warning" data-testid="rewind-unverified" role="note">
      <h3 className="tt-group__title">
        Not verified <span className="tt-count">{unverified.length}</span>{' '}
        <span className="muted tt-group__hint">written from the transcript’s replay; undo puts them back byte for byte</span>
      </h3>
      <ul className="tt-paths">
        {unverified.map((file) => (
          <li key={file.path} className="tt-path">
            <span className="file-status file-status--unverified" aria-hidden="true">
              ?
            </span>
            <code>{file.path}</code>{' '}
            <span className="muted">
              since {file.since === null ? 'the start' : <code>{file.since.slice(0, 8)}</code>}: {describeUnknownReason(file.reason)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RewindDialog({ nodeId, onClose }: { readonly nodeId: NodeId; readonly onClose: () => void }) {
  const client = useArborClient();
  const node = useNodeSummary(nodeId);
  const [state, setState] = useState<RewindStep>({ step: 'previewing' });
  const [error, setError] = useState<{ error: unknown; what: string } | null>(null);
  const busy = state.step === 'previewing' || state.step === 'applying' || state.step === 'undoing';
  const progress = useOperationProgress(client, busy);
  const alive = useMounted();
  // Closing the dialog stops a preview still looking at a big workspace.
  const previewing = useRef<AbortController | null>(null);
  useEffect(() => () => previewing.current?.abort(), []);

  const preview = useCallback(async () => {
    setError(null);
    setState({ step: 'previewing' });
    previewing.current?.abort();
    const controller = new AbortController();
    previewing.current = controller;
    try {
      const result = await client.call('rewind.preview', { nodeId }, { signal: controller.signal });
      if (alive.current) setState({ step: 'preview', preview: result });
    } catch (cause) {
      if (alive.current) setError({ error: cause, what: 'The preview failed.' });
    }
  }, [alive, client, nodeId]);

  useEffect(() => {
    void preview();
  }, [preview]);

  const settle = (outcome: OperationOutcome, during: 'apply' | 'undo', onApplied: (applied: AppliedOperation) => RewindStep) => {
    if (!alive.current) return;
    setState(outcome.status === 'applied' ? onApplied(outcome) : { step: 'changed', changed: outcome.changed, during });
  };

  const apply = async (shown: RewindPreview) => {
    setError(null);
    setState({ step: 'applying', preview: shown });
    try {
      const outcome = await client.call('rewind.apply', { nodeId, token: shown.token });
      settle(outcome, 'apply', (applied) => ({ step: 'applied', applied }));
    } catch (cause) {
      if (!alive.current) return;
      setError({ error: cause, what: 'The rewind failed.' });
      setState({ step: 'preview', preview: shown });
    }
  };

  const undo = async (applied: AppliedOperation) => {
    setError(null);
    setState({ step: 'undoing', applied });
    try {
      const outcome = await client.call('operations.undo', { operationId: applied.operation });
      settle(outcome, 'undo', (undone) => ({ step: 'undone', applied, undo: undone }));
    } catch (cause) {
      if (!alive.current) return;
      setError({ error: cause, what: 'The undo failed.' });
      setState({ step: 'applied', applied });
    }
  };

  let body: React.ReactNode;
  let footer: React.ReactNode;
  const close = (
    <button type="button" className="secondary-button" onClick={onClose} disabled={busy}>
      Close
    </button>
  );
  switch (state.step) {
    case 'previewing':
      body = error ? null : progress !== null ? (
        <ProgressLine label="Working out what the rewind would change" progress={progress} />
      ) : (
        <div className="tt-loading">Working out what the rewind would change…</div>
      );
      footer = error ? (
        <>
          {close}
          <button type="button" className="primary-button" onClick={() => void preview()}>
            Try again
          </button>
        </>
      ) : (
        close
      );
      break;
    case 'preview':
    case 'applying': {
      const shown = state.preview;
      const count = changeCount(shown);
      body = (
        <div className="tt-stack" data-testid="rewind-preview">
          <p className="tt-lead">
            Put the workspace <code className="tt-dir" data-testid="rewind-workspace">{shown.workspace}</code> back to the state at{' '}
            <NodeName node={node} nodeId={nodeId} />.
          </p>
          <p className={`tt-known tt-known--${shown.known}`} data-testid="rewind-known">
            The state at this node is {KNOWN_TEXT[shown.known]}.
          </p>
          {count === 0 ? <div className="tt-empty">The workspace already matches this node: nothing to write.</div> : <ChangeLists changes={shown} />}
          <UnverifiedList unverified={shown.unverified} />
          <SkippedList skipped={shown.skipped} />
          <SideEffectList nodeId={nodeId} effects={shown.sideEffects} intro="These steps came after this node and reached outside the workspace; a rewind cannot take them back." />
          {state.step === 'applying' ? <ProgressLine label="Rewinding" progress={progress} /> : null}
        </div>
      );
      footer = (
        <>
          {close}
          <button
            type="button"
            className="primary-button"
            data-testid="rewind-apply"
            disabled={count === 0 || state.step === 'applying'}
            onClick={() => void apply(shown)}
          >
            {state.step === 'applying' ? 'Rewinding…' : `Rewind ${plural(count, 'file')}`}
          </button>
        </>
      );
      break;
    }
    case 'applied':
    case 'undoing':
      body = (
        <div className="tt-stack" data-testid="rewind-result">
          <div className="tt-done" role="status">
            Rewound {summarizeChanges(state.applied)} in <code className="tt-dir">{state.applied.workspace}</code>.{' '}
            <span className="muted">Undo puts every file back byte for byte.</span>
          </div>
          <ChangeLists changes={state.applied} testId="rewind-applied" />
          <SideEffectList effects={state.applied.sideEffects} intro="Still in effect: no rewind can take these back." />
          {state.step === 'undoing' ? <ProgressLine label="Undoing" progress={progress} /> : null}
        </div>
      );
      footer = (
        <>
          <button type="button" className="secondary-button" data-testid="rewind-undo" disabled={state.step === 'undoing'} onClick={() => void undo(state.applied)}>
            {state.step === 'undoing' ? 'Undoing…' : 'Undo'}
          </button>
          <button type="button" className="primary-button" data-autofocus onClick={onClose} disabled={busy}>
            Done
          </button>
        </>
      );
      break;
    case 'undone':
      body = (
        <div className="tt-done" role="status" data-testid="rewind-undone">
          Undone: {summarizeChanges(state.undo)} restored in <code className="tt-dir">{state.undo.workspace}</code>; the workspace is as it was before the rewind.
        </div>
      );
      footer = (
        <button type="button" className="primary-button" data-autofocus onClick={onClose}>
          Done
        </button>
      );
      break;
    case 'changed':
      body = (
        <div className="tt-changed" role="alert" data-testid="rewind-workspace-changed">
          <p>
            <strong>The workspace changed since the preview</strong>, so {state.during === 'apply' ? 'the rewind' : 'the undo'} stopped before writing anything.
            {state.during === 'apply' ? ' Preview again to see what a rewind would do now.' : ''}
          </p>
          <ChangedPathList paths={state.changed} />
        </div>
      );
      footer = (
        <>
          {close}
          {state.during === 'apply' ? (
            <button type="button" className="primary-button" data-testid="rewind-preview-again" data-autofocus onClick={() => void preview()}>
              Preview again
            </button>
          ) : null}
        </>
      );
      break;
  }

  return (
    <Modal title="Rewind workspace to here" onClose={onClose} busy={busy && state.step !== 'previewing'} testId="rewind-dialog" footer={footer}>
      {error ? <ErrorBox error={error.error} what={error.what} /> : null}
      {body}
    </Modal>
  );
}
