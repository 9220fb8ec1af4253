/**
 * Which export the Export dialog is open for (a session, or the branch through a node), if any. A store of its
 * own: the session header's button and the palette open it, ExportLayer (mounted once in App.tsx) shows it.
 */
import { createStore } from 'zustand/vanilla';
import type { NodeId, SessionId } from '../../../shared/model';

export interface ExportTarget {
  readonly sessionId: SessionId;
  /** The selected node when the dialog opened: the user may export the branch through it. */
  readonly nodeId: NodeId | null;
}

export interface ExportDialogState {
  readonly target: ExportTarget | null;
  open(target: ExportTarget): void;
  close(): void;
}

export const exportDialogStore = createStore<ExportDialogState>()((set) => ({
  target: null,
  open: (target) => set({ target }),
  close: () => set({ target: null }),
}));

export const openExportDialog = (target: ExportTarget): void => exportDialogStore.getState().open(target);
