/**
 * The operation engine (rewind, merge and undo all run through it): checks every path and that the workspace
 * still holds what the preview saw, stores a safety snapshot, journals every write (intent before, outcome
 * after), and rolls back what it wrote when it is cancelled, fails, or was killed (`recover`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { AppliedOperation, OperationOutcome, OperationSummary, WorkspaceChanges } from '../../shared/operations';
import { createOperationJournal, type OperationFileRecord, type OperationJournal, type OperationRecord } from '../db/operation-journal';
import type { SessionStore } from '../db/session-store';
import type { GitEnvironment } from '../git/ignore-files';
import type { SnapshotStore } from '../git/object-store';
import { sameVersion, type FileVersion } from '../git/workspace-files';
import { deleteFile, placeStaged, stageVersion, temporaryFile } from './file-writes';
import type { ApplyOptions, OperationPlan, OperationRunner, PlannedFileChange } from './operation-types';
import { ancestorsOf, bitsOf, byDepth, foldersItMayRemove, foldersToCreate } from './operation-folders';
import { checkPlanPaths } from './path-checks';
import { readPlannedFiles } from './planned-files';
import { allWritten, rollBackFiles } from './rollback';
import { storeSafetySnapshot } from './safety-snapshot';
import { confinement, openWorkspaceFolders, planFolders, WorkspaceChangedDuringWrite, type Confinement, type WorkspaceFolders } from './workspace-folders';

/**
 * Where a test may stop the process: after a write's intent is journaled, after its rename, after its outcome.
 * Within a batch the renames run several at once, so their points come in the order they finish.
 */
export interface CrashPoint {
  readonly operation: string;
  readonly seq: number;
  readonly phase: 'before-write' | 'after-write' | 'after-outcome';
}

/**
 * Every point of the write phase, for fault-injection tests (a folder swapped for a symlink, a file edited, at
 * exactly that point). `seq` is the write's; `path` the file's (the folder's for `before-folder` and
 * `before-folder-removal`, '' for `before-commit`, which comes after a batch's renames and before its checks
 * and journal commit).
 */
export interface WritePoint {
  readonly operation: string;
  readonly seq: number;
  readonly path: string;
  readonly phase:
    | 'before-stage'
    | 'after-stage'
    | 'before-rename'
    | 'after-rename'
    | 'before-delete'
    | 'after-delete'
    | 'before-folder'
    | 'before-folder-removal'
    | 'before-commit';
}

export interface OperationRunnerOptions {
  readonly store: SessionStore;
  readonly objects: () => SnapshotStore;
  readonly now: () => Date;
  /**
   * The home and environment git finds the user's global excludes file through (core.excludesFile): with it,
   * an apply or undo that would write or delete a file git ignores there is refused like one `.gitignore` ignores.
   */
  readonly git?: GitEnvironment;
  /** Tests only: called at every crash point of every write (a crash test kills the process here). */
  readonly onCrashPoint?: (point: CrashPoint) => void;
  /** Tests only: called at every point of the write phase (a test changes the workspace here). */
  readonly onWritePoint?: (point: WritePoint) => void;
  /** How writes are kept inside the workspace (workspace-folders.ts); default: the best this system allows. Tests force the fallback. */
  readonly confinement?: Confinement;
  /**
   * Flush the safety snapshot to disk before the first workspace write (default true): after a power loss the
   * previous contents must still be there. A crash of the process alone is covered by the journal either way,
   * so tests that do not cut power may turn it off.
   */
  readonly durable?: boolean;
  /**
   * Also flush every written workspace file before its rename (default false). Like git's checkout, Arbor
   * leaves workspace files to the page cache: a flush per file made a 100-file rewind several times slower
   * (measured: fdatasync was ~40% of the apply), and the previous bytes are durable in the safety snapshot.
   */
  readonly durableFiles?: boolean;
  /** Injected for tests; default `op-` and 12 random hex digits. */
  readonly newOperationId?: () => string;
}

