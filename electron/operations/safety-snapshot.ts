/**
 * The safety snapshot: before an operation writes anything, the store receives the bytes of every file it
 * replaces, in a commit whose tree holds `before/` (what the workspace held) and `after/` (what the operation
 * writes). A ref keeps that commit, so undo and crash recovery find both versions even after the snapshots
 * the plan came from are deleted and gc runs.
 */
import type { FileMode, TreeEntry } from '../git/git-object';
import type { ObjectWriter, SnapshotStore } from '../git/object-store';
import type { FileVersion } from '../git/workspace-files';

export const OPERATION_REF_PREFIX = 'refs/arbor/operations/';

export const operationRefName = (operationId: string): string => `${OPERATION_REF_PREFIX}${operationId}`;

export interface SafetyFile {
  readonly path: string;
  readonly version: FileVersion;
}

interface Folder {
  readonly files: Map<string, { readonly mode: FileMode; readonly oid: string }>;
  readonly folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({ files: new Map(), folders: new Map() });

/** Writes the trees for `files` (paths already checked: no file is also a folder) and returns the root's id. */
function writeFilesTree(writer: ObjectWriter, files: readonly SafetyFile[]): string {
  const root = emptyFolder();
  for (const file of files) {
    const parts = file.path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = emptyFolder()));
      folder = next;
    }
    folder.files.set(parts.at(-1)!, file.version);
  }
  const write = (folder: Folder): string => {
    const entries: TreeEntry[] = [];
    for (const [name, file] of folder.files) entries.push({ name, mode: file.mode, oid: file.oid });
    for (const [name, sub] of folder.folders) entries.push({ name, mode: '40000', oid: write(sub) });
    return writer.writeTree(entries);
  };
  return write(root);
}

/**
 * Stores `replaced` (with their bytes) and records `before` and `after` under the operation's ref.
 * Target blobs (`after`) must already be in the store. Returns the commit id.
 */
export async function storeSafetySnapshot(
  objects: SnapshotStore,
  operationId: string,
  replaced: readonly { readonly path: string; readonly bytes: Buffer }[],
  before: readonly SafetyFile[],
  after: readonly SafetyFile[],
  nowMs: number,
  durable: boolean,
): Promise<string> {
  const writer = objects.createWriter({ durable });
  for (const file of replaced) writer.write('blob', file.bytes);
  const sides: TreeEntry[] = [];
  if (before.length > 0) sides.push({ name: 'before', mode: '40000', oid: writeFilesTree(writer, before) });
  if (after.length > 0) sides.push({ name: 'after', mode: '40000', oid: writeFilesTree(writer, after) });
  const who = { name: 'Arbor', email: 'operations@arbor.invalid', timestamp: Math.floor(nowMs / 1000), timezoneOffsetMinutes: 0 };
  const commit = writer.writeCommit({
    tree: writer.writeTree(sides),
    parents: [],
    author: who,
    committer: who,
    message: `Safety snapshot of operation ${operationId}\n`,
  });
  // With `durable`, finish() has the pack on disk before the ref names it and before any workspace write.
  await writer.finish();
  await objects.setRef(operationRefName(operationId), commit);
  return commit;
}
