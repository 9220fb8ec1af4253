/** The palette's "Delete the session…" (when one is open) and "Clean up forks and storage…". */
import type { SessionId } from '../../../shared/model';
import type { PaletteAction } from '../palette/palette-registry';
import { openCleanUp, openDeleteSession } from './forget-store';

export function forgetActions(sessionId: SessionId | null): PaletteAction[] {
  const actions: PaletteAction[] = [];
  if (sessionId !== null) {
    actions.push({ id: 'delete-session', title: 'Delete the session…', group: 'Session', keywords: 'remove forget erase trash', run: () => openDeleteSession(sessionId) });
  }
  actions.push({ id: 'clean-up', title: 'Clean up forks and storage…', group: 'App', keywords: 'gc garbage orphan temporary forks reclaim space', run: openCleanUp });
  return actions;
}
