/**
 * Lets the disk settle before a timed step: `sync` flushes what the previous step (ours or git's) left
 * for the kernel to write back, so on these 2-core machines neither side is timed while kernel threads
 * write out the other's 20 MB. Untimed; a no-op where there is no `sync` (Windows).
 */
import { spawnSync } from 'node:child_process';

export function settle(): void {
  if (process.platform !== 'win32') spawnSync('sync', { stdio: 'ignore' });
}
