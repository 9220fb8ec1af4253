/**
 * One `file-history-snapshot` line (FORMATS.md §1.7): the backups Claude Code took of the files its edit tools
 * changed, the index behind `/rewind`. `null` as a backup name means the file did not exist.
 */

export interface CheckpointBackup {
  /** As written: relative to the session's cwd, or absolute for files outside it. */
  readonly key: string;
  /** `<hash>@v<N>` under `file-history/<session-id>/`, or null: the file did not exist. */
  readonly backupFileName: string | null;
  readonly version: number;
  /** ISO time the backup was taken, when written. */
  readonly backupTime: string | null;
}

export interface CheckpointRecord {
  /** The node the line belongs to: the prompt (initial snapshot) or the message whose edit it prepared (update). */
  readonly messageId: string | null;
  /** The prompt whose checkpoint this is. */
  readonly checkpointId: string | null;
  /** False: the snapshot taken when the prompt was sent. True: backups added during the turn, before an edit. */
  readonly isUpdate: boolean;
  readonly backups: readonly CheckpointBackup[];
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Null when the line is not a readable file-history-snapshot (cut at the store's raw limit, or damaged). */
export function parseCheckpointRecord(raw: string): CheckpointRecord | null {
  let entry: unknown;
  try {
    entry = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isJson(entry) || entry.type !== 'file-history-snapshot' || !isJson(entry.snapshot)) return null;
  const snapshot = entry.snapshot;
  const tracked = isJson(snapshot.trackedFileBackups) ? snapshot.trackedFileBackups : {};
  const backups: CheckpointBackup[] = [];
  for (const [key, value] of Object.entries(tracked)) {
    if (key.length === 0 || !isJson(value)) continue;
    const name = value.backupFileName;
    if (name !== null && typeof name !== 'string') continue;
    backups.push({ key, backupFileName: name, version: typeof value.version === 'number' ? value.version : 0, backupTime: str(value.backupTime) });
  }
  const checkpointId = str(snapshot.messageId);
  return { messageId: str(entry.messageId) ?? checkpointId, checkpointId, isUpdate: entry.isSnapshotUpdate === true, backups };
}
