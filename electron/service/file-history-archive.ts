/**
 * The archive's half of an import (issue 15): Claude Code deletes its file-history backups with its transcripts
 * (`cleanupPeriodDays`), so the backups a transcript names are copied into Arbor's snapshot store as it is
 * imported — one blob per content (the store keeps each content once), a row per (file, backup) in
 * `file_history_copies`, and a ref per transcript file, `refs/arbor/file-history/<file id>`, whose commit's tree
 * (`<backup session>/<backup name>`) keeps those blobs alive until the session is deleted.
 *
 * Streaming: `collect` sees every record the import stores and keeps only the names a file-history line gives,
 * so nothing of the session is held in memory beyond those names; `flush` after each file reads the backups
 * not copied yet, one at a time (an append or a re-import copies only new ones).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createFileHistoryCopies, type FileHistoryCopies, type FileHistoryCopy } from '../db/file-history-copies';
import type { SessionStore } from '../db/session-store';
import { readMeta, writeMeta } from '../db/store-gc-records';
import type { SnapshotStore } from '../git/object-store';
import type { TreeEntry } from '../git/git-object';
import type { ParsedRecord, TranscriptFile } from '../importers/transcript';
import { DEFAULT_BACKUP_LIMITS, openBackupReader, parseCheckpointRecord, parseDeltaRecord } from '../snapshots/file-history';
import { throwIfAborted } from '../../shared/errors';

export const FILE_HISTORY_REF_PREFIX = 'refs/arbor/file-history/';

export function fileHistoryRefName(fileId: number): string {
  return `${FILE_HISTORY_REF_PREFIX}${fileId}`;
}

export interface FileHistoryArchive {
  /** Notes the backups a stored line names (every record of the import passes through here). */
  collect(file: TranscriptFile, record: ParsedRecord): void;
  /**
   * Copies the backups the file's lines named that the store does not hold for it yet; returns how many.
   * `onBackup` hears each backup file as it is read (the import's progress shows it).
   */
  flush(file: TranscriptFile, signal?: AbortSignal, onBackup?: (path: string) => void): Promise<number>;
  /**
   * Once per store: the backups named by transcripts imported before the archive existed (migration 027) are
   * copied too, while Claude Code still has them. Returns how many; 0 once done.
   */
  backfill(signal?: AbortSignal, onBackup?: (path: string) => void): Promise<number>;
}

export interface FileHistoryArchiveOptions {
  /** Claude Code's config folder (`~/.claude`, or `$CLAUDE_CONFIG_DIR`). */
  readonly claudeConfigDir: string;
  readonly objects: () => SnapshotStore;
  readonly now?: () => Date;
}

interface Wanted {
  /** The file-history folders to look in, in order: the line's own session, then the file's. */
  readonly folders: readonly string[];
  readonly name: string;
}

const RECORD_TYPES = new Set(['file-history-snapshot', 'file-history-delta']);

export function createFileHistoryArchive(store: SessionStore, options: FileHistoryArchiveOptions): FileHistoryArchive {
  const pending = new Map<string, Map<string, Wanted>>();
  let copies: FileHistoryCopies | undefined;
  const table = (): FileHistoryCopies => (copies ??= createFileHistoryCopies(store.handles));

  const archive: FileHistoryArchive = {
    collect(file, record) {
      if (!RECORD_TYPES.has(record.type) || record.rawBytes > record.raw.length) return;
      const named = backupNames(record);
      if (named.names.length === 0) return;
      const folders = [...new Set([named.sessionId, file.sessionHint].filter((id): id is string => id !== null && id.length > 0))];
      if (folders.length === 0) return;
      let wanted = pending.get(file.path);
      if (wanted === undefined) pending.set(file.path, (wanted = new Map()));
      for (const name of named.names) wanted.set(`${folders.join('|')}/${name}`, { folders, name });
    },

    async flush(file, signal, onBackup) {
      const wanted = pending.get(file.path);
      pending.delete(file.path);
      if (wanted === undefined || wanted.size === 0) return 0;
      const fileId = table().fileIdOf(file.path);
      if (fileId === null) return 0;
      // No total budget: each backup is read once, here, and only the per-file limit keeps a huge one out.
      const reader = await openBackupReader(options.claudeConfigDir, { maxFileBytes: DEFAULT_BACKUP_LIMITS.maxFileBytes, maxTotalBytes: Number.POSITIVE_INFINITY });
      if (reader === null) return 0;
      const objects = options.objects();
      const writer = objects.createWriter({ durable: true });
      const added: FileHistoryCopy[] = [];
      for (const { folders, name } of wanted.values()) {
        throwIfAborted(signal);
        if (folders.some((folder) => table().has(fileId, folder, name))) continue;
        for (const folder of folders) {
          onBackup?.(join(options.claudeConfigDir, 'file-history', folder, name));
          const bytes = await reader.read(folder, name);
          if (bytes === null) continue;
          added.push({ backupSession: folder, backupName: name, blobOid: writer.write('blob', bytes), size: bytes.length });
          await writer.flushIfLarge();
          break;
        }
      }
      if (added.length === 0) return 0;
      // The ref first, then the rows: a crash between leaves blobs the next import finds again, never rows
      // naming blobs a gc could prune.
      const all = [...table().ofFile(fileId), ...added];
      const commit = writeCopiesCommit(writer, all, options.now?.() ?? new Date());
      await writer.finish();
      await objects.setRef(fileHistoryRefName(fileId), commit);
      table().add(fileId, added);
      return added.length;
    },

    async backfill(signal, onBackup) {
      const db = store.handles.write;
      if (readMeta(db, BACKFILL_DONE_KEY) !== null) return 0;
      // Names only are held (the lines are read in one pass, then the files' backups copied one at a time).
      const files = new Map<string, TranscriptFile>();
      table().forEachUncopiedLine((line) => {
        let file = files.get(line.path);
        if (file === undefined) files.set(line.path, (file = storedFile(line.path)));
        archive.collect(file, { type: line.type, raw: line.raw, rawBytes: line.rawBytes, refSourceId: null, summary: null, sessionSourceId: null, line: 0, offset: 0 });
      });
      let copied = 0;
      for (const file of files.values()) copied += await archive.flush(file, signal, onBackup);
      writeMeta(db, BACKFILL_DONE_KEY, (options.now?.() ?? new Date()).toISOString());
      return copied;
    },
  };
  return archive;
}

