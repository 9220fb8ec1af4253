/**
 * The import's threads (the write worker, the parse worker) run at a lower scheduling priority than the thread
 * that answers requests, so a busy machine gives the cores to a click before a batch (issue 12: the store's
 * writes must not starve the thread that answers requests). On Linux the nice value belongs to each thread, so
 * a thread lowers its own and the others in the process keep theirs; macOS and Windows only set whole processes'
 * priorities through Node, so there nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Nice steps below the process's main thread. A waking thread of lower nice has the earlier deadline, so the
 * scheduler runs a request before the batches of its own process whatever the step; the step also sets the
 * cores' share when other programs compete (about 1.9× per 3 steps), and a large one slowed the import on a
 * loaded machine: at load 24, 10 steps took a 48.5 MB import from 46 s to 61 s (its first look unchanged,
 * ~14 s, the workers' start-up), for a request p99 of 114 ms against 201.
 */
export const BACKGROUND_NICE_STEPS = 3;
const LOWEST = 19;

/** The calling thread's id (Linux), which `setpriority` takes for that thread alone; null elsewhere. */
export function threadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Sets the calling thread's priority BACKGROUND_NICE_STEPS below the process's main thread (never below the
 * lowest): from the main thread's, not its own, as a thread starts at its creator's (the parse worker at the
 * write worker's) and would sink one step further per generation. Returns the nice value it now runs at, or
 * null where a thread's priority cannot be set alone (then it is left as it is).
 */
export function runInBackground(): number | null {
  const tid = threadId();
  if (tid === null) return null;
  try {
    // The process id is its main thread's id.
    const nice = Math.min(LOWEST, getPriority(process.pid) + BACKGROUND_NICE_STEPS);
    setPriority(tid, nice);
    return nice;
  } catch {
    // A sandbox that refuses it: the import still runs, at the priority it has.
    return null;
  }
}
