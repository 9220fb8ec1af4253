import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { NodeId } from '../../../shared/model';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { createMergeSession, type MergeSession } from './merge-session';
import './merge.css';

// The view and its editors load on the first "Merge…", not with the app.
const MergeView = lazy(() => import('./MergeView').then((module) => ({ default: module.MergeView })));

/** Typing in a field or an editor must never start a merge. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

interface OpenMerge {
  readonly ours: NodeId;
  readonly theirs: NodeId;
  readonly session: MergeSession;
}

/**
 * "Merge…" for the selected node (ours) and the compared one (theirs), also on M. The merge view
 * covers the window; closing it keeps the work, so "Merge…" on the same pair picks up where it was.
 */
export function MergeAction() {
  const client = useArborClient();
  const store = useAppStoreApi();
  const selected = useAppState((s) => s.selectedNodeId);
  const compared = useAppState((s) => s.compareNodeId);
  const [merge, setMerge] = useState<OpenMerge | null>(null);
  const [open, setOpen] = useState(false);
  const mergeRef = useRef(merge);
  mergeRef.current = merge;
  const ready = selected !== null && compared !== null && selected !== compared;

  const start = useCallback(() => {
    if (selected === null || compared === null || selected === compared) return;
    const current = mergeRef.current;
    const finished = current !== null && ['applied', 'undoing', 'undone'].includes(current.session.store.getState().phase);
    if (current !== null && current.ours === selected && current.theirs === compared && !finished) {
      setOpen(true);
      return;
    }
    current?.session.dispose();
    const session = createMergeSession(client, {
      ours: selected,
      theirs: compared,
      // The graph gains the merge node with its two parents: select it. The compared node stays
      // chosen until the view closes, since this action (and the open view) live in the compare bar.
      onMerged: (nodeId) => void store.getState().refreshGraph().then(() => store.getState().selectNode(nodeId)),
      onUndone: () => void store.getState().refreshGraph(),
    });
    setMerge({ ours: selected, theirs: compared, session });
    setOpen(true);
    void session.store.getState().load();
  }, [client, store, selected, compared]);

  const close = useCallback(() => {
    setOpen(false);
    const phase = mergeRef.current?.session.store.getState().phase;
    if (phase === 'applied' || phase === 'undone') store.getState().setCompareNode(null);
  }, [store]);

  useEffect(() => {
    if (!ready || open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey || typingInto(event.target)) return;
      if (event.key === 'm' || event.key === 'M') {
        event.preventDefault();
        start();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ready, open, start]);

  useEffect(() => () => mergeRef.current?.session.dispose(), []);

  return (
    <>
      {ready ? (
        <button
          type="button"
          className="secondary-button compare-bar__button"
          data-testid="merge-open"
          title="Merge the compared node (theirs) into the selected one (ours): a three-way merge over their common ancestor (M)"
          onClick={start}
        >
          Merge… <kbd>M</kbd>
        </button>
      ) : null}
      {open && merge !== null
        ? createPortal(
            <Suspense fallback={<div className="merge-view merge-view--loading" data-testid="merge-view" />}>
              <MergeView session={merge.session} onClose={close} />
            </Suspense>,
            document.body,
          )
        : null}
    </>
  );
}
