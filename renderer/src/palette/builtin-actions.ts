import type { AppState } from '../state/app-state';
import { openExportDialog } from '../export/export-dialog-store';
import { forgetActions } from '../forget/forget-actions';
import { projectLineageActions } from '../lineage/lineage-actions';
import { statisticsActions } from '../statistics/statistics-actions';
import { archiveActions } from '../archive/archive-actions';
import { openLedgerDialog } from '../session/ledger-dialog-store';
import type { PaletteAction } from './palette-registry';

export interface PaletteControls {
  showShortcuts(): void;
  focusSearch(): void;
}

/**
 * The actions the app always has, offered only when they can run now: fork and rewind need a selected
 * node, compare a second one (Shift+click). They open the same dialogs as the keys r and Shift F.
 */
export function builtinActions(state: AppState, controls: PaletteControls): PaletteAction[] {
  const actions: PaletteAction[] = [];
  const node = state.selectedNodeId;
  if (node !== null) {
    actions.push(
      {
        id: 'fork',
        title: 'Fork from the selected node…',
        group: 'Time travel',
        keys: 'Shift F',
        keywords: 'branch new folder copy',
        run: () => state.openTimeTravel({ kind: 'fork', nodeId: node }),
      },
      {
        id: 'rewind',
        title: 'Rewind the workspace to the selected node…',
        group: 'Time travel',
        keys: 'r',
        keywords: 'restore undo go back',
        run: () => state.openTimeTravel({ kind: 'rewind', nodeId: node }),
      },
    );
    const other = state.compareNodeId;
    if (other !== null && other !== node) {
      actions.push({
        id: 'compare',
        title: 'Compare the files of the two chosen nodes…',
        group: 'Time travel',
        keywords: 'diff',
        run: () => state.openTimeTravel({ kind: 'compare', nodeIdA: node, nodeIdB: other }),
      });
    }
  }
  const session = state.selectedSessionId;
  if (session !== null) {
    actions.push(
      { id: 'export', title: 'Export the session or branch…', group: 'Session', keywords: 'share markdown html json redact save', run: () => openExportDialog({ sessionId: session, nodeId: node }) },
      // The header's "Side effects…" link: the ledger of every step that reached outside the workspace.
      { id: 'side-effects', title: 'Show side effects…', group: 'Session', keywords: 'ledger push publish network outcome double replay', run: () => openLedgerDialog(session) },
    );
  }
  actions.push(
    ...projectLineageActions(state),
    ...statisticsActions(),
    ...archiveActions(),
    ...forgetActions(session),
    { id: 'forks', title: 'Show forks…', group: 'Time travel', keywords: 'folders', run: () => state.openTimeTravel({ kind: 'forks' }) },
    { id: 'history', title: 'Show operation history…', group: 'Time travel', keywords: 'undo rewinds merges', run: () => state.openTimeTravel({ kind: 'history' }) },
    { id: 'search', title: 'Search all sessions', group: 'App', keys: '/', keywords: 'find text', run: controls.focusSearch },
    { id: 'shortcuts', title: 'Show keyboard shortcuts', group: 'App', keys: '?', keywords: 'keys help', run: controls.showShortcuts },
  );
  return actions;
}
