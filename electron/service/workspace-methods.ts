/**
 * The service's workspace-state methods: `nodes.files`, `nodes.file`, `nodes.diff` (workspace-state.ts) and
 * `snapshots.capture` (an exact capture of a folder, recorded as a node of its workspace's session).
 */
import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { captureDirectory } from '../git/capture';
import { StatCache } from '../git/stat-cache';
import { UNKNOWN_CONTENT } from '../snapshots/reconstruct';
import type { ArborApi } from '../../shared/contract';
import type { WorkspaceContext } from './workspace-context';
import { asText, describeFiles, diffStates, snapshotNode, type NodeState } from './workspace-state';

export type WorkspaceMethodName = 'nodes.files' | 'nodes.file' | 'nodes.diff' | 'snapshots.capture';

export function createWorkspaceMethods(workspace: WorkspaceContext): Pick<ArborApi, WorkspaceMethodName> {
  const { store, states, objects: snapshots, writes: captures } = workspace;

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
    'snapshots.capture': async ({ dir }, context) => {
      const signal = workspace.signalFor(context?.signal);
      const folder = resolve(dir);
      return captures.run(async () => {
        const objectStore = snapshots();
        const id = randomUUID();
        const statCache = await StatCache.forDirectory(objectStore, folder);
        const captured = await captureDirectory(objectStore, folder, {
          signal,
          statCache,
          commit: { message: `Snapshot of ${folder}`, snapshotId: id },
        });
        const sessionId = store.sessionOfProject(folder) ?? arborSessionId(folder);
        const record: SnapshotRecord = {
          id,
          nodeId: `snapshot-${id}`,
          sessionId,
          parentId: newestNode(store, sessionId),
          dir: folder,
          treeOid: captured.treeOid,
          commitOid: captured.commitOid ?? null,
          files: captured.files,
          createdAt: workspace.now().toISOString(),
        };
        store.recordSnapshot(record);
        return {
          node: snapshotNode(record),
          snapshot: {
            id,
            dir: folder,
            tree: captured.treeOid,
            commit: record.commitOid,
            files: captured.files,
            createdAt: record.createdAt,
            objectsWritten: captured.objectsWritten,
            filesRead: captured.filesRead,
            skipped: captured.skipped,
          },
          files: captured.files,
        };
      });
    },
  };
}

/** A folder no imported session ran in gets an Arbor-owned session id of its own (stable per folder). */
export function arborSessionId(folder: string): string {
  return `arbor-workspace-${createHash('sha256').update(folder).digest('hex').slice(0, 20)}`;
}

/** The snapshot hangs below the session's newest main-line node (transcript order), when it has nodes. */
function newestNode(store: SessionStore, sessionId: string): string | null {
  const nodes = store.getSessionNodes(sessionId).filter((node) => !node.sidechain);
  return nodes.at(-1)?.id ?? null;
}