const DEFAULT_LIST_LIMIT = 200;
const JOURNAL_BATCH = 16;
/** Measured on 100 files: 4 renames at once (libuv's default pool) took 0.7× the time of one after another. */
const RENAMES_AT_ONCE = 4;

/**
 * Runs `task` on the items, `limit` at a time, and waits for every one started; after a failure or a
 * cancellation no more are started. Returns what they threw.
 */
async function settleAll<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, task: (item: T) => Promise<void>): Promise<unknown[]> {
  const failures: unknown[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && failures.length === 0 && !signal?.aborted) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failures;
}

interface Write {
  readonly path: string;
  readonly before: FileVersion | null;
  readonly after: FileVersion | null;
}

/** Deletions first (a folder they empty may become a file), then writes; each group in path order. */
function writeOrder(a: Write, b: Write): number {
  if ((a.after === null) !== (b.after === null)) return a.after === null ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function changesOf(files: readonly Write[]): WorkspaceChanges {
  const written: string[] = [];
  const created: string[] = [];
  const deleted: string[] = [];
  for (const file of files) (file.after === null ? deleted : file.before === null ? created : written).push(file.path);
  const sort = (paths: string[]): string[] => paths.sort();
  return { written: sort(written), created: sort(created), deleted: sort(deleted) };
}

/** The plan's workspace root, normalized; it must be an absolute path to an existing folder. */
function existingWorkspace(workspace: string): string {
  if (!isAbsolute(workspace)) throw new ArborError('BAD_REQUEST', `The workspace must be an absolute path: ${workspace}`, { path: workspace });
  const root = resolve(workspace);
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    // missing
  }
  if (!isFolder) throw new ArborError('NOT_FOUND', `The workspace ${root} does not exist`, { path: root });
  return root;
}

