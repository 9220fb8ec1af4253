import type { EditorView } from '@codemirror/view';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { MergePreview } from '../../../shared/operations';
import { shortenPath } from '../app/format';
import { conflictsLeft } from './merge-files';
import type { MergeSession } from './merge-session';
import { MergeFileList } from './MergeFileList';
import { MergeFileView } from './MergeFileView';
import { MergeMessages } from './MergeMessages';
import { MergeOutcomeView } from './MergeOutcomeView';
import { MergeSideEffects } from './MergeSideEffects';
import { runMergeShortcut } from './result-editor';
import { mergeTitles } from './side-titles';
import { isWrapShortcut, mergeWrap } from './wrap-preference';

/** The full-window merge of two nodes: files, the three-way view, why each side changed, Apply. */
export function MergeView({ session, onClose }: { session: MergeSession; onClose(): void }) {
  const phase = useStore(session.store, (s) => s.phase);
  const preview = useStore(session.store, (s) => s.preview);
  const error = useStore(session.store, (s) => s.error);
  const openPath = useStore(session.store, (s) => s.openPath);
  const root = useRef<HTMLDivElement>(null);
  const showOutcome = phase === 'applied' || phase === 'undoing' || phase === 'undone';
  const result = useRef<EditorView | null>(null);
  const onResultView = useCallback((view: EditorView | null) => {
    result.current = view;
  }, []);
  const titles = useMemo(() => (preview === null ? null : mergeTitles(preview)), [preview]);

  useEffect(() => {
    root.current?.focus();
  }, [showOutcome]);
  useEffect(() => {
    const element = root.current;
    if (element === null) return;
    // Escape closes unless an editor or a field wants it (CodeMirror closes its own panels with it).
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key === 'Escape' && !target?.closest('.cm-editor, input')) {
        event.preventDefault();
        onClose();
      } else if (!event.defaultPrevented && isWrapShortcut(event)) {
        event.preventDefault();
        mergeWrap.getState().toggle();
      } else if (!event.defaultPrevented && result.current !== null && !target?.closest('input') && runMergeShortcut(result.current, event)) {
        event.preventDefault();
      }
      // The app's own shortcuts (rewind, fork, search…) must not fire behind the merge view.
      event.stopPropagation();
    };
    element.addEventListener('keydown', onKey);
    return () => element.removeEventListener('keydown', onKey);
  }, [onClose, showOutcome]);

  const entry = preview?.files.find((f) => f.path === openPath) ?? null;
  let body: React.ReactNode;
  if (phase === 'loading' && preview === null) body = <div className="pane-empty">Comparing the two branches with their common ancestor…</div>;
  else if (phase === 'failed' || preview === null) body = <div className="pane-empty is-error">{error ?? 'The merge could not be prepared.'}</div>;
  else if (showOutcome) body = <MergeOutcomeView session={session} onClose={onClose} />;
  else
    body = (
      <div className="merge-body">
        <MergeFileList session={session} preview={preview} />
        <div className="merge-main">
          {entry !== null ? (
            <MergeFileView key={entry.path} session={session} preview={preview} entry={entry} onResultView={onResultView} />
          ) : (
            <div className="pane-empty">{preview.files.length === 0 ? 'Nothing differs between the two sides.' : 'Choose a file on the left.'}</div>
          )}
        </div>
        <MergeMessages ours={preview.ours} theirs={preview.theirs} titles={titles ?? mergeTitles(preview)} path={openPath} />
      </div>
    );

  // Once applied, the view shrinks to a card over the graph, so the new merge node shows beside Undo.
  if (showOutcome) {
    return (
      <div className="merge-view merge-view--done" role="dialog" aria-label="Merge result" data-testid="merge-view" tabIndex={-1} ref={root}>
        {body}
      </div>
    );
  }
  return (
    <div className="merge-view" role="dialog" aria-modal="true" aria-label="Merge" data-testid="merge-view" tabIndex={-1} ref={root}>
      <MergeHeader session={session} preview={preview} onClose={onClose} />
      {preview !== null ? <MergeSideEffects preview={preview} /> : null}
      {body}
      {preview !== null && phase !== 'failed' ? <MergeFooter session={session} preview={preview} onClose={onClose} /> : null}
    </div>
  );
}

