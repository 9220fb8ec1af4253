import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { NodeId } from '../../../shared/model';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { usePaletteActions } from '../palette/palette-registry';
import type { MergeSession } from './merge-session';
import './merge.css';

// The view, its editors and the merge's model (CodeMirror documents, the three-way merge engine) load on
// the first "Merge…", not with the app: they are as large as the rest of the renderer.
const MergeView = lazy(() => import('./MergeView').then((module) => ({ default: module.MergeView })));
const loadMergeSession = () => import('./merge-session');
/** Starts fetching the merge's code while the user is about to need it (hovering or focusing "Merge…"). */
const prefetchMerge = () => {
  void loadMergeSession();
  void import('./MergeView');
};

const LOADING = (
  <div className="merge-view merge-view--loading" data-testid="merge-view" role="status">
    Opening the merge…
  </div>
);

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
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const mergeRef = useRef(merge);
  mergeRef.current = merge;
  /** Set while the merge's code loads: a second "Merge…" meanwhile does not start a second session. */
  const starting = useRef(false);
  const alive = useRef(true);
  const ready = selected !== null && compared !== null && selected !== compared;

  const start = useCallback(async () => {
    if (selected === null || compared === null || selected === compared || starting.current) return;
    const current = mergeRef.current;
    const finished = current !== null && ['applied', 'undoing', 'undone'].includes(current.session.store.getState().phase);
    if (current !== null && current.ours === selected && current.theirs === compared && !finished) {
      setOpen(true);
      return;
    }
    starting.current = true;
    setLoadError(null);
    setLoading(true);
    setOpen(true);
    let module: Awaited<ReturnType<typeof loadMergeSession>>;
    try {
      module = await loadMergeSession();
    } catch (error) {
      if (alive.current) {
        setOpen(false);
        setLoadError(error instanceof Error ? error.message : String(error));
      }
      return;
    } finally {
      starting.current = false;
      if (alive.current) setLoading(false);
    }
    if (!alive.current) return;
    current?.session.dispose();
    const session = module.createMergeSession(client, {
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

  const startRef = useRef(start);
  startRef.current = start;
  const paletteActions = useMemo(
    () =>
      ready
        ? [{ id: 'merge', title: 'Merge the compared node into the selected one…', group: 'Time travel', keys: 'm', keywords: 'combine three-way', run: () => void startRef.current() }]
        : [],
    [ready],
  );
  usePaletteActions(paletteActions);

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
        void start();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ready, open, start]);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      mergeRef.current?.session.dispose();
    };
  }, []);

  return (
    <>
      {ready ? (
        <button
          type="button"
          className="secondary-button compare-bar__button"
          data-testid="merge-open"
          title="Merge the compared node (theirs) into the selected one (ours): a three-way merge over their common ancestor (M)"
          onClick={() => void start()}
          onPointerEnter={prefetchMerge}
          onFocus={prefetchMerge}
        >
          Merge… <kbd>M</kbd>
        </button>
      ) : null}
      {loadError !== null ? (
        <span className="compare-bar__error" role="alert" data-testid="merge-load-error">
          The merge view could not load: {loadError}
        </span>
      ) : null}
      {open
        ? createPortal(
            // The placeholder while the model loads stays outside the boundary: a boundary that suspends
            // after showing content keeps that content (hidden) beside its fallback.
            merge !== null && !loading ? (
              <Suspense fallback={LOADING}>
                <MergeView session={merge.session} onClose={close} />
              </Suspense>
            ) : (
              LOADING
            ),
            document.body,
          )
        : null}
    </>
  );
}