/** The store's meta key: the copies of transcripts imported before the archive were made. */
const BACKFILL_DONE_KEY = 'file_history_backfilled_at';
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** What the archive needs of a stored transcript file: its path, and the session its name gives. */
function storedFile(path: string): TranscriptFile {
  const sessionHint = SESSION_FILE.exec(basename(path))?.[1] ?? null;
  return { format: 'claude-code', path, size: 0, mtimeMs: 0, role: 'main', sessionHint, agentId: null };
}

/** The backup names a file-history line gives (null ones mean "did not exist") and the session id it carries. */
function backupNames(record: ParsedRecord): { readonly names: readonly string[]; readonly sessionId: string | null } {
  const raw = record.raw.toString('utf8');
  const names: string[] = [];
  if (record.type === 'file-history-delta') {
    const delta = parseDeltaRecord(raw);
    if (delta?.backupFileName != null) names.push(delta.backupFileName);
  } else {
    for (const backup of parseCheckpointRecord(raw)?.backups ?? []) if (backup.backupFileName !== null) names.push(backup.backupFileName);
  }
  if (names.length === 0) return { names, sessionId: null };
  return { names, sessionId: record.sessionSourceId ?? sessionIdOf(raw) };
}

function sessionIdOf(raw: string): string | null {
  try {
    const entry = JSON.parse(raw) as { sessionId?: unknown };
    return typeof entry.sessionId === 'string' ? entry.sessionId : null;
  } catch {
    return null;
  }
}

/** A commit whose tree is `<backup session>/<backup name>` for every copy of the file (what its ref keeps). */
function writeCopiesCommit(writer: ReturnType<SnapshotStore['createWriter']>, copies: readonly FileHistoryCopy[], now: Date): string {
  const bySession = new Map<string, TreeEntry[]>();
  for (const copy of copies) {
    let entries = bySession.get(copy.backupSession);
    if (entries === undefined) bySession.set(copy.backupSession, (entries = []));
    if (!entries.some((entry) => entry.name === copy.backupName)) entries.push({ mode: '100644', name: copy.backupName, oid: copy.blobOid });
  }
  const root: TreeEntry[] = [...bySession].map(([session, entries]) => ({ mode: '40000', name: session, oid: writer.writeTree(entries) }));
  const who = { name: 'Arbor', email: 'snapshots@arbor.invalid', timestamp: Math.floor(now.getTime() / 1000), timezoneOffsetMinutes: 0 };
  return writer.writeCommit({ tree: writer.writeTree(root), parents: [], author: who, committer: who, message: 'File-history backups kept by Arbor\n' });
}

/**
 * Removes the refs of transcript files that no longer hold copies (their sessions were deleted), so the next
 * prune takes the blobs no other file's ref reaches. Returns how many refs went.
 */
export async function removeForgottenFileHistoryRefs(store: SessionStore, objects: SnapshotStore): Promise<number> {
  const refs = await objects.listRefs(FILE_HISTORY_REF_PREFIX);
  const ids = [...refs.keys()].map((name) => Number(name.slice(FILE_HISTORY_REF_PREFIX.length))).filter((id) => Number.isSafeInteger(id));
  const kept = createFileHistoryCopies(store.handles).filesWithCopies(ids);
  let removed = 0;
  for (const name of refs.keys()) {
    const id = Number(name.slice(FILE_HISTORY_REF_PREFIX.length));
    if (Number.isSafeInteger(id) && kept.has(id)) continue;
    await objects.deleteRef(name);
    removed++;
  }
  return removed;
}

/** Session ids from transcript lines name folders: anything that could leave the file-history folder is ignored. */
const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A fork's `/rewind` checkpoints when the source's file-history folder is gone (Claude Code's cleanup): the
 * backups the store kept for the source sessions are written into `<config>/file-history/<new id>/`, beside
 * whatever the folder copy linked; a name already there is left as it is. Returns how many were written.
 */
export async function restoreFileHistory(
  store: SessionStore,
  objects: () => SnapshotStore,
  configDir: string,
  sourceSessionIds: Iterable<string>,
  newSessionId: string,
  signal?: AbortSignal,
): Promise<number> {
  const copies = createFileHistoryCopies(store.handles);
  if (!copies.any() || !SAFE_FOLDER.test(newSessionId)) return 0;
  const target = join(configDir, 'file-history', newSessionId);
  let written = 0;
  for (const id of new Set(sourceSessionIds)) {
    if (!SAFE_FOLDER.test(id) || id === newSessionId) continue;
    for (const copy of copies.ofBackupSession(id)) {
      throwIfAborted(signal);
      const path = join(target, copy.backupName);
      // Linked from the source's folder already: its blob is not read.
      if (await stat(path).then(() => true, () => false)) continue;
      const snapshots = objects();
      if (!snapshots.has(copy.blobOid)) snapshots.refresh();
      if (!snapshots.has(copy.blobOid)) continue;
      await mkdir(target, { recursive: true });
      try {
        await writeFile(path, snapshots.readBlob(copy.blobOid), { flag: 'wx' });
        written++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
  return written;
}
