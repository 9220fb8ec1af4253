/**
 * A long-lived helper thread for work that blocks on the file system (lstat of a capture, file writes of a
 * fork): plain JavaScript evaluated from a string (no separate bundle entry), started on first use, unref'd
 * so it never keeps a process alive. If it cannot start or it dies, `get()` answers undefined from then on and
 * the callers do the work on their own thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface HelperThread {
  /** The worker, or undefined on a single core or when it could not start or has died. */
  get(): Worker | undefined;
  /** True once the worker has died (or could not start): work handed to it will not be done. */
  readonly broken: boolean;
}

export function helperThread(source: string): HelperThread {
  let worker: Worker | undefined;
  let broken = false;
  return {
    get() {
      if (broken || availableParallelism() < 2) return undefined;
      if (!worker) {
        try {
          const started = new Worker(source, { eval: true });
          started.unref();
          const drop = (): void => {
            broken = true;
            worker = undefined;
          };
          started.on('error', drop);
          started.on('exit', drop);
          worker = started;
        } catch {
          broken = true;
          return undefined;
        }
      }
      return worker;
    },
    get broken() {
      return broken;
    },
  };
}
