/**
 * `sessions.delete` (issue 15, CLI `arbor delete`, the app's Delete): every trace of the sessions leaves the
 * data folder — their rows and index entries (electron/db/session-delete.ts), the refs of their snapshots and
 * journal entries and then every object nothing else reaches (electron/git/prune.ts), the bytes SQLite kept
 * (scrub) — and, with `withForks`, their forks' folders (only those Arbor created, per the fork records) and
 * resumable transcripts. A transcript still on disk gets a tombstone so the next import does not bring it back.
 *
 * Dependants (a fork's or a continuation's first steps are stored in the session they came from) make the
 * deletion refuse with their names unless `withForks` takes them too: re-homing a shared prefix would give a
 * surviving session rows its own transcript never held.
 */
import { lstatSync } from 'node:fs';
import type { ArborApi, CallContext } from '../../shared/contract';
import type { SessionDeleteOutcome, SessionDeletePlan } from '../../shared/forget';
import { throwIfAborted } from '../../shared/errors';
import { writeTombstones, type Tombstone } from '../db/deleted-files';
import { forgetSessions, planForget, scrubStore, type ForgetPlan } from '../db/session-delete';
import { removeForkFiles } from '../forks/fork-files';
import { snapshotRefName } from '../git/object-store';
import { pruneUnreachable } from '../git/prune';
import { operationRefName } from '../operations/safety-snapshot';
import { removeForgottenFileHistoryRefs } from './file-history-archive';
import type { WorkspaceContext } from './workspace-context';

/** Runs `work` with no import of this process in flight and the store's writer turn held (store-writer-lock.ts). */
export type ExclusiveWrite = <T>(work: () => Promise<T>) => Promise<T>;

export function createDeleteMethod(workspace: WorkspaceContext, exclusive: ExclusiveWrite): ArborApi['sessions.delete'] {
  return async (request, context) => {
    const signal = workspace.signalFor(context?.signal);
    const options = { withDependants: request.withForks === true };
    const db = workspace.store.handles.write;
    if (request.dryRun === true) return { status: 'preview', plan: describe(workspace, planForget(db, request.sessionIds, options)) };
    return exclusive(() => deleteSessions(workspace, request, signal, context));
  };
}

async function deleteSessions(
  workspace: WorkspaceContext,
  request: { readonly sessionIds: readonly string[]; readonly withForks?: boolean },
  signal: AbortSignal,
  _context: CallContext | undefined,
): Promise<SessionDeleteOutcome> {
  const db = workspace.store.handles.write;
  const withForks = request.withForks === true;
  // The app's Delete dialog shows these as its progress line; the steps are few and uneven, so phases only.
  const step = (phase: string, done: number): void => workspace.events.emit('operation.progress', { operation: 'delete', phase, done, total: 4 });
  const first = planForget(db, request.sessionIds, { withDependants: withForks });
  if (first.dependants.length > 0) return { status: 'has-dependants', plan: describe(workspace, first) };
  throwIfAborted(signal);
  const problems: string[] = [];
  let folders = 0;
  // Fork folders first: a failure leaves the records, so the deletion can be asked again.
  if (withForks) {
    if (first.forks.length > 0) step('removing fork folders', 0);
    for (const fork of first.forks) {
      for (const note of await removeForkFiles({ ...fork })) problems.push(`fork ${fork.id}: ${note}`);
      if (fork.dirCreated) folders++;
    }
  } else {
    for (const fork of first.forks) problems.push(`fork ${fork.id}: kept its folder ${fork.dir} (delete with --forks to remove it)`);
  }
  let tombstones = 0;
  step('removing the rows and search entries', 1);
  const outcome = forgetSessions(db, request.sessionIds, {
    withDependants: withForks,
    onDeleted: (plan) => {
      const stones = plan.files.map(tombstoneOf).filter((stone): stone is Tombstone => stone !== null);
      writeTombstones(db, stones, workspace.now().toISOString());
      tombstones = stones.length;
    },
  });
  if (outcome.status === 'has-dependants') return { status: 'has-dependants', plan: describe(workspace, outcome.plan) };
  const plan = outcome.plan;
  const objects = workspace.objects();
  for (const id of plan.snapshotIds) await objects.deleteRef(snapshotRefName(id)).catch(() => undefined);
  for (const id of plan.operationIds) await objects.deleteRef(operationRefName(id)).catch(() => undefined);
  // The file-history copies' rows went with their files: their refs go too, so the prune takes the backups' bytes.
  await removeForgottenFileHistoryRefs(workspace.store, objects);
  step('removing snapshot objects only they reached', 2);
  const pruned = await pruneUnreachable(objects, { signal });
  step('erasing the freed bytes', 3);
  const scrub = scrubStore(db);
  problems.push(...scrub.problems);
  workspace.events.emit('sessions.changed', { sessionIds: [...plan.sessionIds] });
  return {
    status: 'deleted',
    plan: describe(workspace, plan),
    reclaimed: { bytes: pruned.bytes + Math.max(0, scrub.bytesBefore - scrub.bytesAfter), objects: pruned.objects, folders },
    tombstones,
    problems,
  };
}

function tombstoneOf(file: { readonly path: string; readonly size: number; readonly mtimeMs: number }): Tombstone | null {
  try {
    const info = lstatSync(file.path);
    return { path: file.path, dev: info.dev, ino: info.ino, size: file.size, mtimeMs: file.mtimeMs };
  } catch {
    // Gone from disk: nothing could bring it back.
    return null;
  }
}

function onDisk(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function describe(workspace: WorkspaceContext, plan: ForgetPlan): SessionDeletePlan {
  return {
    sessionIds: plan.sessionIds,
    missing: plan.missing,
    dependants: plan.dependants.map((d) => ({ ...d, title: workspace.store.getSession(d.sessionId)?.title ?? d.sessionId })),
    nodes: plan.counts.nodes,
    records: plan.counts.records,
    rawBytes: plan.counts.rawBytes,
    indexEntries: plan.counts.indexEntries,
    snapshots: plan.counts.snapshots,
    operations: plan.counts.operations,
    files: plan.files.map((file) => ({ path: file.path, onDisk: onDisk(file.path) })),
    forks: plan.forks.map((fork) => ({ fork: fork.id, dir: fork.dir, dirCreated: fork.dirCreated, transcript: fork.transcript })),
  };
}
