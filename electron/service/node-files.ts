/**
 * What `nodes.files` and `nodes.file` answer for a node's state (workspace-state.ts): every file with how its
 * own content is known (exact, reconstructed, or unknown since a step and why), its git blob id and size
 * when known; and one file's content, its exact bytes on request.
 */
import { ArborError, assertNever, throwIfAborted } from '../../shared/errors';
import type { FileChangeStatus, NodeChangedFile, NodeFileContent, NodeFileEntry, NodeFiles } from '../../shared/model';
import { changeStatus, diffStates, isBinary, type NodeState, type StateFile } from './workspace-state';

/** A snapshot's changes are against the session's previous snapshot of the same folder. */
export function describeFiles(state: NodeState, previous: NodeState | null, signal?: AbortSignal): NodeFiles {
  let changed: NodeChangedFile[];
  if (state.reconstruction !== undefined) {
    changed = state.reconstruction.changedAt(state.node.id).map((change) => ({ path: change.path, status: changeStatus(change.before, change.after) }));
  } else if (previous !== null) {
    changed = diffStates(previous, state).map(({ path, status, binary }) => ({ path, status, ...(binary ? { binary } : {}) }));
  } else {
    changed = [];
  }
  const statusOf = new Map(changed.map((change) => [change.path, change.status]));
  const files: NodeFileEntry[] = [];
  for (const [i, path] of state.paths().entries()) {
    if (i % 1024 === 1023) throwIfAborted(signal);
    const entry = fileEntry(path, state.fileOf(path), statusOf.get(path));
    if (entry !== undefined) files.push(entry);
  }
  return { node: state.node, known: state.known, changed, files, unknownSince: state.unknownSince };
}

/**
 * A file present at the node; undefined for one that is absent, or that the replay says is absent even if
 * not known to be right (listing every touched file a later step creates would bury the real ones).
 */
function fileEntry(path: string, file: StateFile, status: FileChangeStatus | undefined): NodeFileEntry | undefined {
  const changed = status === undefined ? {} : { status };
  switch (file.known) {
    case 'not-covered':
      return undefined;
    case 'unknown':
      if (file.replayed === null) return undefined;
      return { path, ...changed, known: 'unknown', unknownSince: file.since, reason: file.reason, ...(file.ghost === undefined ? {} : { ghost: file.ghost }), unknown: true };
    case 'exact':
    case 'reconstructed':
      return file.blob === null ? undefined : { path, ...changed, known: file.known, oid: file.blob.oid, size: file.blob.size };
    default:
      return assertNever(file, 'file state');
  }
}

export interface DescribeFileOptions {
  /** Include the exact bytes, base64. */
  readonly bytes?: boolean;
  /** For a file whose content is not known, include the transcript's replay of it. */
  readonly replayed?: boolean;
}

export function describeFile(state: NodeState, path: string, options: DescribeFileOptions = {}): NodeFileContent {
  const file = state.fileOf(path);
  const absent = { path, content: null, exists: false, binary: false } as const;
  switch (file.known) {
    case 'not-covered':
      return { ...absent, known: 'unknown', notCovered: true };
    case 'unknown':
      return {
        ...absent,
        known: 'unknown',
        unknownSince: file.since,
        reason: file.reason,
        ...(file.ghost === undefined ? {} : { ghost: file.ghost }),
        ...(options.replayed === true && file.replayed !== undefined ? { replayed: file.replayed } : {}),
      };
    case 'exact':
    case 'reconstructed': {
      if (file.blob === null) return { ...absent, known: file.known };
      const bytes = state.bytesOf(path);
      if (bytes === null) throw new ArborError('INTERNAL', `A known file has no content: ${path}`, { path });
      const binary = state.snapshot !== undefined && isBinary(bytes);
      return {
        path,
        content: binary ? null : bytes.toString('utf8'),
        exists: true,
        binary,
        known: file.known,
        oid: file.blob.oid,
        size: file.blob.size,
        ...(options.bytes === true ? { base64: bytes.toString('base64') } : {}),
      };
    }
    default:
      return assertNever(file, 'file state');
  }
}
