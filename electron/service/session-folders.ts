/**
 * The folder in force at a node (electron/snapshots/folders): where rewind writes by default, what a fork
 * copies, and what relative file-history paths are relative to, once a session moved or entered a worktree.
 */
import type { SessionStore } from '../db/session-store';
import { folderChanges, folderInForce } from '../snapshots/folders/folders-in-force';

/** A session's folder at a line of one of its files (null: the session's own folder, `project`). */
export type FolderAt = (file: string, line: number) => string | null;

export function sessionFolders(store: SessionStore, sessionId: string): FolderAt {
  const changes = folderChanges(store.getSessionRecords(sessionId, ['relocated', 'worktree-state']));
  return changes.length === 0 ? () => null : (file, line) => folderInForce(changes, file, line);
}

/** The folder the session worked in at this transcript node: the folder in force there, else its project. */
export function folderOfNode(store: SessionStore, nodeId: string): string | null {
  const node = store.getNode(nodeId);
  if (node === null) return null;
  const sessionId = node.summary.sessionId;
  return sessionFolders(store, sessionId)(node.file, node.line) ?? store.getSession(sessionId)?.project ?? null;
}
