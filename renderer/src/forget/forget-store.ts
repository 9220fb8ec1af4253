/**
 * Which forgetting dialog is open (issue 15): Delete for one session, or Clean up. A store of its own, like the
 * Export dialog's: the sessions list (row button, Delete key), the session header, the palette and the Statistics
 * view open them; ForgetLayer (mounted once in App.tsx) shows the one open.
 */
import { createStore } from 'zustand/vanilla';
import type { SessionId } from '../../../shared/model';

export type ForgetDialog = { readonly kind: 'delete'; readonly sessionId: SessionId } | { readonly kind: 'clean-up' };

export interface ForgetDialogState {
  readonly dialog: ForgetDialog | null;
  open(dialog: ForgetDialog): void;
  close(): void;
}

export const forgetStore = createStore<ForgetDialogState>()((set) => ({
  dialog: null,
  open: (dialog) => set({ dialog }),
  close: () => set({ dialog: null }),
}));

export const openDeleteSession = (sessionId: SessionId): void => forgetStore.getState().open({ kind: 'delete', sessionId });
export const openCleanUp = (): void => forgetStore.getState().open({ kind: 'clean-up' });
