/**
 * Which session's "Side effects" dialog (the ledger) is open, if any. A store of its own, like the Export dialog's:
 * the session header's link and the palette open it; the header's SideEffectsButton shows it for its session.
 */
import { createStore } from 'zustand/vanilla';
import type { SessionId } from '../../../shared/model';

export interface LedgerDialogState {
  readonly sessionId: SessionId | null;
  open(sessionId: SessionId): void;
  close(): void;
}

export const ledgerDialogStore = createStore<LedgerDialogState>()((set) => ({
  sessionId: null,
  open: (sessionId) => set({ sessionId }),
  close: () => set({ sessionId: null }),
}));

export const openLedgerDialog = (sessionId: SessionId): void => ledgerDialogStore.getState().open(sessionId);
