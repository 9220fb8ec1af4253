/**
 * The hook's only voice: it must never print (Claude Code would show it) nor fail the agent, so what went
 * wrong is appended to `<data dir>/hook.log`, one line per event, kept under a size bound.
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const HOOK_LOG = 'hook.log';
const MAX_LOG_BYTES = 1024 * 1024;

export function hookLogPath(dataDir: string): string {
  return join(dataDir, HOOK_LOG);
}

/** Never throws: a log that cannot be written is one more thing the hook must not fail on. */
export async function appendHookLog(dataDir: string, now: Date, message: string): Promise<void> {
  const file = hookLogPath(dataDir);
  try {
    await mkdir(dataDir, { recursive: true });
    const size = await stat(file).then(
      (info) => info.size,
      () => 0,
    );
    // One old generation is kept: enough to see a recurring failure, bounded whatever happens.
    if (size > MAX_LOG_BYTES) await rename(file, `${file}.1`);
    await appendFile(file, `${now.toISOString()} ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  } catch {
    // Nowhere left to report to.
  }
}
