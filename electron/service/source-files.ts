/**
 * "Source deleted" (issue 15, the archive): a session none of whose transcript files is still on disk — Claude
 * Code's cleanup (`cleanupPeriodDays`) or the user removed them. Arbor's store keeps every line it imported, so
 * nothing about the session degrades; the list and the session header only say so. One stat per file until one
 * exists (a session's own transcript is checked first, so most sessions cost one stat), all in parallel.
 */
import { stat } from 'node:fs/promises';
import type { SessionSourceFiles } from '../db/session-source-files';

export type FileExists = (path: string) => Promise<boolean>;

const onDisk: FileExists = (path) => stat(path).then(
  () => true,
  (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
);

/** The ids of these sessions whose transcript files are all gone (a session with no files is never marked). */
export async function sessionsWithSourceDeleted(files: SessionSourceFiles, sessionIds: readonly string[], exists: FileExists = onDisk): Promise<Set<string>> {
  const deleted = new Set<string>();
  await Promise.all(
    [...files.of(sessionIds)].map(async ([sessionId, paths]) => {
      for (const path of paths) if (await exists(path)) return;
      if (paths.length > 0) deleted.add(sessionId);
    }),
  );
  return deleted;
}
