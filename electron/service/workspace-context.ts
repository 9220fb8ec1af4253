/**
 * What every workspace feature of the service shares (workspace states, rewind, fork, merge, live capture):
 * the session store, the snapshot object store (opened on first use), the reconstruction cache, one queue
 * that serializes writes to the object store and to workspaces, the clock, and the service's lifetime.
 */
import type { SessionStore } from '../db/session-store';
import { SnapshotStore } from '../git/object-store';
import type { GitEnvironment } from '../git/ignore-files';
import { createOperationRunner } from '../operations/operation-runner';
import type { OperationRunner } from '../operations/operation-types';
import { claudeConfigDir } from '../snapshots/file-history';
import type { EventHub } from './event-hub';
import { createSerialQueue, type SerialQueue } from './serial-queue';
import { createWorkspaceStates, type WorkspaceStates } from './workspace-state';

export interface WorkspaceContext {
  readonly store: SessionStore;
  readonly dataDir: string;
  /** Injected: tests never read the real home folder (`~/.claude`) or environment. */
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The same home and environment, where git looks for the user's config and global excludes file. */
  readonly git: GitEnvironment;
  readonly now: () => Date;
  /** Aborted when the service closes. */
  readonly lifetime: AbortSignal;
  readonly events: EventHub;
  /** Arbor's snapshot store, opened on first use (most sessions never need it). */
  objects(): SnapshotStore;
  readonly states: WorkspaceStates;
  /**
   * One capture or workspace write at a time: captures of a folder share its stat cache, and two operations
   * on one workspace must not interleave.
   */
  readonly writes: SerialQueue;
  /**
   * The operation engine: every write into an existing workspace (rewind, merge, undo) goes through it.
   * It runs one operation at a time itself; callers that also capture run it inside `writes`.
   */
  readonly operations: OperationRunner;
  /** Combines a call's signal with the service's lifetime. */
  signalFor(signal: AbortSignal | undefined): AbortSignal;
}

export interface WorkspaceContextOptions {
  readonly dataDir: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  readonly lifetime: AbortSignal;
  readonly events: EventHub;
  /**
   * The store's writer turn across processes (store-writer-lock.ts), taken around every workspace write so a
   * fork, merge, rewind, snapshot or removal beside another process's import waits its turn (saying so)
   * instead of meeting SQLite's busy timeout between the import's batches. Without it (tests) writes only queue.
   */
  readonly writerTurn?: WriterTurn;
}

export type WriterTurn = <T>(signal: AbortSignal, work: () => Promise<T>, doing: string) => Promise<T>;

export interface OwnedWorkspaceContext extends WorkspaceContext {
  /** Waits for queued writes, then closes the object store. */
  close(): Promise<void>;
}

export function createWorkspaceContext(store: SessionStore, options: WorkspaceContextOptions): OwnedWorkspaceContext {
  let objects: SnapshotStore | undefined;
  const open = (): SnapshotStore => (objects ??= SnapshotStore.open({ dataDir: options.dataDir }));
  const writes = withWriterTurn(createSerialQueue(), options.writerTurn, options.lifetime);
  const git: GitEnvironment = { home: options.homeDir, env: options.env };
  return {
    store,
    dataDir: options.dataDir,
    homeDir: options.homeDir,
    env: options.env,
    git,
    now: options.now,
    lifetime: options.lifetime,
    events: options.events,
    objects: open,
    states: createWorkspaceStates(store, open, { claudeConfigDir: claudeConfigDir(options.homeDir, options.env) }),
    writes,
    operations: createOperationRunner({ store, objects: open, now: options.now, git }),
    signalFor: (signal) => (signal ? AbortSignal.any([signal, options.lifetime]) : options.lifetime),
    async close() {
      await writes.drained();
      objects?.close();
      objects = undefined;
    },
  };
}

/**
 * The queue, each task run holding the writer turn: taken inside the queue (one turn per write, in order),
 * released before the next task, so an import elsewhere waits for one write, never for the queue.
 */
function withWriterTurn(queue: SerialQueue, turn: WriterTurn | undefined, lifetime: AbortSignal): SerialQueue {
  if (turn === undefined) return queue;
  return {
    run: (task) => queue.run(() => turn(lifetime, task, 'workspace write')),
    drained: () => queue.drained(),
    get busy() {
      return queue.busy;
    },
  };
}
