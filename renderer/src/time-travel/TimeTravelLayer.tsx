import { useEffect } from 'react';
import { assertNever } from '../../../shared/errors';
import { useAppState, useAppStoreApi } from '../app/app-context';
import { CompareDialog } from './CompareDialog';
import { ForkDialog } from './ForkDialog';
import { ForksDialog } from './ForksDialog';
import { HistoryDialog } from './HistoryDialog';
import { RewindDialog } from './RewindDialog';

/** Typing in a field (or a CodeMirror view) must never trigger a shortcut. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/**
 * The open time-travel dialog, and the shortcuts that open them for the selected node:
 * R rewinds the workspace to it, Shift+F forks from it (plain F already fits the graph).
 */
export function TimeTravelLayer() {
  const store = useAppStoreApi();
  const dialog = useAppState((s) => s.timeTravelDialog);
  const close = useAppState((s) => s.closeTimeTravel);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingInto(event.target)) return;
      const state = store.getState();
      if (state.timeTravelDialog !== null || state.selectedNodeId === null) return;
      if (event.key === 'r' && !event.shiftKey) {
        event.preventDefault();
        state.openTimeTravel({ kind: 'rewind', nodeId: state.selectedNodeId });
      } else if (event.key === 'F' && event.shiftKey) {
        event.preventDefault();
        state.openTimeTravel({ kind: 'fork', nodeId: state.selectedNodeId });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  if (dialog === null) return null;
  switch (dialog.kind) {
    case 'rewind':
      return <RewindDialog key={dialog.nodeId} nodeId={dialog.nodeId} onClose={close} />;
    case 'fork':
      return <ForkDialog key={dialog.nodeId} nodeId={dialog.nodeId} onClose={close} />;
    case 'compare':
      return <CompareDialog key={`${dialog.nodeIdA}>${dialog.nodeIdB}`} nodeIdA={dialog.nodeIdA} nodeIdB={dialog.nodeIdB} onClose={close} />;
    case 'forks':
      return <ForksDialog onClose={close} />;
    case 'history':
      return <HistoryDialog onClose={close} />;
    default:
      return assertNever(dialog);
  }
}
