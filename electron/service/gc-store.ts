/**
 * `store.gc` (issue 15, CLI `arbor gc`): prunes snapshot objects no ref reaches and repacks without them
 * (electron/git/prune.ts), removes forks marked temporary once their time to live is over, and finds orphan
 * forks — a fork whose folder was deleted by hand, its records and branch left behind — offering them for
 * removal (`orphans`: removed). A dry run changes nothing and says what a real run would reclaim.
 */
import { lstat } from 'node:fs/promises';
import type { ArborApi } from '../../shared/contract';
import { GC_SCHEDULES, nextGcRun, type GcReport, type GcSchedule, type GcScheduleState, type OrphanFork } from '../../shared/forget';
import { throwIfAborted } from '../../shared/errors';
import { createForkRecords, type ForkRecord } from '../db/fork-records';
import { expiredForkIds, readMeta, writeMeta } from '../db/store-gc-records';
import { bytesBelow, removeForkFiles } from '../forks/fork-files';
import { snapshotRefName } from '../git/object-store';
import { pruneUnreachable } from '../git/prune';
import type { ExclusiveWrite } from './delete-sessions';
import type { WorkspaceContext } from './workspace-context';
import { removeForgottenFileHistoryRefs } from './file-history-archive';

export const GC_LAST_RUN_KEY = 'gc_last_run';
export const GC_SCHEDULE_KEY = 'gc_schedule';
const DEFAULT_SCHEDULE: GcSchedule = 'weekly';

export function createGcScheduleMethod(workspace: WorkspaceContext): ArborApi['store.gcSchedule'] {
  return async ({ schedule }) => {
    const db = workspace.store.handles.write;
    if (schedule !== undefined) writeMeta(db, GC_SCHEDULE_KEY, schedule);
    return gcScheduleOf(workspace);
  };
}

export function gcScheduleOf(workspace: WorkspaceContext): GcScheduleState {
  const db = workspace.store.handles.write;
  const stored = readMeta(db, GC_SCHEDULE_KEY);
  const schedule = (GC_SCHEDULES as readonly string[]).includes(stored ?? '') ? (stored as GcSchedule) : DEFAULT_SCHEDULE;
  const lastRun = readMeta(db, GC_LAST_RUN_KEY);
  return { schedule, lastRun, nextRun: nextGcRun(schedule, lastRun, workspace.now()) };
}

export function createGcMethod(workspace: WorkspaceContext, exclusive: ExclusiveWrite): ArborApi['store.gc'] {
  return async (request, context) => {
    const signal = workspace.signalFor(context?.signal);
    const only = request.forkIds === undefined ? undefined : new Set(request.forkIds);
    return exclusive(() => collectGarbage(workspace, { dryRun: request.dryRun === true, orphans: request.orphans === true || only !== undefined, only, signal }));
  };
}

export async function collectGarbage(
  workspace: WorkspaceContext,
  options: {
    readonly dryRun: boolean;
    readonly orphans: boolean;
    /** Only these expired or orphan forks are removed (the user's choice in Clean up); the rest stay listed. */
    readonly only?: ReadonlySet<string>;
    readonly signal: AbortSignal;
  },
): Promise<GcReport> {
  const db = workspace.store.handles.write;
  const forks = createForkRecords(workspace.store.handles);
  const problems: string[] = [];
  const objects = workspace.objects();
  let bytes = 0;
  let folders = 0;
  const changedSessions = new Set<string>();
  const removeFork = async (fork: ForkRecord): Promise<boolean> => {
    changedSessions.add(fork.sessionId);
    try {
      const size = (await bytesBelow(fork.dir)) ?? 0;
      for (const note of await removeForkFiles(fork)) problems.push(`fork ${fork.id}: ${note}`);
      forks.remove(fork.id);
      await objects.deleteRef(snapshotRefName(fork.id)).catch(() => undefined);
      if (fork.dirCreated && size > 0) {
        folders++;
        bytes += size;
      }
      return true;
    } catch (error) {
      problems.push(`fork ${fork.id}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };

  const chosen = (id: string): boolean => options.only === undefined || options.only.has(id);
  const expired: string[] = [];
  const expiredKept = new Set<string>();
  for (const id of expiredForkIds(db, workspace.now().toISOString())) {
    throwIfAborted(options.signal);
    const fork = forks.get(id);
    if (fork === null) continue;
    if (options.dryRun || !chosen(id)) {
      if (!options.dryRun) {
        expiredKept.add(id);
        continue;
      }
      expired.push(id);
      if (fork.dirCreated) folders++;
      bytes += (await bytesBelow(fork.dir)) ?? 0;
    } else if (await removeFork(fork)) {
      expired.push(id);
    }
  }

  const orphans: OrphanFork[] = [];
  const orphansRemoved: string[] = [];
  for (const fork of forks.list()) {
    if (expired.includes(fork.id) || expiredKept.has(fork.id)) continue;
    if ((await lstat(fork.dir).catch(() => null)) !== null) continue;
    orphans.push({ fork: fork.id, sessionId: fork.sessionId, dir: fork.dir, transcript: fork.transcript });
    if (options.orphans && !options.dryRun && chosen(fork.id) && (await removeFork(fork))) orphansRemoved.push(fork.id);
  }
  // The sessions whose graphs lost a fork's branch (read before the removal: the records are gone after).
  if (changedSessions.size > 0) workspace.events.emit('sessions.changed', { sessionIds: [...changedSessions] });

  // File-history refs whose copies' rows are gone (a deletion that stopped between the two) let their backups go.
  if (!options.dryRun) await removeForgottenFileHistoryRefs(workspace.store, objects);
  const pruned = await pruneUnreachable(objects, { dryRun: options.dryRun, signal: options.signal });
  if (!options.dryRun) writeMeta(db, GC_LAST_RUN_KEY, workspace.now().toISOString());
  return {
    dryRun: options.dryRun,
    reclaimed: { bytes: bytes + pruned.bytes, objects: pruned.objects, folders },
    orphans,
    orphansRemoved,
    expired,
    problems,
  };
}
