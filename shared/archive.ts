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
