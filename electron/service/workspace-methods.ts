/**
 * The service's workspace-state methods: `nodes.files`, `nodes.file`, `nodes.diff` (workspace-state.ts) and
 * `snapshots.capture` (an exact capture of a folder, recorded as a node: capture-snapshot.ts).
 */
import type { SnapshotRecord } from '../db/session-store';
import { UNKNOWN_CONTENT } from '../snapshots/reconstruct';
import type { ArborApi } from '../../shared/contract';
import { captureSnapshot } from './capture-snapshot';
import type { WorkspaceContext } from './workspace-context';
import { asText, describeFiles, diffStates, type NodeState } from './workspace-state';

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

  return {
    'nodes.files': async ({ nodeId }, context) => {
      const state = await states.stateOf(nodeId, context?.signal);
      const previous = state.snapshot === undefined ? null : await previousSnapshot(state.snapshot);
      return describeFiles(state, previous);
    },
    'nodes.file': async ({ nodeId, path }, context) => {
      const state = await states.stateOf(nodeId, context?.signal);
      const content = state.content(path);
      const unknown = content === UNKNOWN_CONTENT;
      return {
        path,
        content: asText(content),
        exists: !unknown && content !== null,
        binary: typeof content === 'object' && content !== null,
        known: unknown ? 'unknown' : state.known,
      };
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
