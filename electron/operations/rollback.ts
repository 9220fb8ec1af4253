/**
 * Puts back what an interrupted operation replaced. Every write was an atomic rename, so a file the journal
 * says was being written (or was written) holds either its before or its after version; anything else means
 * someone else changed it since, and it is reported, never overwritten. The rollback writes through the same
 * checked folders as the operation (workspace-folders.ts): a folder swapped for a symlink is never written
 * through; what cannot be put back safely is reported and left.
 */
import type { OperationFileRecord, OperationRecord } from '../db/operation-journal';
import type { SnapshotStore } from '../git/object-store';
import { sameVersion, type WorkspaceFile } from '../git/workspace-files';
import { bitsOf, byDepth } from './operation-folders';
import { deleteFile, nowNs, placeStaged, readFile, removeTemporary, stageVersion, temporaryFile } from './file-writes';
import { parentOf, WorkspaceChangedDuringWrite, type WorkspaceFolders } from './workspace-folders';

export interface RollbackProblem {
  readonly path: string;
  readonly message: string;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function readOrProblem(folders: WorkspaceFolders, path: string): WorkspaceFile | null | RollbackProblem {
  try {
    return readFile(folders, path);
  } catch (error) {
    return { path, message: messageOf(error) };
  }
}

function hasFolderOrProblem(folders: WorkspaceFolders, path: string): boolean | RollbackProblem {
  try {
    return folders.hasFolder(path);
  } catch (error) {
    return { path, message: messageOf(error) };
  }
}

const isProblem = (value: WorkspaceFile | null | RollbackProblem): value is RollbackProblem => value !== null && 'message' in value;

/** True when every file of the operation was written and still holds what the operation wrote. */
export function allWritten(folders: WorkspaceFolders, files: readonly OperationFileRecord[]): boolean {
  for (const file of files) {
    if (file.state !== 'done') return false;
    const current = readOrProblem(folders, file.path);
    if (isProblem(current) || !sameVersion(current, file.after)) return false;
  }
  return true;
}

/** Makes every missing folder above `path` (folders a deletion of the operation removed, with their bits), shallowest first. */
function ensureFolders(folders: WorkspaceFolders, path: string, modes: Readonly<Record<string, number>>): void {
  const missing: string[] = [];
  for (let dir = parentOf(path); dir !== '' && !folders.hasFolder(dir); dir = parentOf(dir)) missing.push(dir);
  for (const dir of missing.reverse()) folders.makeFolder(dir, bitsOf(modes, dir));
}

/**
 * Restores the before version of every file the operation touched (latest write first, so a folder it
 * created is emptied before the file it replaced comes back) and removes temporary files and the folders it
 * created; folders that were there before stay, empty or not. `leave` names paths someone else changed
 * while the operation ran (found by its checks): they keep what they hold now. `touched`, when the caller
 * knows it, names the writes that may have changed something (the others are not looked at: their folder may
 * be one swapped since). Returns the paths it could not restore.
 */
export async function rollBackFiles(
  objects: SnapshotStore,
  operation: OperationRecord,
  files: readonly OperationFileRecord[],
  durable: boolean,
  folders: WorkspaceFolders,
  leave: ReadonlySet<string> = new Set(),
  touched?: ReadonlySet<number>,
): Promise<RollbackProblem[]> {
  const problems: RollbackProblem[] = [];
  const created = new Set(operation.createdDirs);
  // Files still `planned` are checked too: after a power loss the journal may have lost an intent whose rename
  // survived (SQLite's WAL at synchronous=NORMAL); a file holding its after version is put back either way.
  for (const file of [...files].reverse()) {
    if (touched !== undefined && !touched.has(file.seq)) continue;
    const temporary = temporaryFile(file.path, operation.id, file.seq);
    try {
      removeTemporary(folders, temporary);
    } catch (error) {
      problems.push({ path: file.path, message: `Cannot remove ${temporary}: ${messageOf(error)}` });
      continue;
    }
    if (leave.has(file.path)) continue;
    // The folder that stood where the file goes is still there (interrupted before it was removed): as before.
    if (file.before === null && Object.hasOwn(operation.foldersBefore, file.path) && hasFolderOrProblem(folders, file.path) === true) continue;
    const current = readOrProblem(folders, file.path);
    if (isProblem(current)) {
      problems.push(current);
      continue;
    }
    if (sameVersion(current, file.before)) continue;
    if (!sameVersion(current, file.after)) {
      problems.push({ path: file.path, message: `${file.path} changed after the operation wrote it; it was left as it is` });
      continue;
    }
    const seen = { version: current && { oid: current.oid, mode: current.mode }, stat: null, seenAtNs: nowNs() };
    try {
      if (file.before === null) {
        // Only folders the operation made go with the file: an empty folder that was there before stays.
        deleteFile(folders, file.path, seen, (dir) => created.has(dir));
      } else {
        ensureFolders(folders, file.path, operation.foldersBefore);
        stageVersion(objects, folders, file.path, file.before, temporary, durable);
        await placeStaged(folders, file.path, temporary, file.before, seen);
      }
    } catch (error) {
      problems.push({ path: file.path, message: `Cannot restore ${file.path}: ${messageOf(error)}` });
    }
  }
  // Deepest first; a folder that still holds something (a file written there since) stays.
  for (const folder of [...operation.createdDirs].reverse()) {
    try {
      folders.removeFolderIfEmpty(folder);
    } catch {
      // gone already, or no longer the folder the operation made: left as it is
    }
  }
  // Folders the operation removed that no restored file brought back: empty ones, shallowest first.
  const before = Object.keys(operation.foldersBefore).sort(byDepth);
  // Where the user put a file of their own (found while writing), what stood there before is theirs to decide.
  const usersFiles = files.filter((file) => leave.has(file.path)).map((file) => file.path);
  for (const folder of before) {
    if (usersFiles.some((path) => folder === path || folder.startsWith(`${path}/`))) continue;
    try {
      if (!folders.hasFolder(folder)) {
        ensureFolders(folders, `${folder}/-`, operation.foldersBefore);
      }
    } catch (error) {
      // Not removed by the operation (a folder swapped or moved by someone else): their change, left as it is.
      if (error instanceof WorkspaceChangedDuringWrite && !folders.removed(folder)) continue;
      problems.push({ path: folder, message: `Cannot make the folder ${folder} again: ${messageOf(error)}` });
    }
  }
  return problems;
}
