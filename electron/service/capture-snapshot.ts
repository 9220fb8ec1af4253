/**
 * One exact capture of a folder, recorded as a node: `snapshots.capture` (a manual snapshot, `arbor snapshot
 * DIR`) and the PostToolUse hook (`arbor snapshot --hook`, linked to the tool call it followed) both go
 * through here. Captures are serialized (workspace.writes, and a lock file across processes: capture-lock.ts):
 * captures of a folder share its stat cache.
 */
import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { captureDirectory } from '../git/capture';
import { StatCache } from '../git/stat-cache';
import { withCaptureLock } from './capture-lock';
import type { HookCapture } from '../../shared/contract';
import type { SnapshotCaptured } from '../../shared/model';
import type { WorkspaceContext } from './workspace-context';
import { snapshotNode } from './workspace-state';

export interface CaptureSnapshotOptions {
  readonly signal?: AbortSignal;
  /** Set for hook snapshots: the tool call the capture follows. */
  readonly hook?: HookCapture;
}

export function captureSnapshot(workspace: WorkspaceContext, dir: string, options: CaptureSnapshotOptions = {}): Promise<SnapshotCaptured> {
  const { store } = workspace;
  const signal = workspace.signalFor(options.signal);
  const folder = resolve(dir);
  const { hook } = options;
  const capture = async (): Promise<SnapshotCaptured> => {
    const objectStore = workspace.objects();
    const id = randomUUID();
    const statCache = await StatCache.forDirectory(objectStore, folder);
    const captured = await captureDirectory(objectStore, folder, {
      signal,
      statCache,
      git: workspace.git,
      commit: { message: hook ? `Snapshot after tool call ${hook.toolUseId} in ${folder}` : `Snapshot of ${folder}`, snapshotId: id },
    });
    const placement = hook ? hookPlacement(store, hook) : manualPlacement(store, folder);
    const record: SnapshotRecord = {
      id,
      nodeId: `snapshot-${id}`,
      sessionId: placement.sessionId,
      parentId: placement.parentId,
      dir: folder,
      treeOid: captured.treeOid,
      commitOid: captured.commitOid ?? null,
      files: captured.files,
      createdAt: workspace.now().toISOString(),
      ...(hook ? { kind: 'hook' as const, toolUseId: hook.toolUseId } : {}),
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
  };
  return workspace.writes.run(() => withCaptureLock(workspace.dataDir, folder, signal, capture));
}

interface Placement {
  readonly sessionId: string;
  readonly parentId: string | null;
}

/** A manual snapshot hangs below the newest main-line node of the folder's session (or Arbor's own session). */
function manualPlacement(store: SessionStore, folder: string): Placement {
  const sessionId = store.sessionOfProject(folder) ?? arborSessionId(folder);
  return { sessionId, parentId: newestNode(store, sessionId) };
}

/**
 * A hook snapshot belongs to the session holding its tool call. The transcript usually lags the hook, so the
 * call is often not imported yet: then the session that imported the transcript file, else the hook's own
 * session id (a fresh session's transcript imports under that id). The graph re-places it once the call is known.
 */
function hookPlacement(store: SessionStore, hook: HookCapture): Placement {
  const call = store.findToolCall(hook.toolUseId);
  const fileSession = hook.transcriptPath === undefined ? null : store.sessionOfFile(hook.transcriptPath);
  return { sessionId: call?.sessionId ?? fileSession ?? hook.sessionId, parentId: call?.callNodeId ?? null };
}

/** A folder no imported session ran in gets an Arbor-owned session id of its own (stable per folder). */
export function arborSessionId(folder: string): string {
  return `arbor-workspace-${createHash('sha256').update(folder).digest('hex').slice(0, 20)}`;
}

/** The session's newest main-line node (transcript order), when it has nodes. */
function newestNode(store: SessionStore, sessionId: string): string | null {
  const nodes = store.getSessionNodes(sessionId).filter((node) => !node.sidechain);
  return nodes.at(-1)?.id ?? null;
}
