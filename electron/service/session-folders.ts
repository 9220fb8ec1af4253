/**
 * The folder in force at a node (electron/snapshots/folders): where rewind writes by default, what a fork
 * copies, and what relative file-history paths are relative to, once a session moved or entered a worktree.
 */
import type { SessionStore } from '../db/session-store';
import { folderChanges, folderInForce, movedFrom } from '../snapshots/folders/folders-in-force';

/** A session's folder at a line of one of its files (null: the session's own folder, `project`). */
export type FolderAt = (file: string, line: number) => string | null;

export function sessionFolders(store: SessionStore, sessionId: string): FolderAt {
  const changes = folderChanges(store.getSessionRecords(sessionId, ['relocated', 'worktree-state']));
  return changes.length === 0 ? () => null : (file, line) => folderInForce(changes, file, line);
}

/** The folder in force at the node and the folders its files were moved from into it (latest first). */
export function foldersOfNode(store: SessionStore, nodeId: string): { readonly folder: string | null; readonly movedFrom: readonly string[] } {
  const node = store.getNode(nodeId);
  if (node === null) return { folder: null, movedFrom: [] };
  const sessionId = node.summary.sessionId;
  const project = store.getSession(sessionId)?.project ?? null;
  const changes = folderChanges(store.getSessionRecords(sessionId, ['relocated', 'worktree-state']));
  return { folder: folderInForce(changes, node.file, node.line) ?? project, movedFrom: movedFrom(changes, node.file, node.line, project) };
}