function MergeHeader({ session, preview, onClose }: { session: MergeSession; preview: MergePreview | null; onClose(): void }) {
  const files = useStore(session.store, (s) => s.files);
  const phase = useStore(session.store, (s) => s.phase);
  const [editing, setEditing] = useState<string | null>(null);
  const left = preview === null ? null : conflictsLeft(preview, files);
  const canRetarget = phase === 'ready';
  const titles = useMemo(() => (preview === null ? null : mergeTitles(preview)), [preview]);
  return (
    <header className="merge-header">
      <h1 className="merge-header__title">Merge</h1>
      {preview !== null ? (
        <>
          <div className="merge-header__sides" data-testid="merge-sides">
            <span className="merge-chip merge-chip--ours" title={titles?.ours.tooltip}>
              <span className="merge-chip__role">ours</span>
              <span className="merge-chip__label">{titles?.ours.short}</span>
            </span>
            <span className="merge-header__arrow" aria-label="takes changes from">
              ←
            </span>
            <span className="merge-chip merge-chip--theirs" title={titles?.theirs.tooltip}>
              <span className="merge-chip__role">theirs</span>
              <span className="merge-chip__label">{titles?.theirs.short}</span>
            </span>
            <span className="merge-header__base" title={titles?.base.tooltip}>
              <span className="merge-header__base-role">base</span>
              <span className="merge-chip__label">{titles?.base.short}</span>
            </span>
          </div>
          <div className="merge-header__into">
            <span className="muted">into</span>
            {editing === null ? (
              <>
                <code className="merge-header__dir" title={preview.into} data-testid="merge-into">
                  {shortenPath(preview.into)}
                </code>
                <button type="button" className="link-button" disabled={!canRetarget} onClick={() => setEditing(preview.into)}>
                  Change…
                </button>
              </>
            ) : (
              <form
                className="merge-header__into-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  const into = editing.trim();
                  setEditing(null);
                  if (into !== '' && into !== preview.into) void session.store.getState().load(into);
                }}
              >
                <input className="text-input" aria-label="Target folder" value={editing} onChange={(e) => setEditing(e.target.value)} autoFocus />
                <button type="submit" className="secondary-button small">
                  Preview again
                </button>
                <button type="button" className="link-button" onClick={() => setEditing(null)}>
                  Cancel
                </button>
              </form>
            )}
          </div>
        </>
      ) : null}
      <span className="merge-header__spacer" />
      {left !== null ? (
        <span className={`badge ${left === 0 ? 'badge--ok' : 'badge--error'}`} data-testid="merge-conflicts-left" data-count={left}>
          {left === 0 ? 'no conflicts left' : `${left} conflict${left === 1 ? '' : 's'} left`}
        </span>
      ) : null}
      <button type="button" className="merge-header__close" aria-label="Close merge" title="Close (Esc)" onClick={onClose}>
        ×
      </button>
    </header>
  );
}

function MergeFooter({ session, preview, onClose }: { session: MergeSession; preview: MergePreview; onClose(): void }) {
  const files = useStore(session.store, (s) => s.files);
  const phase = useStore(session.store, (s) => s.phase);
  const conflictSide = useStore(session.store, (s) => s.conflictSide);
  const outcome = useStore(session.store, (s) => s.outcome);
  const error = useStore(session.store, (s) => s.error);
  const left = conflictsLeft(preview, files);
  const canApply = phase === 'ready' && (left === 0 || conflictSide !== null);
  const setSide = (side: 'ours' | 'theirs') => session.store.getState().setConflictSide(conflictSide === side ? null : side);
  return (
    <footer className="merge-footer">
      <div className="merge-footer__status">
        {outcome?.status === 'workspace-changed' ? (
          <div className="notice notice--warning" data-testid="merge-workspace-changed">
            The target changed since this preview ({outcome.changed.join(', ')}); nothing was written.{' '}
            <button type="button" className="link-button" onClick={() => void session.store.getState().load(preview.into)}>
              Preview again
            </button>
          </div>
        ) : outcome?.status === 'conflicts' ? (
          <div className="notice notice--warning" data-testid="merge-conflicts-remain">
            Conflicts remain in {outcome.files.join(', ')}; nothing was written.
          </div>
        ) : error !== null ? (
          <div className="notice notice--warning">{error}</div>
        ) : (
          <span className="muted">
            {preview.files.length} file{preview.files.length === 1 ? '' : 's'} differ ·{' '}
            {left === 0 ? 'every conflict is resolved' : conflictSide !== null ? `${left} left to ${conflictSide}` : `resolve ${left} more conflict${left === 1 ? '' : 's'} to apply`}
          </span>
        )}
      </div>
      {left > 0 || conflictSide !== null ? (
        <div className="merge-footer__rest" role="group" aria-label="Conflicts left">
          <button type="button" className={`toggle-button ${conflictSide === 'ours' ? 'is-on' : ''}`} aria-pressed={conflictSide === 'ours'} onClick={() => setSide('ours')} data-testid="rest-ours">
            Use ours for the rest
          </button>
          <button type="button" className={`toggle-button ${conflictSide === 'theirs' ? 'is-on' : ''}`} aria-pressed={conflictSide === 'theirs'} onClick={() => setSide('theirs')} data-testid="rest-theirs">
            Use theirs for the rest
          </button>
        </div>
      ) : null}
      <button type="button" className="secondary-button" onClick={onClose}>
        Cancel
      </button>
      <button
        type="button"
        className="primary-button"
        data-testid="merge-apply"
        disabled={!canApply}
        title={canApply ? `Write the merge into ${preview.into}` : 'Resolve every conflict first (or choose a side for the rest)'}
        onClick={() => void session.store.getState().apply()}
      >
        {phase === 'applying' ? 'Applying…' : 'Apply merge'}
      </button>
    </footer>
  );
}
