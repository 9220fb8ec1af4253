/**
 * The folder in force at a node (electron/snapshots/folders): where rewind writes by default, what a fork
 * copies, and what relative file-history paths are relative to, once a session moved or entered a worktree.
 */
import type { SessionStore } from '../db/session-store';
import { importerFor } from '../importers/registry';
import type { NodeSummary } from '../../shared/model';
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
  const folder = folderInForce(changes, node.file, node.line) ?? formatFolderAt(store, node.summary) ?? project;
  return { folder, movedFrom: movedFrom(changes, node.file, node.line, project) };
}

/**
 * The folder the format's own records set last above the node (Codex `turn_context`), null when none does.
 * A record stands after the step it is kept beside, so the walk starts at the node's parent.
 */
function formatFolderAt(store: SessionStore, node: NodeSummary): string | null {
  const records = importerFor(store.getSession(node.sessionId)?.source ?? 'claude-code')?.folderRecords;
  if (records === undefined) return null;
  for (let id = node.parentId; id !== null; ) {
    const lines = store.getRecords(id).filter((record) => records.types.has(record.type));
    for (let i = lines.length - 1; i >= 0; i--) {
      const folder = records.folderOf(lines[i]!.raw.toString('utf8'));
      if (folder !== null) return folder;
    }
    id = store.getNode(id)?.summary.parentId ?? null;
  }
  return null;
}
