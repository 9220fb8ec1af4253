/**
 * `archive.export` (issue 15, CLI `arbor export-archive DIR`): the whole store as a plain folder another
 * machine installs (archive-import.ts). The store file is copied first with SQLite's online backup, in short
 * steps, while imports go on writing; then the snapshot repository, once without the store's writer turn and
 * then, for what changed meanwhile, holding it (what gc and deletion take before they prune), so the copy is
 * whole. It is checked against the copied rows: every snapshot tree, commit and safety commit they name is in
 * the copy. A deletion that pruned between the two is the one case where it is not; the store file is then
 * copied again, inside the turn, where nothing can change it.
 * Everything is written to `DIR.partial` and renamed to DIR once whole.
 */
import { lstat, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  ARCHIVE_DATABASE,
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_SNAPSHOTS,
  type ArchiveExported,
  type ArchiveExportRequest,
  type ArchiveManifest,
  type ArchivePhase,
} from '../../shared/archive';
import type { ArborApi } from '../../shared/contract';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { backupStore, readStoreFileFacts } from '../db/store-backup';
import { copyRepository, countRefs, missingObjects, repositoryBytes } from '../git/copy-repository';
import { sha256File, writeArchiveFiles } from './archive-manifest';
import type { WorkspaceContext } from './workspace-context';

export function createArchiveExportMethod(workspace: WorkspaceContext, version: string): ArborApi['archive.export'] {
  return async (request, context) => exportArchive(workspace, request, { version, signal: workspace.signalFor(context?.signal) });
}

export async function exportArchive(
  workspace: WorkspaceContext,
  request: ArchiveExportRequest,
  options: { readonly version: string; readonly signal: AbortSignal },
): Promise<ArchiveExported> {
  const { signal } = options;
  const dir = resolve(request.dir);
  const dataDir = resolve(workspace.dataDir);
  if (inside(dataDir, dir) || inside(dir, dataDir)) {
    const where = dir === dataDir ? 'over' : inside(dataDir, dir) ? 'inside' : 'around';
    throw new ArborError('BAD_REQUEST', `The archive cannot be written ${where} the data folder ${dataDir}`, { dir });
  }
  await refuseUnlessEmpty(dir, request.force === true);
  const progress = (phase: ArchivePhase, done: number, total: number): void =>
    workspace.events.emit('operation.progress', { operation: 'archive-export', phase, done, total });

  const partial = `${dir}.partial`;
  // What an interrupted export left: Arbor's own name, never the user's folder.
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const database = join(partial, ARCHIVE_DATABASE);
    const db = workspace.store.handles.write;
    const backup = (): ReturnType<typeof backupStore> => backupStore(db, database, { signal, onProgress: (p) => progress('database', p.done, p.total) });
    let restarts = (await backup()).restarts;
    const gitdir = workspace.objects().gitdir;
    const snapshots = join(partial, ARCHIVE_SNAPSHOTS);
    // The bulk of the repository without the turn; holding it, only what changed since.
    await copyRepository(gitdir, snapshots, { signal, onProgress: (p) => progress('snapshots', p.done, p.total) });

    const missing = await workspace.writes.run(async () => {
      throwIfAborted(signal);
      await copyRepository(gitdir, snapshots, { signal, update: true });
      progress('verify', 0, 1);
      let gaps = missingObjects(partial, readStoreFileFacts(database).objectIds);
      if (gaps.length > 0) {
        await rm(database, { force: true });
        restarts += (await backup()).restarts;
        gaps = missingObjects(partial, readStoreFileFacts(database).objectIds);
      }
      // Still missing with nothing changing: the store's own repository lacks them.
      return gaps;
    });

    const facts = readStoreFileFacts(database);
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      arborVersion: options.version,
      schemaVersion: facts.schemaVersion,
      createdAt: workspace.now().toISOString(),
      counts: { ...facts.counts, refs: await countRefs(partial) },
      sizes: { database: (await lstat(database)).size, snapshots: await repositoryBytes(join(partial, ARCHIVE_SNAPSHOTS)) },
      database: { file: ARCHIVE_DATABASE, sha256: await sha256File(database, signal) },
      snapshots: { dir: ARCHIVE_SNAPSHOTS },
      missingObjects: [...missing].sort(),
    };
    await writeArchiveFiles(partial, manifest);
    progress('verify', 1, 1);
    throwIfAborted(signal);
    await putInPlace(partial, dir);
    return { dir, manifest, backupRestarts: restarts };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/** EXISTS when `dir` holds anything (a file, a folder with entries) and `force` was not given. */
async function refuseUnlessEmpty(dir: string, force: boolean): Promise<void> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) {
    await mkdir(dirname(dir), { recursive: true });
    return;
  }
  const empty = info.isDirectory() && (await readdir(dir)).length === 0;
  if (!empty && !force) throw new ArborError('EXISTS', `${dir} already exists and is not empty: it is replaced only when asked (--force, or "Replace the folder" in the app)`, { dir });
}

/** Renames the finished archive to `dir`; what was there (empty, or replaced with force) goes only after. */
async function putInPlace(partial: string, dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) return rename(partial, dir);
  if (info.isDirectory() && (await readdir(dir)).length === 0) {
    await rmdir(dir);
    return rename(partial, dir);
  }
  const old = `${dir}.replaced-${process.pid}-${Date.now()}`;
  await rename(dir, old);
  await rename(partial, dir);
  await rm(old, { recursive: true, force: true });
}

/** `child` is `parent` or below it. */
function inside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}
