/**
 * The service's fork methods: `fork.create` (electron/forks/create-fork.ts), `forks.list` (each fork with its
 * size on disk) and `forks.remove` (folder, resumable transcript and branch node in one action, per fork).
 */
import { createForkRecords, type ForkRecord, type ForkRecords } from '../db/fork-records';
import { setForkExpiry } from '../db/store-gc-records';
import { snapshotRefName } from '../git/object-store';
import { createFork } from '../forks/create-fork';
import { forkBytes, removeForkFiles } from '../forks/fork-files';
import { resumeCommandOf } from '../forks/resume-command';
import type { ArborApi } from '../../shared/contract';
import type { ForkSummary } from '../../shared/operations';
import type { WorkspaceContext } from './workspace-context';

export type ForkMethodName = 'fork.create' | 'forks.list' | 'forks.remove';

export function createForkMethods(workspace: WorkspaceContext): Pick<ArborApi, ForkMethodName> {
  let records: ForkRecords | undefined;
  const forks = (): ForkRecords => (records ??= createForkRecords(workspace.store.handles));

  return {
    'fork.create': async (request, context) => {
      const created = await createFork(workspace, forks(), request, workspace.signalFor(context?.signal));
      // A temporary fork: gc removes it once its time to live is over.
      if (request.temporaryMs !== undefined) setForkExpiry(workspace.store.handles.write, created.fork, new Date(workspace.now().getTime() + request.temporaryMs).toISOString());
      return created;
    },
    'forks.list': async () => ({ forks: await Promise.all(forks().list().map(summarize)) }),
    'forks.remove': async ({ forkIds }) =>
      // Removal deletes folders: it waits for any fork still being written.
      workspace.writes.run(async () => {
        const removed: string[] = [];
        const problems: { fork: string; message: string }[] = [];
        const sessionIds = new Set<string>();
        for (const forkId of new Set(forkIds)) {
          const fork = forks().get(forkId);
          if (fork === null) {
            problems.push({ fork: forkId, message: `No fork ${forkId}` });
            continue;
          }
          try {
            for (const note of await removeForkFiles(fork)) problems.push({ fork: forkId, message: note });
            forks().remove(forkId);
            // The branch's snapshot objects become unreachable, so the next gc can drop them.
            await workspace.objects().deleteRef(snapshotRefName(forkId)).catch(() => undefined);
            removed.push(forkId);
            sessionIds.add(fork.sessionId);
          } catch (error) {
            problems.push({ fork: forkId, message: error instanceof Error ? error.message : String(error) });
          }
        }
        if (sessionIds.size > 0) workspace.events.emit('sessions.changed', { sessionIds: [...sessionIds] });
        return { removed, problems };
      }),
  };
}

async function summarize(fork: ForkRecord): Promise<ForkSummary> {
  return {
    fork: fork.id,
    nodeId: fork.nodeId,
    sessionId: fork.sessionId,
    branch: fork.branchNodeId,
    dir: fork.dir,
    resume: resumeCommandOf(fork),
    resumeSessionId: fork.resumeSessionId,
    transcript: fork.transcript,
    createdAt: fork.createdAt,
    bytes: await forkBytes(fork),
  };
}
