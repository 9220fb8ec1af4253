import { useStore } from 'zustand';
import type { SessionId } from '../../../shared/model';
import { LedgerDialog } from '../time-travel/LedgerDialog';
import { ledgerDialogStore, openLedgerDialog } from './ledger-dialog-store';

/**
 * "Side effects…" in the session header's facts line (not its buttons: the title keeps its room): the ledger.
 * The palette's "Show side effects…" opens the same dialog through ledgerDialogStore.
 */
export function SideEffectsButton({ sessionId }: { readonly sessionId: SessionId }) {
  const open = useStore(ledgerDialogStore, (s) => s.sessionId === sessionId);
  const close = useStore(ledgerDialogStore, (s) => s.close);
  return (
    <>
      <button type="button" className="link-button" data-testid="open-ledger" onClick={() => openLedgerDialog(sessionId)}>
        Side effects…
      </button>
      {open ? <LedgerDialog sessionId={sessionId} onClose={close} /> : null}
    </>
  );
}
