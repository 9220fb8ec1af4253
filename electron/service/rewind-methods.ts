/**
 * The service's rewind methods: `rewind.preview` (exactly what a rewind to a node writes, creates and
 * deletes, what it leaves alone and why, and the side effects since the node that no rewind can undo),
 * `rewind.apply` (re-plans; stops with `workspace-changed` when the plan no longer matches the preview's
 * token, else runs the plan through the journaled operation engine), `operations.undo` and `operations.list`.
 * Planning captures the workspace and stores target contents, so it runs in the workspace write queue.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ArborApi } from '../../shared/contract';
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { NodeSummary } from '../../shared/model';
import type { OperationOutcome, RewindPreview } from '../../shared/operations';
import type { ApplyOptions, PlannedFileChange } from '../operations/operation-types';
import { differingPaths, planExactRewind, planReconstructedRewind, planToken, type PlanOptions, type RewindPlan } from '../snapshots/rewind';
import { importerFor } from '../importers/registry';
import { sideEffectsSince } from '../snapshots/side-effects';
import { foldersOfNode } from './session-folders';
import type { WorkspaceContext } from './workspace-context';
import { doubtOf, type NodeState } from './workspace-state';

export type RewindMethodName = 'rewind.preview' | 'rewind.apply' | 'operations.undo' | 'operations.list';

/** Previews remembered so a stale token can say which files changed since (a few, most recent last). */
const REMEMBERED_PREVIEWS = 16;
const CACHED_SESSIONS = 4;

interface Planned {
  readonly preview: RewindPreview;
  readonly changes: readonly PlannedFileChange[];
}

