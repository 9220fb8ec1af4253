/**
 * One capture of a folder at a time across processes: Claude Code starts a hook process per tool call and
 * the app may capture too, and a folder's stat cache must not mix two captures' entries. In-process captures
 * are already serialized (workspace.writes); this adds a lock file in the data folder, taken with O_EXCL.
 * A lock whose owner died (or that outlived any capture) is broken.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError } from '../../shared/errors';

const RETRY_MS = 25;
/** No capture holds a lock this long (the hook gives up at 20 s): older locks are left over. */
const STALE_MS = 120_000;

export async function withCaptureLock<T>(dataDir: string, folder: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const dir = join(dataDir, 'locks');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `capture-${createHash('sha1').update(folder).digest('hex')}.lock`);
  for (;;) {
    if (signal.aborted) throw new CancelledError();
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(file)) await rm(file, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rm(file, { force: true });
  }
}

async function isStale(file: string): Promise<boolean> {
  try {
    const [info, owner] = await Promise.all([stat(file), readFile(file, 'utf8')]);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const pid = Number.parseInt(owner, 10);
    // An empty file is a lock being written right now: not stale.
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false; // gone already: the next attempt takes it
  }
}
