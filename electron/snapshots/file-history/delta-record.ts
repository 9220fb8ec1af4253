/**
 * One `file-history-delta` line (Claude Code 2026, issue 13): the backup of one file taken just before one
 * edit — `{messageId, trackingPath, backup: {backupFileName, version, backupTime, realParentDir?}}`. Where a
 * `file-history-snapshot` lists every tracked file of a checkpoint, a delta describes that one edit exactly,
 * so it wins over a snapshot entry for the same file and version (checkpoints.ts).
 */

export interface DeltaRecord {
  /** The node whose edit the backup prepared. */
  readonly messageId: string | null;
  /** As written: relative to the session's folder (or to realParentDir), or absolute. */
  readonly key: string;
  /** `<hash>@v<N>`, or null: the file did not exist before the edit. */
  readonly backupFileName: string | null;
  readonly version: number;
  readonly backupTime: string | null;
  /** The folder a relative trackingPath is relative to, when not the session's (a worktree's file). */
  readonly realParentDir: string | null;
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Null when the line is not a readable file-history-delta. */
export function parseDeltaRecord(raw: string): DeltaRecord | null {
  let entry: unknown;
  try {
    entry = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isJson(entry) || entry.type !== 'file-history-delta' || !isJson(entry.backup)) return null;
  const key = str(entry.trackingPath);
  const name = entry.backup.backupFileName;
  if (key === null || key.length === 0 || (name !== null && typeof name !== 'string')) return null;
  const realParentDir = str(entry.backup.realParentDir);
  return {
    messageId: str(entry.messageId),
    key,
    backupFileName: name,
    version: typeof entry.backup.version === 'number' ? entry.backup.version : 0,
    backupTime: str(entry.backup.backupTime),
    realParentDir: realParentDir === null || realParentDir.length === 0 ? null : realParentDir,
  };
}
