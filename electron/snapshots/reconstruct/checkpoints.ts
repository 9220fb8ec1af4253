/**
 * Observations from Claude Code's file-history backups (FORMATS.md §1.7): the content a touched file had at a
 * node, read from the backup a `file-history-snapshot` line names. Which node a backup describes:
 * - an initial snapshot (isSnapshotUpdate false) belongs to its prompt: every file it lists had that content
 *   when the prompt was sent (Claude Code re-uses a backup only when the file did not change since it);
 * - an update belongs to the message whose edit it prepared: only the backups it adds describe that moment
 *   (the ones it repeats were taken earlier), the state before that message's edits.
 * - a `file-history-delta` (2026) belongs to the message whose one edit it prepared, like an update, and
 *   describes that edit exactly: it wins over a snapshot entry for the same file and version anywhere in the
 *   session (the snapshot's entry is then not read).
 * Relative keys are relative to the folder in force at the node (a session that moved or entered a worktree,
 * FileHistorySource.folderAt), else to the line's cwd; a delta's realParentDir, when given, wins over both.
 * Only files some edit of the session touched are observed; a missing, oversized or non-UTF-8 backup (the
 * reconstruction holds text) observes nothing.
 */
import { isUtf8 } from 'node:buffer';
import { basename, posix, win32 } from 'node:path';
import { throwIfAborted } from '../../../shared/errors';
import type { NodeId, NodeSummary } from '../../../shared/model';
import { parseCheckpointRecord, parseDeltaRecord, type CheckpointRecord, type DeltaRecord } from '../file-history';
import type { ReadRaw } from './session-effects';

/** A line attached to a node (store.getRecords), with the transcript file it was read from. */
export interface AttachedLine {
  readonly type: string;
  readonly raw: string;
  readonly file: string;
}

/** Where reconstructSession finds the file history; absent when the user's Claude config has none. */
export interface FileHistorySource {
  recordsOf(nodeId: NodeId): readonly AttachedLine[] | Promise<readonly AttachedLine[]>;
  /** The backup's bytes, or null when it is missing or not readable within limits. */
  readBackup(sessionId: string, backupFileName: string): Promise<Buffer | null>;
  /** The folder in force at the node when the session moved or entered a worktree; null or absent: its cwd. */
  folderAt?(nodeId: NodeId): string | null;
}

/** The record types this reader takes (recordsOf may give only these). */
export const FILE_HISTORY_RECORDS: ReadonlySet<string> = new Set(['file-history-snapshot', 'file-history-delta']);

export interface CheckpointObservation {
  /** Absolute, as the session's edits write it. */
  readonly path: string;
  /** The file's text, or null: it did not exist. */
  readonly content: string | null;
  readonly backupFileName: string | null;
}

/** Node kinds a checkpoint line can name: prompts (user, or system for slash commands) and assistant messages. */
const CHECKPOINT_KINDS = new Set(['user', 'system', 'assistant', 'thinking', 'tool_call']);
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

type Json = Record<string, unknown>;

function lineFields(raw: string | null): { cwd: string | null; sessionId: string | null } {
  if (raw === null) return { cwd: null, sessionId: null };
  try {
    const entry = JSON.parse(raw) as Json;
    return { cwd: typeof entry.cwd === 'string' ? entry.cwd : null, sessionId: typeof entry.sessionId === 'string' ? entry.sessionId : null };
  } catch {
    return { cwd: null, sessionId: null };
  }
}

function absolutePath(key: string, cwd: string | null): string | null {
  if (posix.isAbsolute(key) || win32.isAbsolute(key)) return key;
  if (cwd === null) return null;
  return /^[A-Za-z]:[\\/]/.test(cwd) ? win32.join(cwd, key) : posix.join(cwd, key);
}