export function createRewindMethods(workspace: WorkspaceContext): Pick<ArborApi, RewindMethodName> {
  const { store, states, writes, operations, events } = workspace;
  const previews = new Map<string, Planned>();
  // Side effects need the session's nodes; a rewind to a step of a long session should not reload them all.
  const sessionNodes = new Map<string, readonly NodeSummary[]>();
  events.on('sessions.changed', ({ sessionIds }) => {
    for (const id of sessionIds) sessionNodes.delete(id);
  });

  function nodesOf(sessionId: string): readonly NodeSummary[] {
    let nodes = sessionNodes.get(sessionId);
    if (nodes === undefined) {
      nodes = store.getSessionNodes(sessionId);
      sessionNodes.set(sessionId, nodes);
      while (sessionNodes.size > CACHED_SESSIONS) sessionNodes.delete(sessionNodes.keys().next().value as string);
    }
    return nodes;
  }

  async function workspaceFor(state: NodeState, requested: string | undefined, project: string | null): Promise<string> {
    const dir = requested !== undefined ? resolve(requested) : (state.snapshot?.dir ?? project);
    if (dir === null) {
      throw new ArborError('BAD_REQUEST', `The session of ${state.node.id} has no known folder: name the workspace to rewind`, { nodeId: state.node.id });
    }
    const info = await stat(dir).catch(() => null);
    if (info === null || !info.isDirectory()) throw new ArborError('NOT_FOUND', `No workspace folder at ${dir}`, { path: dir });
    return dir;
  }

  function sideEffectsOf(nodeId: string, sessionId: string, project: string | null, signal: AbortSignal): RewindPreview['sideEffects'] {
    const snapshot = store.getSnapshotByNode(nodeId);
    return sideEffectsSince({
      nodes: nodesOf(sessionId),
      // A snapshot Arbor took hangs below the step it followed: that step's calls had run.
      node: snapshot === null ? { step: nodeId } : { after: snapshot.parentId },
      readLine: (id) => {
        const node = store.getNode(id);
        return node === null || node.rawBytes > node.raw.length ? null : node.raw.toString('utf8');
      },
      cwd: project,
      signal,
      ...readCallsOf(store.getSession(sessionId)?.source),
    });
  }

  async function plan(nodeId: string, requested: string | undefined, signal: AbortSignal, onProgress?: PlanOptions['onProgress']): Promise<Planned> {
    const state = await states.stateOf(nodeId, signal);
    // The folder in force at the node: a session that moved or entered a worktree rewinds where it then was.
    const folders = foldersOfNode(store, nodeId);
    const project = folders.folder ?? store.getSession(state.node.sessionId)?.project ?? null;
    const dir = await workspaceFor(state, requested, project);
    throwIfAborted(signal);
    const objects = workspace.objects();
    let planned: RewindPlan;
    if (state.snapshot !== undefined) {
      planned = await planExactRewind(objects, state.snapshot.treeOid, dir, { signal, git: workspace.git, ...(onProgress ? { onProgress } : {}) });
    } else {
      const files = { projectDir: project ?? dir, formerDirs: folders.movedFrom, paths: state.paths(), content: (path: string) => state.content(path), doubtOf: (path: string) => doubtOf(state, path) };
      planned = await planReconstructedRewind(objects, files, dir, { signal, git: workspace.git });
    }
    const preview: RewindPreview = {
      nodeId,
      workspace: dir,
      known: state.known,
      written: planned.written,
      created: planned.created,
      deleted: planned.deleted,
      skipped: planned.skipped,
      unverified: planned.unverified,
      sideEffects: sideEffectsOf(nodeId, state.node.sessionId, project, signal),
      token: planToken(nodeId, planned),
    };
    return { preview, changes: planned.changes };
  }

  function remember(planned: Planned): void {
    previews.delete(planned.preview.token);
    previews.set(planned.preview.token, planned);
    while (previews.size > REMEMBERED_PREVIEWS) previews.delete(previews.keys().next().value as string);
  }

  const matchesWorkspace = (preview: RewindPreview, requested: string | undefined): boolean =>
    requested === undefined || resolve(requested) === preview.workspace;

  const progress: ApplyOptions['onProgress'] = (update) => events.emit('operation.progress', { ...update });

  return {
    'rewind.preview': async ({ nodeId, workspace: requested }, context) => {
      const signal = workspace.signalFor(context?.signal);
      // A big workspace takes a while to look at the first time: the dialog shows how far it got.
      const operation = `preview-${randomUUID()}`;
      const onProgress = (done: number, total: number): void => events.emit('operation.progress', { operation, phase: 'reading the workspace', done, total });
      const planned = await writes.run(() => plan(nodeId, requested, signal, onProgress));
      remember(planned);
      return planned.preview;
    },
    'rewind.apply': async ({ nodeId, workspace: requested, token }, context) => {
      const signal = workspace.signalFor(context?.signal);
      return writes.run(async (): Promise<OperationOutcome> => {
        // The preview this process showed: its plan is applied as is, and the engine checks that every file it
        // writes, creates or deletes still holds what the preview saw (else `workspace-changed`). Re-planning
        // would capture the whole workspace again and cost more than the rewind itself.
        const shown = previews.get(token);
        const planned = shown !== undefined && shown.preview.nodeId === nodeId && matchesWorkspace(shown.preview, requested) ? shown : await plan(nodeId, requested, signal);
        if (planned.preview.token !== token) {
          // Without the preview's plan (another process previewed), every path the rewind would touch is suspect.
          const changed = shown === undefined ? planned.changes.map((change) => change.path) : differingPaths(shown.changes, planned.changes);
          return { status: 'workspace-changed', changed };
        }
        const { preview } = planned;
        const outcome = await operations.apply(
          { kind: 'rewind', workspace: preview.workspace, nodeId, changes: planned.changes, sideEffects: preview.sideEffects },
          { signal, onProgress: progress },
        );
        // A preview is good for one apply: the workspace is not what it saw any more.
        previews.delete(token);
        return outcome;
      });
    },
    'operations.undo': async ({ operationId }, context) => {
      const signal = workspace.signalFor(context?.signal);
      return writes.run(() => operations.undo(operationId, { signal, onProgress: progress }));
    },
    'operations.list': async ({ workspace: dir, limit }) => ({
      operations: operations.list({ ...(dir === undefined ? {} : { workspace: resolve(dir) }), ...(limit === undefined ? {} : { limit }) }),
    }),
  };
}

/** The session's importer reads the calls on its lines; the classifier reads only their neutral shape. */
function readCallsOf(format: string | undefined): Pick<Parameters<typeof sideEffectsSince>[0], 'readCalls'> {
  const readCalls = format === undefined ? undefined : importerFor(format)?.readCalls;
  return readCalls === undefined ? {} : { readCalls };
}
