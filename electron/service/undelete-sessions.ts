/**
 * Bringing deleted sessions back (`arbor import --include-deleted`): the tombstones of the files below the
 * import's paths are cleared, so the import reads them again from their first line.
 */
import { clearTombstones } from '../db/deleted-files';
import type { SessionStore } from '../db/session-store';

export function forgetTombstones(store: SessionStore, paths: readonly string[]): string[] {
  return clearTombstones(store.handles.write, paths);
}
