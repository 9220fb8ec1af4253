/**
 * Puts back what an interrupted operation replaced. Every write was an atomic rename, so a file the journal
 * says was being written (or was written) holds either its before or its after version; anything else means
 * someone else changed it since, and it is reported, never overwritten.
 */
import { rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationFileRecord, OperationRecord } from '../db/operation-journal';
import type { SnapshotStore } from '../git/object-store';
import { readWorkspaceFile, sameVersion, type WorkspaceFile } from '../git/workspace-files';
import { placeStaged, stageVersion, temporaryPath } from './file-writes';

export interface RollbackProblem {
  readonly path: string;
  readonly message: string;
}

async function readOrProblem(root: string, path: string): Promise<WorkspaceFile | null | RollbackProblem> {
  try {
    return await readWorkspaceFile(root, path);
  } catch (error) {
    return { path, message: error instanceof Error ? error.message : String(error) };
  }
}

const isProblem = (value: WorkspaceFile | null | RollbackProblem): value is RollbackProblem => value !== null && 'message' in value;

/** True when every file of the operation was written and still holds what the operation wrote. */
export async function allWritten(operation: OperationRecord, files: readonly OperationFileRecord[]): Promise<boolean> {
  for (const file of files) {
    if (file.state !== 'done') return false;
    const current = await readOrProblem(operation.workspace, file.path);
    if (isProblem(current) || !sameVersion(current, file.after)) return false;
  }
  return true;
}

/**
 * Restores the before version of every file the operation touched (latest write first, so a folder it
 * created is emptied before the file it replaced comes back) and removes temporary files and folders it
 * created. Returns the paths it could not restore.
 */
export async function rollBackFiles(
  objects: SnapshotStore,
  operation: OperationRecord,
  files: readonly OperationFileRecord[],
  durable: boolean,
): Promise<RollbackProblem[]> {
  const root = operation.workspace;
  const problems: RollbackProblem[] = [];
  // Files still `planned` are checked too: after a power loss the journal may have lost an intent whose rename
  // survived (SQLite's WAL at synchronous=NORMAL); a file holding its after version is put back either way.
  for (const file of [...files].reverse()) {
    const temporary = temporaryPath(root, file.path, operation.id, file.seq);
    rmSync(temporary, { force: true });
    const current = await readOrProblem(root, file.path);
    if (isProblem(current)) {
      problems.push(current);
      continue;
    }
    if (sameVersion(current, file.before)) continue;
    if (!sameVersion(current, file.after)) {
      problems.push({ path: file.path, message: `${file.path} changed after the operation wrote it; it was left as it is` });
      continue;
    }
    try {
      if (stageVersion(objects, root, file.path, file.before, temporary, durable)) await placeStaged(root, file.path, temporary);
    } catch (error) {
      problems.push({ path: file.path, message: `Cannot restore ${file.path}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  // Deepest first; a folder that still holds something (a file written there since) stays.
  for (const folder of [...operation.createdDirs].reverse()) {
    try {
      rmdirSync(join(root, folder));
    } catch {
      // gone already, or holds something written there since
    }
  }
  return problems;
}
