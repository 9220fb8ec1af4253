/** Runs tasks one at a time in arrival order: one import at a time, whoever asks. */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves when every task queued so far has settled. */
  drained(): Promise<void>;
  readonly busy: boolean;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      pending++;
      const result = tail.then(task, task);
      tail = result.then(
        () => void pending--,
        () => void pending--,
      );
      return result;
    },
    drained: () => tail.then(() => undefined),
    get busy() {
      return pending > 0;
    },
  };
}
