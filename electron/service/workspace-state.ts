/**
 * A node's workspace state as the service answers for it (`nodes.files`, `nodes.file`, `nodes.diff`): an
 * exact snapshot (a manual or hook capture, read from the object store) or the session's reconstruction (the files
 * it touched, rebuilt from the transcript). Reconstructions are cached per session, a few at a time.
 */
import { sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { hashObject } from '../git/git-object';
import { importerFor } from '../importers/registry';
import { findSnapshotFile, listSnapshotFiles } from '../git/tree-read';
import type { SnapshotStore } from '../git/object-store';
import { createFileHistoryCopies, type FileHistoryCopies } from '../db/file-history-copies';
import { DEFAULT_BACKUP_LIMITS, openBackupReader, type BackupReader } from '../snapshots/file-history';
import { FILE_HISTORY_RECORDS, reconstructSession, UNKNOWN_CONTENT, type FileContent, type FileHistorySource, type Reconstruction } from '../snapshots/reconstruct';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { hookSnapshotAt } from './hook-snapshots';
import { sessionFolders, type FolderAt } from './session-folders';
import { lineageNodes } from './session-lineage';
import { readSessionNodes } from './session-nodes-reader';
import type { FileChangeStatus, FileUnknownReason, GhostSnapshotMiss, NodeId, NodeSummary, WorkspaceStateKnown } from '../../shared/model';

/** A file's content in a state: text, null (absent), unknown, or binary (not shown as text). */
export type StateContent = FileContent | BinaryContent;
export interface BinaryContent {
  readonly binary: true;
  readonly oid: string;
}
const isBinaryContent = (content: StateContent): content is BinaryContent => typeof content === 'object' && content !== null;

/**
 * What a state knows of one file: its blob (null: absent) when its content is known, since when and why when
 * it is not (with the transcript's replay, unverified: text, null for absent, undefined when there is none),
 * or that the state does not cover the path at all.
 */
export type StateFile = KnownStateFile | UnknownStateFile | { readonly known: 'not-covered' };
export interface KnownStateFile {
  readonly known: 'exact' | 'reconstructed';
  readonly blob: StateBlob | null;
}
export interface StateBlob {
  /** Git's blob id (`git hash-object`); a symlink's is that of its target path, as git stores links. */
  readonly oid: string;
  readonly size: number;
}
export interface UnknownStateFile {
  readonly known: 'unknown';
  readonly since: NodeId | null;
  readonly reason: FileUnknownReason;
  readonly replayed: string | null | undefined;
  /** A ghost snapshot above that could have told the content, and why it could not be read. */
  readonly ghost?: GhostSnapshotMiss;
}

/** One node's state, whichever way it is known. Paths are absolute. */
export interface NodeState {
  readonly node: NodeSummary;
  readonly known: WorkspaceStateKnown;
  readonly unknownSince: string | null;
  /** The paths the state covers: a snapshot's files, or the reconstruction's touched files. */
  paths(): readonly string[];
  /**
   * The content the state holds for the path: for a reconstruction, the replayed text even where `fileOf`
   * says it is not known to be right (rewind, fork and merge decide for themselves).
   */
  content(path: string): StateContent;
  /** How this file's content is known here, with its blob id and size when it is. */
  fileOf(path: string): StateFile;
  /** The exact bytes of a file whose content is known (a symlink's: its target path); null otherwise. */
  bytesOf(path: string): Buffer | null;
  /** Exact states: the file's blob id (undefined when absent), so two snapshots compare without reading blobs. */
  oidOf?(path: string): string | undefined;
  /** Set for exact states. */
  readonly snapshot?: SnapshotRecord;
  /** Set for reconstructed states. */
  readonly reconstruction?: Reconstruction;
}

const CACHED_SESSIONS = 4;

/**
 * How long a reconstruction reads lines before it gives the event loop back. `sessions.states` on a 10k-node
 * session read for 2.7 s in one task, and every request to `arbor serve` (the next page load, a node's
 * detail) queued behind it; in slices of this length the others are answered in between.
 */
export const RECONSTRUCTION_SLICE_MS = 8;

/**
 * How a reconstruction shares the cores. `sessions.states` runs right after a session opens, while the renderer
 * lays the graph out on the same two cores: at 100k nodes its ~10 s of reading took half of them through the
 * first view. In the background it rests between slices as long as the slice ran (half a core at most);
 * a node's state asked for (stateOf) turns the same build back to full speed.
 */
export type ReconstructionPace = 'background' | 'foreground';

export interface KnownOfOptions {
  readonly pace?: ReconstructionPace;
  /**
   * The session's nodes with its lineage's (what lineageNodes gives), when the caller has just read them for
   * the graph: reading 100k rows again was ~1 s of the cores at open. Used only when no build is cached.
   */
  readonly nodes?: readonly NodeSummary[];
}

export interface WorkspaceStates {
  stateOf(nodeId: string, signal?: AbortSignal): Promise<NodeState>;
  /** How each transcript node of the session is known, without building any node's state (`sessions.states`). */
  knownOf(sessionId: string, signal?: AbortSignal, options?: KnownOfOptions): Promise<ReadonlyMap<string, WorkspaceStateKnown>>;
  /** Drops cached reconstructions of sessions that changed (an import added nodes). */
  forget(sessionIds: readonly string[]): void;
}

export interface WorkspaceStatesOptions {
  /** Claude Code's config folder (`~/.claude`): its file-history backups join the reconstruction when present. */
  readonly claudeConfigDir?: string;
  /** How long a reconstruction reads before it yields (RECONSTRUCTION_SLICE_MS); tests make it 0. */
  readonly sliceMs?: number;
  /** Nodes read per page (session-nodes-reader.ts); tests make it small. */
  readonly pageRows?: number;
}

export function createWorkspaceStates(store: SessionStore, snapshots: () => SnapshotStore, options: WorkspaceStatesOptions = {}): WorkspaceStates {
  // Insertion order is recency order: a hit is re-inserted, the oldest entry is evicted.
  const cache = new Map<string, Promise<Reconstruction>>();
  /** The pace of each build in the cache, changed in place when a foreground caller joins a background build. */
  const paces = new Map<string, { background: boolean }>();
  /** Bumped by forget(): a session that changed while its nodes were read in pages is read again. */
  const generation = new Map<string, number>();
  let copies: FileHistoryCopies | undefined;
  const storedCopies = (): FileHistoryCopies => (copies ??= createFileHistoryCopies(store.handles));

  async function currentNodes(sessionId: string, signal: AbortSignal | undefined): Promise<NodeSummary[]> {
    for (;;) {
      const before = generation.get(sessionId) ?? 0;
      // In pages, like sessions.graph: reading a big session's rows is itself seconds of one task otherwise.
      const nodes = await readSessionNodes(store, sessionId, signal, options.pageRows);
      if ((generation.get(sessionId) ?? 0) === before) return nodes;
    }
  }

  function reconstructionOf(sessionId: string, signal: AbortSignal | undefined, pace: ReconstructionPace = 'foreground', given?: readonly NodeSummary[]): Promise<Reconstruction> {
    const hit = cache.get(sessionId);
    if (hit !== undefined) {
      if (pace === 'foreground') paces.get(sessionId)!.background = false;
      cache.delete(sessionId);
      cache.set(sessionId, hit);
      return hit;
    }
    const paced = { background: pace === 'background' };
    const built = (async () => {
      // A fork's state flows from its parent's prefix, a continuation's from the session it continues.
      const nodes = given ?? lineageNodes(store, sessionId, await currentNodes(sessionId, signal));
      const fileHistory = await fileHistorySource(store, options.claudeConfigDir, storedCopies(), snapshots);
      // The lines and result ids are read on the store's connection that maps nothing (database.ts, bulk).
      const read = slicedReader((id) => readRaw(store, id), signal, options.sliceMs, (sliceRan) => (paced.background ? sliceRan : 0));
      // The session's importer reads its format's file effects; the reconstruction reads only their neutral shape.
      const readEffects = importerFor(store.getSession(sessionId)?.source ?? 'claude-code')?.readEffects;
      const readRecords = (nodeId: string, types: ReadonlySet<string>) => store.getRecords(nodeId).flatMap((record) => (types.has(record.type) ? [record.raw.toString('utf8')] : []));
      // Kept by the import (migration 041): the result lines that answer no file edit are not read at all.
      const resultIds = store.storedResultIds([...new Set(nodes.map((node) => node.sessionId))]);
      const resultIdsOf = (nodeId: string) => resultIds.get(nodeId);
      return reconstructSession(nodes, read, { signal, readRecords, resultIdsOf, ...(fileHistory === undefined ? {} : { fileHistory }), ...(readEffects === undefined ? {} : { readEffects }) });
    })();
    cache.set(sessionId, built);
    paces.set(sessionId, paced);
    // A failed (or cancelled) build must not stay cached.
    built.catch(() => {
      if (cache.get(sessionId) === built) cache.delete(sessionId);
    });
    while (cache.size > CACHED_SESSIONS) cache.delete(cache.keys().next().value as string);
    for (const id of paces.keys()) if (!cache.has(id)) paces.delete(id);
    return built;
  }

  return {
    async stateOf(nodeId, signal) {
      const snapshot = store.getSnapshotByNode(nodeId);
      if (snapshot !== null) return exactState(snapshots(), snapshot);
      const stored = store.getNode(nodeId);
      if (stored === null) throw new ArborError('NOT_FOUND', `No node ${nodeId}`, { nodeId });
      // A tool call captured by the PostToolUse hook is known exactly, at its call and its result.
      const captured = hookSnapshotAt(store, stored);
      if (captured !== null) return exactState(snapshots(), captured, stored.summary);
      const reconstruction = await reconstructionOf(stored.summary.sessionId, signal);
      return reconstructedState(stored.summary, reconstruction);
    },
    async knownOf(sessionId, signal, { pace, nodes } = {}) {
      // A view over the reconstruction's marks, not a map of every node (370k entries on a 1 GB session).
      const known = (await reconstructionOf(sessionId, signal, pace, nodes)).knownByNode();
      // As stateOf answers: a call the PostToolUse hook captured is exact at its call and its result. Hook
      // snapshots belong to the session holding their call (capture-snapshot.ts), so the session's list is enough.
      const exact = new Map<string, 'exact'>();
      for (const record of store.getSessionSnapshots(sessionId)) {
        if (record.kind !== 'hook' || !record.toolUseId) continue;
        const call = store.findToolCall(record.toolUseId);
        for (const id of [call?.callNodeId, call?.resultNodeId]) if (id != null && known.has(id)) exact.set(id, 'exact');
      }
      return known.with(exact);
    },
    forget(sessionIds) {
      for (const id of sessionIds) {
        cache.delete(id);
        generation.set(id, (generation.get(id) ?? 0) + 1);
      }
    },
  };
}

/**
 * The session store's file-history-snapshot lines and the backups behind them: the copies the import kept in
 * the snapshot store (file-history-archive.ts), else Claude Code's own folder; undefined when there are neither.
 */
async function fileHistorySource(
  store: SessionStore,
  configDir: string | undefined,
  copies: FileHistoryCopies,
  snapshots: () => SnapshotStore,
): Promise<FileHistorySource | undefined> {
  const onDisk = configDir === undefined ? null : await openBackupReader(configDir);
  if (onDisk === null && !copies.any()) return undefined;
  const backups = archivedBackups(copies, snapshots, onDisk);
  const foldersBySession = new Map<string, FolderAt>();
  return {
    recordsOf: (nodeId) =>
      store.getRecords(nodeId).flatMap((record) => (FILE_HISTORY_RECORDS.has(record.type) ? [{ type: record.type, raw: record.raw.toString('utf8'), file: record.file }] : [])),
    readBackup: (sessionId, backupFileName) => backups.read(sessionId, backupFileName),
    folderAt: (nodeId) => {
      const node = store.getNode(nodeId);
      if (node === null) return null;
      let folders = foldersBySession.get(node.summary.sessionId);
      if (folders === undefined) foldersBySession.set(node.summary.sessionId, (folders = sessionFolders(store, node.summary.sessionId)));
      return folders(node.file, node.line);
    },
  };
}

/**
 * Backups read from the store's copies first (the same bytes, and still there after Claude Code's cleanup), from
 * the file-history folder for those imported before the archive existed; within the same limits as the folder's.
 */
function archivedBackups(copies: FileHistoryCopies, snapshots: () => SnapshotStore, onDisk: BackupReader | null): BackupReader {
  let budget = DEFAULT_BACKUP_LIMITS.maxTotalBytes;
  return {
    async read(sessionId, backupFileName) {
      const copy = copies.find(sessionId, backupFileName);
      if (copy !== null && copy.size <= DEFAULT_BACKUP_LIMITS.maxFileBytes && copy.size <= budget) {
        const objects = snapshots();
        // The import's worker wrote the pack through its own instance of the store.
        if (!objects.has(copy.blobOid)) objects.refresh();
        if (objects.has(copy.blobOid)) {
          budget -= copy.size;
          return objects.readBlob(copy.blobOid);
        }
      }
      return onDisk === null ? null : onDisk.read(sessionId, backupFileName);
    },
  };
}

/**
 * `read`, answering synchronously until RECONSTRUCTION_SLICE_MS have passed, then once through the event loop
 * (the reconstruction awaits each read), so other requests run between slices and a cancel is seen there.
 */
export function slicedReader(
  read: (nodeId: string) => string | null,
  signal?: AbortSignal,
  sliceMs = RECONSTRUCTION_SLICE_MS,
  /** How long to rest after a slice that ran `sliceRan` ms (0: only the event loop's turn). */
  restAfter: (sliceRan: number) => number = () => 0,
): (nodeId: string) => string | null | Promise<string | null> {
  let sliceStart = performance.now();
  let sliceEnd = sliceStart + sliceMs;
  return (nodeId) => {
    const now = performance.now();
    if (now < sliceEnd) return read(nodeId);
    const rest = restAfter(now - sliceStart);
    return (rest > 0 ? sleep(rest) : nextTurn()).then(() => {
      throwIfAborted(signal);
      sliceStart = performance.now();
      sliceEnd = sliceStart + sliceMs;
      return read(nodeId);
    });
  };
}

/** A line cut at the store's raw limit is not valid JSON: the reconstruction treats it as unreadable. */
function readRaw(store: SessionStore, nodeId: string): string | null {
  const node = store.getNodeLine(nodeId);
  if (node === null || node.rawBytes > node.raw.length) return null;
  return node.raw.toString('utf8');
}

export function snapshotNode(record: SnapshotRecord): NodeSummary {
  return {
    id: record.nodeId,
    sessionId: record.sessionId,
    sourceId: record.nodeId,
    parentSourceId: null,
    parentId: record.parentId,
    extraEdges: record.secondParentId ? [{ kind: 'merge', nodeId: record.secondParentId }] : [],
    kind: 'system',
    timestamp: record.createdAt,
    label: snapshotLabel(record.dir, record.files, record.kind),
    toolCalls: [],
    sidechain: false,
    agentId: null,
    model: null,
  };
}

const LABEL_PREFIX = { manual: 'Snapshot of', hook: 'Snapshot after tool call:', fork: 'Fork →', merge: 'Merge into' } as const;

export function snapshotLabel(dir: string, files: number, kind: keyof typeof LABEL_PREFIX = 'manual'): string {
  const label = `${LABEL_PREFIX[kind]} ${dir} (${files} ${files === 1 ? 'file' : 'files'})`;
  return label.length <= 120 ? label : `${label.slice(0, 119)}…`;
}

function exactState(objects: SnapshotStore, record: SnapshotRecord, node: NodeSummary = snapshotNode(record)): NodeState {
  const prefix = record.dir.endsWith(sep) ? record.dir : `${record.dir}/`;
  let listed: ReadonlyMap<string, string> | undefined;
  const files = (): ReadonlyMap<string, string> =>
    (listed ??= new Map(listSnapshotFiles(objects, record.treeOid).map((file) => [prefix + file.path, file.oid])));
  /** The file's blob id; undefined when absent; null when the path is outside the captured folder. */
  const oidAt = (path: string): string | undefined | null => {
    if (!path.startsWith(prefix)) return null;
    // One lookup down the tree unless the whole listing is already at hand (nodes.files built it).
    return listed !== undefined ? listed.get(path) : findSnapshotFile(objects, record.treeOid, path.slice(prefix.length))?.oid;
  };
  return {
    node,
    known: 'exact',
    unknownSince: null,
    snapshot: record,
    paths: () => [...files().keys()],
    oidOf: (path) => files().get(path),
    content(path) {
      const oid = oidAt(path);
      // A path outside the captured folder was not captured: its state there is not known.
      if (oid === null) return UNKNOWN_CONTENT;
      if (oid === undefined) return null;
      const bytes = objects.readBlob(oid);
      return isBinary(bytes) ? { binary: true, oid } : bytes.toString('utf8');
    },
    fileOf(path) {
      const oid = oidAt(path);
      if (oid === null) return { known: 'not-covered' };
      // The tree names the blob and the pack header its size: no blob is read to list a snapshot.
      return { known: 'exact', blob: oid === undefined ? null : { oid, size: objects.sizeOf(oid) } };
    },
    bytesOf(path) {
      const oid = oidAt(path);
      return oid == null ? null : objects.readBlob(oid);
    },
  };
}

function reconstructedState(node: NodeSummary, reconstruction: Reconstruction): NodeState {
  const state = reconstruction.stateAt(node.id);
  const unknown = new Set(state.unknownFiles);
  const touched = new Set(reconstruction.touchedFiles);
  let ghostMiss: { readonly miss: GhostSnapshotMiss | null } | undefined;
  /** Why a touched file is not known here; undefined when its text in `state.files` is right. */
  const unknownSinceOf = (path: string): { readonly nodeId: NodeId | null; readonly reason: FileUnknownReason } | undefined =>
    // The reconstruction's reasons are the contract's: this stops compiling if it gains one the model lacks.
    state.fileUnknownSince.get(path) ?? (unknown.has(path) || !state.files.has(path) ? NEVER_TOLD : undefined);
  return {
    node,
    known: state.known,
    unknownSince: state.unknownSince?.nodeId ?? null,
    reconstruction,
    paths: () => reconstruction.touchedFiles,
    content(path) {
      if (unknown.has(path)) return UNKNOWN_CONTENT;
      const text = state.files.get(path);
      return text === undefined ? UNKNOWN_CONTENT : text;
    },
    fileOf(path) {
      if (!touched.has(path)) return { known: 'not-covered' };
      const since = unknownSinceOf(path);
      const text = state.files.get(path);
      if (since !== undefined) {
        const ghost = (ghostMiss ??= { miss: reconstruction.ghostMissAt(node.id) }).miss;
        return { known: 'unknown', since: since.nodeId, reason: since.reason, replayed: unknown.has(path) ? undefined : text, ...(ghost === null ? {} : { ghost }) };
      }
      return { known: 'reconstructed', blob: text == null ? null : textBlob(text) };
    },
    bytesOf(path) {
      const text = state.files.get(path);
      return touched.has(path) && unknownSinceOf(path) === undefined && typeof text === 'string' ? Buffer.from(text, 'utf8') : null;
    },
  };
}

const NEVER_TOLD = { nodeId: null, reason: 'no-pre-state' } as const;

/**
 * Why a file whose replayed content a state holds is not known to be right there (undefined: it is right, or
 * there is no replay). Rewind, fork and merge write such a replay only when nothing shows it stale.
 */
export function doubtOf(state: NodeState, path: string): { readonly since: NodeId | null; readonly reason: FileUnknownReason } | undefined {
  const file = state.fileOf(path);
  return file.known === 'unknown' && file.replayed !== undefined ? { since: file.since, reason: file.reason } : undefined;
}

/** A replayed text's blob as git would name it, were the text written to disk as UTF-8. */
function textBlob(text: string): StateBlob {
  const bytes = Buffer.from(text, 'utf8');
  return { oid: hashObject('blob', bytes).toString('hex'), size: bytes.length };
}

/** Like git: a NUL byte in the first 8000 bytes makes a file binary. */
export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

export function changeStatus(before: StateContent, after: StateContent): FileChangeStatus {
  if (before === null) return 'added';
  if (after === null) return 'deleted';
  return 'modified';
}

export interface StateDifference {
  readonly path: string;
  readonly status: FileChangeStatus;
  readonly before: StateContent;
  readonly after: StateContent;
  readonly binary: boolean;
  readonly unknown: boolean;
}

/**
 * The files that differ from `a` to `b`, over the paths both states cover (a reconstruction covers only its
 * touched files, so against one the diff is limited to those). Unknown contents are reported, not guessed.
 */
export function diffStates(a: NodeState, b: NodeState): StateDifference[] {
  const paths = new Set<string>();
  const bothExact = a.snapshot !== undefined && b.snapshot !== undefined;
  if (bothExact || a.reconstruction !== undefined) for (const path of a.paths()) paths.add(path);
  if (bothExact || b.reconstruction !== undefined) for (const path of b.paths()) paths.add(path);
  const differences: StateDifference[] = [];
  for (const path of [...paths].sort()) {
    // Identical blobs in two snapshots are the same content: skip them without reading either.
    if (a.oidOf !== undefined && b.oidOf !== undefined && a.oidOf(path) === b.oidOf(path)) continue;
    const before = a.content(path);
    const after = b.content(path);
    if (sameContent(before, after)) continue;
    const unknown = before === UNKNOWN_CONTENT || after === UNKNOWN_CONTENT;
    const binary = isBinaryContent(before) || isBinaryContent(after);
    differences.push({ path, status: changeStatus(before, after), before, after, binary, unknown });
  }
  return differences;
}

function sameContent(a: StateContent, b: StateContent): boolean {
  if (isBinaryContent(a) && isBinaryContent(b)) return a.oid === b.oid;
  return a === b;
}

export function asText(content: StateContent): string | null {
  return typeof content === 'string' ? content : null;
}
