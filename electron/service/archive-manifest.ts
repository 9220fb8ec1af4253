/**
 * The archive's own files (issue 15): `manifest.json`, which says what the folder holds and lets an install
 * check the store file byte for byte (sha256), and a README.txt for whoever finds the folder.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ARCHIVE_DATABASE,
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_MANIFEST,
  ARCHIVE_README,
  ARCHIVE_SNAPSHOTS,
  type ArchiveManifest,
} from '../../shared/archive';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { v } from '../../shared/validate';

const count = v.int({ min: 0 });
const oid = v.string({ min: 40, max: 64 });
const checkManifest = v.object({
  format: v.literal(ARCHIVE_FORMAT),
  formatVersion: v.int({ min: 1 }),
  arborVersion: v.string({ min: 1, max: 100 }),
  schemaVersion: v.int({ min: 0 }),
  createdAt: v.string({ min: 1, max: 40 }),
  counts: v.object({ sessions: count, nodes: count, snapshots: count, operations: count, forks: count, refs: count }),
  sizes: v.object({ database: count, snapshots: count }),
  database: v.object({ file: v.literal(ARCHIVE_DATABASE), sha256: v.string({ min: 64, max: 64 }) }),
  snapshots: v.object({ dir: v.literal(ARCHIVE_SNAPSHOTS) }),
  missingObjects: v.array(oid, { max: 1_000_000 }),
});

export async function writeArchiveFiles(dir: string, manifest: ArchiveManifest): Promise<void> {
  await writeFile(join(dir, ARCHIVE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, ARCHIVE_README), readme(manifest));
}

/** The archive's manifest, checked: CORRUPT when it is unreadable or not one, UNSUPPORTED when a newer format. */
export async function readArchiveManifest(dir: string): Promise<ArchiveManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, ARCHIVE_MANIFEST), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ArborError('NOT_FOUND', `${dir} is not an Arbor archive: it has no ${ARCHIVE_MANIFEST}`, { dir });
    throw new ArborError('IO', `Cannot read ${join(dir, ARCHIVE_MANIFEST)}: ${String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ArborError('CORRUPT', `The archive's ${ARCHIVE_MANIFEST} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { dir });
  }
  const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === 'number' && version > ARCHIVE_FORMAT_VERSION) {
    throw new ArborError('UNSUPPORTED', `The archive was written by a newer Arbor (archive format ${version}); this one reads format ${ARCHIVE_FORMAT_VERSION}`, { dir });
  }
  try {
    return checkManifest(parsed) as ArchiveManifest;
  } catch (error) {
    throw new ArborError('CORRUPT', `The archive's ${ARCHIVE_MANIFEST} does not describe an archive (${error instanceof Error ? error.message : String(error)})`, { dir });
  }
}

/** The file's sha256 in hex, read in chunks (a store file may be gigabytes). */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    throwIfAborted(signal);
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

function readme(manifest: ArchiveManifest): string {
  const { counts } = manifest;
  return `This folder is an Arbor archive: a whole Arbor store, to move to another machine.

Written ${manifest.createdAt} by Arbor ${manifest.arborVersion} (store schema ${manifest.schemaVersion}).
It holds ${counts.sessions} sessions (${counts.nodes} steps), ${counts.snapshots} workspace snapshots, ${counts.operations} journaled operations and ${counts.forks} forks.

  ${ARCHIVE_DATABASE}   the store (sessions, steps, search index, snapshot records, journal), a consistent
                 copy made with SQLite's online backup while Arbor kept running
  ${ARCHIVE_SNAPSHOTS}/ the snapshot repository: a plain bare git repository (git fsck, git log --all and
                 git push --mirror all work on it), so any git remote can carry it too
  ${ARCHIVE_MANIFEST}  what the archive holds, with the sha256 of ${ARCHIVE_DATABASE}

Install it on the other machine with:

  arbor import-archive PATH/TO/THIS/FOLDER

into an empty data folder, or with --replace to move the store that is there aside (into a dated
folder beside it, never deleted). The sessions stay browsable, searchable and forkable from the store even
where their transcripts are not on the new machine.
`;
}
