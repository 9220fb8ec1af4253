import './delete-button.css';
import { DeleteIcon } from '../app/icons';
import { openDeleteSession } from './forget-store';

/** "Delete…" in the session header: opens the confirmation, which lists what would go. */
export function DeleteSessionButton({ sessionId }: { readonly sessionId: string }) {
  return (
    <button type="button" className="secondary-button delete-session-button" data-testid="open-delete" aria-label="Delete…" title="Delete this session (shows what goes, and asks first)" onClick={() => openDeleteSession(sessionId)}>
      <DeleteIcon />
      <span className="head-label">Delete…</span>
    </button>
  );
}