/** Per node index, the files observed there (before the node's own edits); undefined where none. */
export async function readCheckpoints(
  nodes: readonly NodeSummary[],
  readRaw: ReadRaw,
  source: FileHistorySource,
  touched: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<(CheckpointObservation[] | undefined)[]> {
  const observed: (CheckpointObservation[] | undefined)[] = new Array(nodes.length);
  if (touched.size === 0) return observed;
  // Checkpoint id → the backups its last line listed, to tell an update's new backups from repeated ones.
  const listed = new Map<string, Map<string, string>>();
  const contents = new Map<string, Promise<string | undefined>>();

  const contentOf = (sessionIds: readonly string[], name: string): Promise<string | undefined> => {
    const key = `${sessionIds.join('|')}/${name}`;
    let pending = contents.get(key);
    if (pending === undefined) {
      pending = (async () => {
        for (const sessionId of sessionIds) {
          const bytes = await source.readBackup(sessionId, name);
          if (bytes !== null) return isUtf8(bytes) ? bytes.toString('utf8') : undefined;
        }
        return undefined;
      })();
      contents.set(key, pending);
    }
    return pending;
  };

  // First the lines of every node, so a delta is known before any snapshot entry it overrides is read.
  interface NodeLines {
    readonly i: number;
    readonly cwd: string | null;
    readonly sessionIds: readonly string[];
    readonly snapshots: CheckpointRecord[];
    readonly deltas: DeltaRecord[];
  }
  const read: NodeLines[] = [];
  const deltaVersions = new Set<string>();
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (!CHECKPOINT_KINDS.has(node.kind)) continue;
    if ((i & 255) === 0) throwIfAborted(signal);
    const lines = (await source.recordsOf(node.id)).filter((line) => line.type === 'file-history-snapshot' || line.type === 'file-history-delta');
    if (lines.length === 0) continue;
    const fields = lineFields(await readRaw(node.id));
    const cwd = source.folderAt?.(node.id) ?? fields.cwd;
    const fileSessions = lines.map((line) => SESSION_FILE.exec(basename(line.file))?.[1]);
    const sessionIds = [...new Set([...fileSessions, fields.sessionId].filter((id): id is string => id != null))];
    const entry: NodeLines = { i, cwd, sessionIds, snapshots: [], deltas: [] };
    for (const line of lines) {
      if (line.type === 'file-history-delta') {
        const delta = parseDeltaRecord(line.raw);
        if (delta === null) continue;
        entry.deltas.push(delta);
        const path = absolutePath(delta.key, delta.realParentDir ?? cwd);
        if (path !== null) deltaVersions.add(`${delta.version}@${path}`);
      } else {
        const record = parseCheckpointRecord(line.raw);
        if (record !== null) entry.snapshots.push(record);
      }
    }
    read.push(entry);
  }

  for (const { i, cwd, sessionIds, snapshots, deltas } of read) {
    const observe = async (path: string | null, backupFileName: string | null) => {
      if (path === null || !touched.has(path)) return;
      const content = backupFileName === null ? null : await contentOf(sessionIds, backupFileName);
      if (content === undefined) return;
      (observed[i] ??= []).push({ path, content, backupFileName });
    };
    // At its node a delta is the exact state of its file: snapshot entries for that file there are not read.
    const byDelta = new Set<string>();
    for (const delta of deltas) {
      const path = absolutePath(delta.key, delta.realParentDir ?? cwd);
      if (path !== null) byDelta.add(path);
      await observe(path, delta.backupFileName);
    }
    for (const record of snapshots) {
      for (const backup of assertedBackups(record, listed)) {
        const path = absolutePath(backup.key, cwd);
        if (path !== null && (byDelta.has(path) || deltaVersions.has(`${backup.version}@${path}`))) continue;
        await observe(path, backup.backupFileName);
      }
    }
  }
  return observed;
}

/** The backups a line says something about at its own node (see the module comment). */
function assertedBackups(record: CheckpointRecord, listed: Map<string, Map<string, string>>): CheckpointRecord['backups'] {
  const signature = (backup: CheckpointRecord['backups'][number]) => `${backup.backupFileName ?? ''}@${backup.version}`;
  const before = record.checkpointId === null ? undefined : listed.get(record.checkpointId);
  const now = new Map(record.backups.map((backup) => [backup.key, signature(backup)]));
  if (record.checkpointId !== null) listed.set(record.checkpointId, now);
  if (!record.isUpdate) return record.backups;
  if (before !== undefined) return record.backups.filter((backup) => before.get(backup.key) !== signature(backup));
  // Its prompt's line is not at hand: the latest backups are the ones this update added.
  const latest = record.backups.reduce<string | null>((max, backup) => (backup.backupTime !== null && (max === null || backup.backupTime > max) ? backup.backupTime : max), null);
  return latest === null ? [] : record.backups.filter((backup) => backup.backupTime === latest);
}
