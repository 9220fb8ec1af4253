/** A fork's files on disk: how much room they take, and removing them (only what Arbor made for the fork). */
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ForkRecord } from '../db/fork-records';
import { configDirOfTranscript, fileHistoryFolder, unsharedBytes } from './fork-file-history';

/** Bytes of every file below `path` (symlinks count as themselves, never followed); null when it is gone. */
export async function bytesBelow(path: string): Promise<number | null> {
  const top = await lstat(path).catch(() => null);
  if (top === null) return null;
  let bytes = top.isDirectory() ? 0 : top.size;
  const stack = top.isDirectory() ? [path] : [];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = join(folder, entry.name);
      if (entry.isDirectory()) {
        stack.push(child);
        continue;
      }
      bytes += (await lstat(child).catch(() => null))?.size ?? 0;
    }
  }
  return bytes;
}

/** The fork's size on disk: its folder, its resumable transcript and its own file-history; null when the folder is gone. */
export async function forkBytes(fork: ForkRecord): Promise<number | null> {
  const dir = await bytesBelow(fork.dir);
  if (dir === null) return null;
  if (fork.transcript === null) return dir;
  const history = fork.resumeSessionId === null ? 0 : await unsharedBytes(fileHistoryFolder(configDirOfTranscript(fork.transcript), fork.resumeSessionId));
  return dir + ((await bytesBelow(fork.transcript)) ?? 0) + history;
}

/**
 * Deletes the fork's folder (only when Arbor created it) and its resumable transcript with what Claude Code
 * keeps beside it for that session (`<id>/`: subagents, spilled tool results) and its file-history, then
 * the project folder if that left it empty. Returns what it left in place and why; throws when a deletion fails.
 */
export async function removeForkFiles(fork: ForkRecord): Promise<string[]> {
  const notes: string[] = [];
  if (fork.dirCreated) {
    const info = await lstat(fork.dir).catch(() => null);
    // A symlink put where the folder was is removed as a link: its target is not Arbor's.
    if (info !== null) await rm(fork.dir, { recursive: info.isDirectory(), force: true });
  } else {
    notes.push(`kept ${fork.dir}: the folder existed before the fork`);
  }
  if (fork.transcript !== null) {
    await rm(fork.transcript, { force: true });
    const sessionFolder = join(dirname(fork.transcript), basename(fork.transcript, '.jsonl'));
    if (fork.resumeSessionId !== null && basename(sessionFolder) === fork.resumeSessionId) {
      await rm(sessionFolder, { recursive: true, force: true });
      await rm(fileHistoryFolder(configDirOfTranscript(fork.transcript), fork.resumeSessionId), { recursive: true, force: true });
    }
    // Only an empty folder goes: rmdir refuses anything else.
    await rmdir(dirname(fork.transcript)).catch(() => undefined);
  }
  return notes;
}
