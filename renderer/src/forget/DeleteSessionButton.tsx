import './delete-button.css';
import { openDeleteSession } from './forget-store';

/** "Delete…" in the session header: opens the confirmation, which lists what would go. */
export function DeleteSessionButton({ sessionId }: { readonly sessionId: string }) {
  return (
    <button type="button" className="secondary-button delete-session-button" data-testid="open-delete" onClick={() => openDeleteSession(sessionId)}>
      Delete…
    </button>
  );
}
