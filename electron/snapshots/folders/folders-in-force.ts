/**
 * The folder a session works in at each of its lines (issue 13). Claude Code 2026 writes a `relocated` line
 * (`relocatedCwd`) when the session's folder moved, and `worktree-state` lines when it enters a git worktree
 * (`worktreeSession.worktreePath`) or leaves it (`worktreeSession: null`: back to `originalCwd`). A line's
 * folder is the one the last such line before it in its file set; before any, the session's own folder
 * (its first cwd, the caller's default). The order is the file's, not the conversation's: moving the folder
 * is something the process did, and a rewind of the conversation does not move it back.
 */

export interface FolderRecord {
  readonly type: string;
  readonly file: string;
  readonly line: number;
  readonly raw: Buffer | string;
}

/** From this line of this file on, the session works in `folder` (null: its own folder again). */
export interface FolderChange {
  readonly file: string;
  readonly line: number;
  readonly folder: string | null;
  /** A relocation moves the same files elsewhere; a worktree is another checkout of them. */
  readonly kind: 'relocated' | 'worktree';
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** The changes the records say, in their order (records in file order, as getSessionRecords gives them). */
export function folderChanges(records: readonly FolderRecord[]): FolderChange[] {
  const changes: FolderChange[] = [];
  /** Per file: the folder in force, and the folder a worktree was entered from. */
  const state = new Map<string, { folder: string | null; original: string | null }>();
  for (const record of records) {
    let entry: unknown;
    try {
      entry = JSON.parse(record.raw.toString());
    } catch {
      continue; // a damaged line says nothing about the folder
    }
    if (!isJson(entry)) continue;
    const now = state.get(record.file) ?? { folder: null, original: null };
    let folder: string | null | undefined;
    if (record.type === 'relocated') {
      folder = str(entry.relocatedCwd);
      if (folder === null) continue;
    } else if (record.type === 'worktree-state') {
      const worktree = entry.worktreeSession;
      if (worktree === null) {
        folder = now.original ?? null;
        now.original = null;
      } else if (isJson(worktree) && str(worktree.worktreePath) !== null) {
        now.original = str(worktree.originalCwd) ?? now.folder;
        folder = str(worktree.worktreePath);
      } else continue;
    } else continue;
    now.folder = folder ?? null;
    state.set(record.file, now);
    changes.push({ file: record.file, line: record.line, folder: now.folder, kind: record.type === 'relocated' ? 'relocated' : 'worktree' });
  }
  return changes;
}

/** The folder in force at line `line` of `file`; null: the session's own folder (no change before it). */
export function folderInForce(changes: readonly FolderChange[], file: string, line: number): string | null {
  let folder: string | null = null;
  for (const change of changes) if (change.file === file && change.line < line) folder = change.folder;
  return folder;
}

/**
 * The folders the session's files were moved from (by `relocated`) into the folder in force at the line,
 * latest first: a file the session edited there before a move is the same file in the folder now. A worktree
 * is another checkout, so entering or leaving one starts the list again. `own` is the session's own folder.
 */
export function movedFrom(changes: readonly FolderChange[], file: string, line: number, own: string | null): string[] {
  let current = own;
  let former: string[] = [];
  for (const change of changes) {
    if (change.file !== file || change.line >= line) continue;
    if (change.kind === 'relocated') {
      if (current !== null && current !== change.folder) former = [current, ...former];
    } else {
      former = [];
    }
    current = change.folder ?? own;
  }
  return former;
}
