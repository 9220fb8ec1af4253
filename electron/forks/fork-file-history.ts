/**
 * Claude Code's file-history backups for a fork's resumable session (FORMATS.md §1.7 and §1.10 (g)): the
 * copied `file-history-snapshot` lines name backups that Claude Code looks up under the session's own id, so
 * without them `/rewind` in the resumed fork has no checkpoints to go back to. The source sessions' backups
 * are hard-linked into `<config dir>/file-history/<new id>/` (copied where the filesystem cannot link): a
 * backup is never changed once written, so sharing its bytes costs no room.
 */
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { throwIfAborted } from '../../shared/errors';

/** Session ids come from transcript lines: anything that could leave the file-history folder is ignored. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function fileHistoryFolder(configDir: string, sessionId: string): string {
  return join(configDir, 'file-history', sessionId);
}

/** The config dir a resumable transcript was written under (`<config dir>/projects/<project>/<id>.jsonl`). */
export function configDirOfTranscript(transcript: string): string {
  return dirname(dirname(dirname(transcript)));
}

/**
 * Links (or copies) every backup of the source sessions into the new session's folder; returns how many.
 * Missing source folders are skipped; a name already there is kept (the first source wins).
 */
export async function copyFileHistory(configDir: string, sourceSessionIds: Iterable<string>, newSessionId: string, signal?: AbortSignal): Promise<number> {
  const target = fileHistoryFolder(configDir, newSessionId);
  let copied = 0;
  let made = false;
  for (const id of new Set(sourceSessionIds)) {
    if (!SESSION_ID.test(id) || id === newSessionId) continue;
    const source = fileHistoryFolder(configDir, id);
    const entries = await readdir(source, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      throwIfAborted(signal);
      if (!entry.isFile()) continue;
      if (!made) {
        await mkdir(target, { recursive: true });
        made = true;
      }
      const from = join(source, entry.name);
      const to = join(target, basename(entry.name));
      try {
        await link(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        // Another filesystem, or one without hard links.
        try {
          await copyFile(from, to, constants.COPYFILE_EXCL);
        } catch (copyError) {
          if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw copyError;
        }
      }
      copied++;
    }
  }
  return copied;
}

/** Bytes the folder's files hold on their own (a file linked from elsewhere shares its room, so it is not counted). */
export async function unsharedBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await lstat(join(folder, entry.name)).catch(() => null);
    if (info !== null && info.nlink === 1) bytes += info.size;
  }
  return bytes;
}
