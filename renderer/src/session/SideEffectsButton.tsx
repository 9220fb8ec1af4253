import { useState } from 'react';
import type { SessionId } from '../../../shared/model';
import { LedgerDialog } from '../time-travel/LedgerDialog';

/** "Side effects…" in the session header's facts line (not its buttons: the title keeps its room): the ledger. */
export function SideEffectsButton({ sessionId }: { readonly sessionId: SessionId }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="link-button" data-testid="open-ledger" onClick={() => setOpen(true)}>
        Side effects…
      </button>
      {open ? <LedgerDialog sessionId={sessionId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
