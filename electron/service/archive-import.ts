/**
 * Installing an archive (issue 15, CLI `arbor import-archive DIR`): the manifest is checked, the store file's
 * sha256 and SQLite's own check must match, and the snapshot repository must hold every object the rows name.
 * The store and repository are copied into `<dataDir>/archive-import.partial`, migrated there when the archive
 * is from an older schema (the open runs the migrations), and renamed into place while holding the store's
 * writer turn. A data folder that already holds a store is refused unless `replace`: the store is then moved
 * aside into `<dataDir>/replaced-<date>/`, never deleted. Merging two stores is not done.
 *
 * It runs on a data folder no service has open (the CLI calls it without opening the store); a store another
 * process has open (the app, `arbor serve`, `arbor watch`) is refused with STORE_BUSY.
 */
import { copyFile, lstat, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ARCHIVE_DATABASE, ARCHIVE_SNAPSHOTS, type ArchiveImported, type ArchiveManifest, type ArchivePhase } from '../../shared/archive';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { latestVersion } from '../db/migrations';
import { openSessionStore } from '../db/session-store';
import { readStoreFileFacts, releaseStoreFile } from '../db/store-backup';
import { copyRepository, countRefs, missingObjects } from '../git/copy-repository';
import { readArchiveManifest, sha256File } from './archive-manifest';
import { STORE_FILE } from './service-core';
import { createStoreWriterLock, describeWait } from './store-writer-lock';

export interface ArchiveImportOptions {
  readonly archiveDir: string;
  readonly dataDir: string;
  /** Move a store already in the data folder aside instead of refusing. */
  readonly replace?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { readonly phase: ArchivePhase; readonly done: number; readonly total: number }) => void;
  /** Told when another process holds the store's writer turn (the CLI prints it). */
  readonly onWait?: (message: string) => void;
  readonly now?: () => Date;
  /** This process, as another one waiting for it reads it. */
  readonly name?: string;
}

const PARTIAL = 'archive-import.partial';
const STORE_SIDE_FILES = ['-wal', '-shm'];

export async function importArchive(options: ArchiveImportOptions): Promise<ArchiveImported> {
  const signal = options.signal ?? new AbortController().signal;
  const archiveDir = resolve(options.archiveDir);
  const dataDir = resolve(options.dataDir);
  const progress = (phase: ArchivePhase, done: number, total: number): void => options.onProgress?.({ phase, done, total });

  const manifest = await checkArchive(archiveDir, signal, progress);
  await mkdir(dataDir, { recursive: true });
  const lock = createStoreWriterLock({ dataDir, name: options.name ?? 'arbor import-archive', onWait: (holder) => options.onWait?.(describeWait(holder)) });
  return lock.withTurn(
    signal,
    async () => {
      const existing = await existingStore(dataDir);
      if (existing !== null && existing.holdsData && options.replace !== true) {
        throw new ArborError(
          'EXISTS',
          `The data folder ${dataDir} already holds a store (${existing.sessions} sessions): --replace moves it aside into a dated folder first (merging two stores is not supported)`,
          { dataDir },
        );
      }

      const partial = join(dataDir, PARTIAL);
      await rm(partial, { recursive: true, force: true });
      await mkdir(partial);
      try {
        progress('install', 0, 3);
        await copyFile(join(archiveDir, ARCHIVE_DATABASE), join(partial, STORE_FILE));
        await copyRepository(join(archiveDir, ARCHIVE_SNAPSHOTS), join(partial, ARCHIVE_SNAPSHOTS), { signal, onProgress: (p) => progress('snapshots', p.done, p.total) });
        throwIfAborted(signal);
        progress('install', 1, 3);
        // Opening runs the migrations an older archive needs; closing folds the WAL back into the one file.
        openSessionStore(join(partial, STORE_FILE)).close();
        const schemaVersion = readStoreFileFacts(join(partial, STORE_FILE)).schemaVersion;
        progress('install', 2, 3);
        const replacedTo = existing === null ? null : await moveAside(dataDir, (options.now ?? (() => new Date()))());
        await rename(join(partial, STORE_FILE), join(dataDir, STORE_FILE));
        await rename(join(partial, ARCHIVE_SNAPSHOTS), join(dataDir, ARCHIVE_SNAPSHOTS));
        await rm(partial, { recursive: true, force: true });
        progress('install', 3, 3);
        return { dataDir, manifest, schemaVersion, migrated: schemaVersion !== manifest.schemaVersion, replacedTo };
      } catch (error) {
        await rm(partial, { recursive: true, force: true });
        throw error;
      }
    },
    'archive install',
  );
}

