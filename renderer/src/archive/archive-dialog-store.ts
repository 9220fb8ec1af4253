/**
 * Whether the "Export archive" dialog is open. A store of its own: the palette opens it, ArchiveLayer
 * (mounted once in App.tsx) shows it.
 */
import { createStore } from 'zustand/vanilla';

export interface ArchiveDialogState {
  readonly open: boolean;
  show(): void;
  close(): void;
}

export const archiveDialogStore = createStore<ArchiveDialogState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

export const openArchiveExport = (): void => archiveDialogStore.getState().show();