export function createOperationRunner(options: OperationRunnerOptions): OperationRunner {
  const journal: OperationJournal = createOperationJournal(options.store.handles);
  const newId = options.newOperationId ?? (() => `op-${randomBytes(6).toString('hex')}`);
  const durable = options.durable ?? true;
  const durableFiles = options.durableFiles ?? false;
  const mode = options.confinement ?? confinement();
  const iso = (): string => options.now().toISOString();
  // One operation at a time: two must never interleave their writes or their recovery.
  let tail: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task, task);
    tail = result.catch(() => undefined);
    return result;
  };

  async function applyNow(plan: OperationPlan, applyOptions: ApplyOptions): Promise<OperationOutcome> {
    const { signal, onProgress } = applyOptions;
    throwIfAborted(signal);
    const workspace = existingWorkspace(plan.workspace);
    checkPlanPaths(workspace, plan.changes, options.git);
    // The folders as the check saw them: every write lands in one of these, or in one the operation makes.
    const planned = planFolders(workspace, plan.changes.map((change) => change.path));
    const objects = options.objects();
    for (const change of plan.changes) {
      if (change.target && !objects.has(change.target.oid)) {
        throw new ArborError('BAD_REQUEST', `The content planned for ${change.path} is not in the snapshot store`, { path: change.path });
      }
    }
    const id = newId();
    const progress = (phase: 'check' | 'safety-snapshot' | 'write' | 'done', done: number, total: number): void =>
      onProgress?.({ operation: id, phase, done, total });

    progress('check', 0, plan.changes.length);
    const read = await readPlannedFiles(workspace, plan.changes, signal, options.git);
    if (read.changed.length > 0) return { status: 'workspace-changed', changed: read.changed };

    const writes: Write[] = plan.changes
      .map((change: PlannedFileChange) => ({ path: change.path, before: read.current.get(change.path) ?? null, after: change.target }))
      .filter((write) => !sameVersion(write.before, write.after))
      .sort(writeOrder);
    throwIfAborted(signal);
    progress('safety-snapshot', 0, writes.length);
    const safetyCommit = await storeSafetySnapshot(
      objects,
      id,
      writes.flatMap((w) => (w.before ? [{ path: w.path, bytes: read.bytes.get(w.path)! }] : [])),
      writes.flatMap((w) => (w.before ? [{ path: w.path, version: w.before }] : [])),
      writes.flatMap((w) => (w.after ? [{ path: w.path, version: w.after }] : [])),
      options.now().getTime(),
      durable,
    );
    // Folders standing where a file goes are checked like the others, and removed (empty) before it is placed.
    for (const folders of read.replacedFolders.values()) for (const folder of folders) planned.identities.set(folder.path, { dev: folder.stat.dev, ino: folder.stat.ino });
    const foldersBefore = foldersItMayRemove(planned.modes, read.replacedFolders, writes);
    const restore = plan.restoreFolders ?? {};
    const createdDirs = foldersToCreate(workspace, writes, Object.keys(restore));
    const record = {
      id,
      kind: plan.kind,
      workspace,
      nodeId: plan.nodeId,
      undoes: plan.undoes ?? null,
      sideEffects: plan.sideEffects,
      safetyCommit,
      createdDirs,
      foldersBefore,
      createdAt: iso(),
    };
    journal.begin(
      record,
      writes.map((w, seq) => ({ seq, ...w })),
    );

    // A deletion removes the folders it empties, except those a later write of the operation needs (removing
    // and making them again would lose their own mode) and, for an undo, those that were there before.
    const needed = new Set(writes.flatMap((w) => (w.after === null ? [] : ancestorsOf(w.path))));
    const removableSet = plan.removableFolders === undefined ? undefined : new Set(plan.removableFolders);
    const removable = (dir: string): boolean => !needed.has(dir) && (removableSet === undefined || removableSet.has(dir));
    const toCreate = new Set(createdDirs);
    const point = (seq: number, path: string, phase: WritePoint['phase']): void => options.onWritePoint?.({ operation: id, seq, path, phase });
    const seenOf = (path: string) => read.seen.get(path)!;
    // The writes that may have changed the workspace: the rollback looks at these only.
    const touched = new Set<number>();
    const attempt = <T>(seq: number, task: () => T): T => {
      try {
        const result = task();
        touched.add(seq);
        return result;
      } catch (error) {
        // A check that failed before its system call changed nothing; anything else may have.
        if (!(error instanceof WorkspaceChangedDuringWrite) || error.afterWrite) touched.add(seq);
        throw error;
      }
    };
    let written = 0;
    const wrote = (seq: number): void => {
      options.onCrashPoint?.({ operation: id, seq, phase: 'after-write' });
      // Progress stops with a cancellation: what was written is about to be put back.
      if (!signal?.aborted) progress('write', ++written, writes.length);
    };
    // Each folder is opened (and checked) once; its descriptor is held for the operation (up to MAX_HELD), so
    // a rollback reaches what any batch wrote, and closed at the end, whatever the outcome.
    const folders = openWorkspaceFolders(planned, mode, true);
    try {
      for (let start = 0; start < writes.length; start += JOURNAL_BATCH) {
        folders.startBatch();
        try {
          throwIfAborted(signal);
          // Intents for a batch of writes in one commit, before the first of them; their outcomes in one commit
          // after the last. A commit rewrites a 64 KB page in SQLite's WAL: one per file was a fifth of a
          // 100-file rewind. Recovery reads the files themselves, so a batch's granularity changes nothing there.
          const end = Math.min(start + JOURNAL_BATCH, writes.length) - 1;
          journal.markFiles(id, start, end, 'writing');
          const staged: number[] = [];
          for (let seq = start; seq <= end; seq++) {
            const write = writes[seq]!;
            options.onCrashPoint?.({ operation: id, seq, phase: 'before-write' });
            if (write.after === null) {
              point(seq, write.path, 'before-delete');
              attempt(seq, () => deleteFile(folders, write.path, seenOf(write.path), removable));
              point(seq, write.path, 'after-delete');
              wrote(seq);
              continue;
            }
            for (const dir of ancestorsOf(write.path)) {
              if (!toCreate.has(dir)) continue;
              point(seq, dir, 'before-folder');
              folders.makeFolder(dir, bitsOf(restore, dir));
              toCreate.delete(dir);
            }
            for (const folder of [...(read.replacedFolders.get(write.path) ?? [])].reverse()) {
              point(seq, folder.path, 'before-folder-removal');
              attempt(seq, () => {
                // Emptied by the plan's deletions (or already removed by them); anything else is someone's.
                if (folders.hasFolder(folder.path) && !folders.removeFolderIfEmpty(folder.path)) {
                  throw new WorkspaceChangedDuringWrite(folder.path, `${folder.path} holds files the operation did not plan for`);
                }
              });
            }
            point(seq, write.path, 'before-stage');
            attempt(seq, () => stageVersion(objects, folders, write.path, write.after!, temporaryFile(write.path, id, seq), durableFiles, read.permissions.get(write.path)));
            point(seq, write.path, 'after-stage');
            staged.push(seq);
          }
          // The renames on the thread pool, RENAMES_AT_ONCE at a time (see file-writes.ts); every one settles
          // before the batch is judged, so a rollback never races a rename still in flight.
          const failures = await settleAll(staged, RENAMES_AT_ONCE, signal, async (seq) => {
            const write = writes[seq]!;
            point(seq, write.path, 'before-rename');
            await placeStaged(folders, write.path, temporaryFile(write.path, id, seq), write.after!, seenOf(write.path));
            point(seq, write.path, 'after-rename');
            wrote(seq);
          });
          if (failures.length > 0) throw failures.find((f) => f instanceof WorkspaceChangedDuringWrite) ?? failures[0];
          throwIfAborted(signal);
          if (end === writes.length - 1) {
            // Undo: the folders the reversed operation removed that no write brought back (empty ones).
            for (const dir of Object.keys(restore).sort(byDepth)) {
              if (!toCreate.has(dir)) continue;
              point(end, dir, 'before-folder');
              folders.makeFolder(dir, bitsOf(restore, dir));
              toCreate.delete(dir);
            }
          }
          point(end, '', 'before-commit');
          // A folder moved away mid-batch took the batch's writes with it (through the held descriptors).
          folders.verifyReachable();
          journal.markFiles(id, start, end, 'done');
          for (let seq = start; seq <= end; seq++) options.onCrashPoint?.({ operation: id, seq, phase: 'after-outcome' });
        } catch (error) {
          // Through the same folders: the rollback reaches what the operation wrote, never a swapped folder.
          return await rollBackAfterFailure(objects, id, error, folders, touched);
        }
      }
    } finally {
      folders.close();
    }
    journal.finish(id, 'applied', iso());
    progress('done', writes.length, writes.length);
    const applied: AppliedOperation = { status: 'applied', operation: id, kind: plan.kind, workspace, sideEffects: plan.sideEffects, ...changesOf(writes) };
    return applied;
  }

  /**
   * Puts back what was written before the failure (or cancellation). A change to the workspace found while
   * writing (a folder swapped or moved, a file edited) is `workspace-changed`, as when the check before the
   * first write finds it: the workspace holds what it held, the user's change included, and the journal shows
   * the operation rolled-back. Anything else throws (CancelledError stays itself); so does a rollback that
   * could not put everything back (IO, with the problems).
   */
  async function rollBackAfterFailure(objects: SnapshotStore, id: string, error: unknown, folders: WorkspaceFolders, touched: ReadonlySet<number>): Promise<OperationOutcome> {
    const operation = journal.get(id)!;
    const changed = error instanceof WorkspaceChangedDuringWrite ? error.path : undefined;
    // A rollback that throws leaves the operation `applying`: the next start's recovery tries again.
    const problems = await rollBackFiles(objects, operation, journal.files(id), durableFiles, folders, new Set(changed === undefined ? [] : [changed]), touched);
    journal.finish(id, 'rolled-back', iso());
    if (problems.length === 0) {
      if (changed !== undefined) return { status: 'workspace-changed', changed: [changed] };
      if (error instanceof ArborError) throw error;
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new ArborError('IO', `Operation ${id} stopped and was rolled back: ${message}`, { operation: id, problems, ...(changed === undefined ? {} : { path: changed }) });
  }

  function undoPlan(operationId: string): OperationPlan {
    const operation = journal.get(operationId);
    if (!operation) throw new ArborError('NOT_FOUND', `No operation ${operationId}`, { operation: operationId });
    if (operation.status !== 'applied') {
      throw new ArborError('BAD_REQUEST', `Operation ${operationId} is ${operation.status}; only an applied operation can be undone`, {
        operation: operationId,
        status: operation.status,
      });
    }
    return {
      kind: 'undo',
      workspace: operation.workspace,
      nodeId: null,
      undoes: operationId,
      sideEffects: [],
      changes: journal.files(operationId).map((file) => ({ path: file.path, expected: file.after, target: file.before })),
      removableFolders: operation.createdDirs,
      restoreFolders: operation.foldersBefore,
    };
  }

  async function recoverOne(operation: OperationRecord, files: readonly OperationFileRecord[], report: MutableReport): Promise<void> {
    if (!existsSync(operation.workspace)) {
      // Removed by the user since: nothing to put back, and nothing to write through.
      report.problems.push({ operation: operation.id, path: '', message: `The workspace ${operation.workspace} is gone; nothing was restored` });
      journal.finish(operation.id, 'rolled-back', iso());
      report.rolledBack.push(operation.id);
      return;
    }
    // The identities the operation saw died with it; recovery still reaches every folder without symlinks.
    const folders = openWorkspaceFolders(planFolders(operation.workspace, []), mode, false);
    try {
      if (allWritten(folders, files)) {
        journal.finish(operation.id, 'applied', iso());
        report.completed.push(operation.id);
        return;
      }
      const problems = await rollBackFiles(options.objects(), operation, files, durableFiles, folders);
      for (const problem of problems) report.problems.push({ operation: operation.id, ...problem });
      journal.finish(operation.id, 'rolled-back', iso());
      report.rolledBack.push(operation.id);
    } finally {
      folders.close();
    }
  }

  return {
    apply: (plan, applyOptions = {}) => serially(() => applyNow(plan, applyOptions)),
    undo: (operationId, applyOptions = {}) => serially(() => applyNow(undoPlan(operationId), applyOptions)),
    list(filter = {}) {
      const workspace = filter.workspace === undefined ? undefined : resolve(filter.workspace);
      return journal.list({ workspace, limit: filter.limit ?? DEFAULT_LIST_LIMIT }).map((operation): OperationSummary => ({
        operation: operation.id,
        kind: operation.kind,
        status: operation.status,
        workspace: operation.workspace,
        nodeId: operation.nodeId,
        undoes: operation.undoes,
        createdAt: operation.createdAt,
        ...changesOf(journal.files(operation.id)),
      }));
    },
    recover: () =>
      serially(async () => {
        const report: MutableReport = { rolledBack: [], completed: [], problems: [] };
        for (const operation of journal.unfinished()) {
          try {
            await recoverOne(operation, journal.files(operation.id), report);
          } catch (error) {
            // Left `applying`: the next start tries again.
            report.problems.push({ operation: operation.id, path: '', message: error instanceof Error ? error.message : String(error) });
          }
        }
        return report;
      }),
  };
}

interface MutableReport {
  rolledBack: string[];
  completed: string[];
  problems: { operation: string; path: string; message: string }[];
}