/** The archive as its manifest describes it, or CORRUPT (UNSUPPORTED when it is from a newer schema). */
async function checkArchive(
  archiveDir: string,
  signal: AbortSignal,
  progress: (phase: ArchivePhase, done: number, total: number) => void,
): Promise<ArchiveManifest> {
  const manifest = await readArchiveManifest(archiveDir);
  const database = join(archiveDir, ARCHIVE_DATABASE);
  progress('verify', 0, 3);
  const sha256 = await sha256File(database, signal).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof ArborError) throw error;
    throw new ArborError('CORRUPT', `The archive has no readable ${ARCHIVE_DATABASE}: ${error.message}`, { dir: archiveDir });
  });
  if (sha256 !== manifest.database.sha256) {
    throw new ArborError('CORRUPT', `The archive's ${ARCHIVE_DATABASE} is not the file its manifest describes (sha256 ${sha256}, expected ${manifest.database.sha256})`, { dir: archiveDir });
  }
  progress('verify', 1, 3);
  const facts = (() => {
    try {
      return readStoreFileFacts(database);
    } catch (error) {
      throw new ArborError('CORRUPT', `The archive's ${ARCHIVE_DATABASE} cannot be read: ${error instanceof Error ? error.message : String(error)}`, { dir: archiveDir });
    }
  })();
  if (facts.check !== 'ok') throw new ArborError('CORRUPT', `The archive's ${ARCHIVE_DATABASE} fails SQLite's check: ${facts.check}`, { dir: archiveDir });
  if (facts.schemaVersion !== manifest.schemaVersion) {
    throw new ArborError('CORRUPT', `The archive's store has schema ${facts.schemaVersion}, its manifest says ${manifest.schemaVersion}`, { dir: archiveDir });
  }
  if (facts.schemaVersion > latestVersion()) {
    throw new ArborError('UNSUPPORTED', `The archive's store is from a newer Arbor (schema ${facts.schemaVersion}; this one knows up to ${latestVersion()}): install it with that Arbor or a later one`, { dir: archiveDir });
  }
  progress('verify', 2, 3);
  if ((await lstat(join(archiveDir, ARCHIVE_SNAPSHOTS, 'HEAD')).catch(() => null)) === null) {
    throw new ArborError('CORRUPT', `The archive has no snapshot repository (${ARCHIVE_SNAPSHOTS})`, { dir: archiveDir });
  }
  const known = new Set(manifest.missingObjects);
  const missing = missingObjects(archiveDir, facts.objectIds).filter((oid) => !known.has(oid));
  if (missing.length > 0) {
    throw new ArborError('CORRUPT', `The archive's snapshot repository lacks ${missing.length} objects its store names (first ${missing[0]})`, { dir: archiveDir, missing: missing.slice(0, 20) });
  }
  progress('verify', 3, 3);
  return manifest;
}

interface ExistingStore {
  /** Sessions, snapshots, operations, forks or refs: something a user would miss. */
  readonly holdsData: boolean;
  readonly sessions: number;
}

/** The store in the data folder (null: none), its WAL folded back first; STORE_BUSY while another process has it open. */
async function existingStore(dataDir: string): Promise<ExistingStore | null> {
  const file = join(dataDir, STORE_FILE);
  const hasFile = (await lstat(file).catch(() => null)) !== null;
  const hasRepository = (await lstat(join(dataDir, ARCHIVE_SNAPSHOTS, 'HEAD')).catch(() => null)) !== null;
  if (!hasFile && !hasRepository) return null;
  if (hasFile && !releaseStoreFile(file)) {
    throw new ArborError('STORE_BUSY', `The store in ${dataDir} is open in another Arbor (the app, arbor serve or arbor watch): close it first`, { dataDir });
  }
  const counts = hasFile ? readStoreFileFacts(file).counts : null;
  const refs = hasRepository ? await countRefs(dataDir) : 0;
  const sessions = counts?.sessions ?? 0;
  const holdsData = sessions + (counts?.snapshots ?? 0) + (counts?.operations ?? 0) + (counts?.forks ?? 0) + refs > 0;
  return { holdsData, sessions };
}

/** Moves the store there is into `<dataDir>/replaced-<date>/` (a second one the same second gets `-2`). */
async function moveAside(dataDir: string, now: Date): Promise<string> {
  const base = join(dataDir, `replaced-${now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '')}`);
  let target = base;
  for (let n = 2; (await lstat(target).catch(() => null)) !== null; n++) target = `${base}-${n}`;
  await mkdir(target);
  for (const name of [STORE_FILE, ...STORE_SIDE_FILES.map((suffix) => `${STORE_FILE}${suffix}`), ARCHIVE_SNAPSHOTS]) {
    await rename(join(dataDir, name), join(target, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  return target;
}
