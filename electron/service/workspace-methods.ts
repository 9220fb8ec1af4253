/**
 * The service's workspace-state methods: `nodes.files`, `nodes.file` (node-files.ts), `nodes.diff` (workspace-state.ts) and
 * `snapshots.capture` (an exact capture of a folder, recorded as a node: capture-snapshot.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import type { SnapshotRecord } from '../db/session-store';
import { ArborError } from '../../shared/errors';
import type { ArborApi } from '../../shared/contract';
import { captureSnapshot } from './capture-snapshot';
import type { WorkspaceContext } from './workspace-context';
import { describeFile, describeFiles } from './node-files';
import { asText, diffStates, type NodeState } from './workspace-state';

export type WorkspaceMethodName = 'nodes.files' | 'nodes.file' | 'nodes.diff' | 'snapshots.capture';

export function createWorkspaceMethods(workspace: WorkspaceContext): Pick<ArborApi, WorkspaceMethodName> {
  const { store, states } = workspace;

  /** The session's snapshot of the same folder taken just before this one, to say what changed. */
  async function previousSnapshot(record: SnapshotRecord): Promise<NodeState | null> {
    const all = store.getSessionSnapshots(record.sessionId);
    const index = all.findIndex((other) => other.id === record.id);
    const previous = all.slice(0, Math.max(0, index)).filter((other) => other.dir === record.dir).at(-1);
    return previous === undefined ? null : states.stateOf(previous.nodeId);
  }

  /** A relative path is taken from the node's folder: the snapshot's, else the session's (its project). */
  function folderOf(state: NodeState, path: string): string {
    const folder = state.snapshot?.dir ?? store.getSession(state.node.sessionId)?.project ?? null;
    if (folder === null) throw new ArborError('BAD_REQUEST', `The session has no folder to find ${path} in: give an absolute path`, { path });
    return folder;
  }

  return {
    'nodes.files': async ({ nodeId }, context) => {
      const state = await states.stateOf(nodeId, context?.signal);
      const previous = state.snapshot === undefined ? null : await previousSnapshot(state.snapshot);
      return describeFiles(state, previous, context?.signal);
    },
    'nodes.file': async ({ nodeId, path, bytes, replayed }, context) => {
      const state = await states.stateOf(nodeId, context?.signal);
      return describeFile(state, isAbsolute(path) ? path : resolve(folderOf(state, path), path), { bytes, replayed });
    },
    'nodes.diff': async ({ nodeIdA, nodeIdB }, context) => {
      const a = await states.stateOf(nodeIdA, context?.signal);
      const b = await states.stateOf(nodeIdB, context?.signal);
      const files = diffStates(a, b).map((difference) => ({
        path: difference.path,
        status: difference.status,
        before: asText(difference.before),
        after: asText(difference.after),
        ...(difference.binary ? { binary: true } : {}),
        ...(difference.unknown ? { unknown: true as const } : {}),
      }));
      return { nodeIdA, nodeIdB, files };
    },
    'snapshots.capture': async ({ dir, hook }, context) => captureSnapshot(workspace, dir, { signal: context?.signal, hook }),
  };
}

export { arborSessionId } from './capture-snapshot';
