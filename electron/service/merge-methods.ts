/**
 * `merge.preview`, `merge.file`, `merge.apply`: a three-way merge of two nodes' files over their lowest
 * common ancestor (electron/merge/), written to a target folder through the operation engine (safety
 * snapshot, journal, undo) and recorded as a merge node with two parents, with how each file was settled.
 * `merge.continue`: "Continue from the merge" (electron/merge/continue-merge.ts).
 */
import { randomUUID } from 'node:crypto';
import { captureDirectory } from '../git/capture';
import { StatCache } from '../git/stat-cache';
import { fileSides } from '../merge/file-sides';
import { prepareMerge, type PreparedMerge } from '../merge/merge-preview';
import { mergedFiles, mergeTargets, plannedChanges } from '../merge/merge-result';
import { continueFromMerge } from '../merge/continue-merge';
import { createForkRecords } from '../db/fork-records';
import { createMergeRecords } from '../db/merge-records';
import { PreviewCache } from '../merge/preview-cache';
import type { SnapshotRecord } from '../db/session-store';
import type { ArborApi } from '../../shared/contract';
import type { MergedFile, MergeOutcome } from '../../shared/operations';
import type { WorkspaceContext } from './workspace-context';

export type MergeMethodName = 'merge.preview' | 'merge.file' | 'merge.apply' | 'merge.continue';

export interface MergeMethodParts {
  /** The service's import, which "Continue from the merge" runs on the transcript it wrote. */
  readonly importFiles: (paths: readonly string[]) => Promise<unknown>;
}

export function createMergeMethods(workspace: WorkspaceContext, parts: MergeMethodParts): Pick<ArborApi, MergeMethodName> {
  const previews = new PreviewCache<PreparedMerge>(workspace.now);
  const merges = createMergeRecords(workspace.store.handles);
  const forks = createForkRecords(workspace.store.handles);

  async function apply(prepared: PreparedMerge, token: string, changes: Awaited<ReturnType<typeof plannedChanges>>, files: readonly MergedFile[], signal: AbortSignal): Promise<MergeOutcome> {
    const id = randomUUID();
    const mergeNode = `merge-${id}`;
    const outcome = await workspace.operations.apply(
      { kind: 'merge', workspace: prepared.into, nodeId: mergeNode, changes, sideEffects: [] },
      { signal, onProgress: (progress) => workspace.events.emit('operation.progress', progress) },
    );
    if (outcome.status !== 'applied') return outcome;
    previews.delete(token);
    // The merge node records the folder as the merge left it (an exact snapshot), below ours, beside theirs.
    const objects = workspace.objects();
    const statCache = await StatCache.forDirectory(objects, prepared.into);
    const captured = await captureDirectory(objects, prepared.into, {
      signal: workspace.lifetime,
      statCache,
      git: workspace.git,
      commit: { message: `Merge of ${prepared.theirsNode} into ${prepared.oursNode}`, snapshotId: id },
    });
    const record: SnapshotRecord = {
      id,
      nodeId: mergeNode,
      sessionId: prepared.sessionId,
      parentId: prepared.oursNode,
      secondParentId: prepared.theirsNode,
      kind: 'merge',
      dir: prepared.into,
      treeOid: captured.treeOid,
      commitOid: captured.commitOid ?? null,
      files: captured.files,
      createdAt: workspace.now().toISOString(),
    };
    workspace.store.handles.write.transaction(() => {
      workspace.store.recordSnapshot(record);
      merges.add({
        operation: outcome.operation,
        mergeNode,
        sessionId: prepared.sessionId,
        oursNode: prepared.oursNode,
        theirsNode: prepared.theirsNode,
        baseNode: prepared.base,
        dir: prepared.into,
        files,
        createdAt: record.createdAt,
      });
    })();
    workspace.events.emit('sessions.changed', { sessionIds: [prepared.sessionId] });
    return { ...outcome, mergeNode };
  }

  return {
    'merge.preview': async (request, context) => {
      const prepared = await prepareMerge(workspace, request, workspace.signalFor(context?.signal));
      const token = previews.add(prepared);
      return {
        token,
        base: prepared.base,
        baseLabel: prepared.baseLabel,
        ours: prepared.ours,
        theirs: prepared.theirs,
        into: prepared.into,
        files: prepared.merge.files.map((file) => file.entry),
        conflicted: prepared.merge.conflicted,
      };
    },
    'merge.file': async ({ token, path }) => fileSides(previews.get(token), path),
    'merge.apply': async ({ token, resolutions, conflictSide }, context) => {
      const signal = workspace.signalFor(context?.signal);
      const prepared = previews.get(token);
      const targets = mergeTargets(prepared, resolutions, conflictSide);
      if (targets.status === 'conflicts') return targets;
      return workspace.writes.run(async () => {
        const changes = await plannedChanges(prepared, workspace.objects(), targets.files);
        return apply(prepared, token, changes, mergedFiles(prepared, resolutions, conflictSide), signal);
      });
    },
    'merge.continue': async ({ operation }, context) =>
      continueFromMerge(workspace, { merges, forks, importFiles: parts.importFiles }, operation, workspace.signalFor(context?.signal)),
  };
}
