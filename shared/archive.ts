/**
 * The archive (issue 15, `arbor export-archive DIR` / `arbor import-archive DIR`): a whole store as a plain
 * folder another machine installs. It holds the store's SQLite file (a consistent copy made with SQLite's
 * online backup), the snapshot repository (a git repository any git remote can carry), `manifest.json` and
 * a README.txt. These are the shapes both ends share.
 */

export const ARCHIVE_FORMAT = 'arbor-archive';
export const ARCHIVE_FORMAT_VERSION = 1;
export const ARCHIVE_MANIFEST = 'manifest.json';
export const ARCHIVE_README = 'README.txt';
export const ARCHIVE_DATABASE = 'arbor.sqlite';
export const ARCHIVE_SNAPSHOTS = 'snapshots.git';

/** What the store held when it was archived. */
export interface ArchiveCounts {
  readonly sessions: number;
  readonly nodes: number;
  readonly snapshots: number;
  readonly operations: number;
  readonly forks: number;
  /** Refs in the snapshot repository (snapshots, forks, operations' safety commits). */
  readonly refs: number;
}

export interface ArchiveManifest {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly formatVersion: number;
  /** The Arbor that wrote it. */
  readonly arborVersion: string;
  /** The store's schema (`PRAGMA user_version`): an older one is migrated on import, a newer one refused. */
  readonly schemaVersion: number;
  readonly createdAt: string;
  readonly counts: ArchiveCounts;
  readonly sizes: { readonly database: number; readonly snapshots: number };
  readonly database: { readonly file: string; readonly sha256: string };
  readonly snapshots: { readonly dir: string };
  /**
   * Objects the store's rows name that its own repository already lacked when it was archived (a store damaged
   * before): listed so the install knows them from a copy that lost some. Usually empty.
   */
  readonly missingObjects: readonly string[];
}

/** `archive.export`: writes the archive to `dir`; `EXISTS` when `dir` is there and not empty, unless `force`. */
export interface ArchiveExportRequest {
  readonly dir: string;
  /** Replace a non-empty `dir` (it is moved aside only once the new archive is complete, then removed). */
  readonly force?: boolean;
}

export interface ArchiveExported {
  readonly dir: string;
  readonly manifest: ArchiveManifest;
  /** Times SQLite's backup started over because another connection wrote meanwhile (an import beside it). */
  readonly backupRestarts: number;
}

export interface ArchiveImported {
  readonly dataDir: string;
  readonly manifest: ArchiveManifest;
  /** The schema version the store has now (the archive's, or the one its migrations reached). */
  readonly schemaVersion: number;
  readonly migrated: boolean;
  /** Where `--replace` moved the store that was there (null: the data folder held none). */
  readonly replacedTo: string | null;
}

/** The phases an archive's progress names (`operation.progress` with operation `archive-export`/`archive-import`). */
export type ArchivePhase = 'database' | 'snapshots' | 'verify' | 'install';

/**
 * The archive (issue 15): what the app tells the user about Claude Code's own cleanup of its transcripts.
 * Claude Code deletes transcripts (and their file-history backups) older than `cleanupPeriodDays`, 30 days when
 * its settings leave it out; Arbor keeps what it imported either way.
 */

/** Claude Code's setting, and its value when the settings leave it out. */
export const CLEANUP_SETTING = 'cleanupPeriodDays';
export const CLEANUP_DEFAULT_DAYS = 30;

/** Said once (until dismissed) when Claude Code's settings leave `cleanupPeriodDays` at its default. */
export interface CleanupNotice {
  readonly kind: 'cleanup-default';
  /** The days after which Claude Code deletes a transcript: the default. */
  readonly days: number;
  /** The settings file to change (`<Claude config dir>/settings.json`). */
  readonly settingsFile: string;
  readonly setting: typeof CLEANUP_SETTING;
  /** A value the user could set (shown as the example). */
  readonly exampleDays: number;
}
