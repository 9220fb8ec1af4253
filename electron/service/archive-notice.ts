/**
 * `archive.notice` / `archive.dismissNotice` (issue 15): when Claude Code's settings leave `cleanupPeriodDays` at
 * its default, the app says once what that means (Claude Code deletes transcripts older than 30 days; Arbor keeps
 * what it imported) and how to change it. The settings file is the one the importer's Claude home holds
 * (`$CLAUDE_CONFIG_DIR`, else `~/.claude`); the dismissal is remembered in the store.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArborApi } from '../../shared/contract';
import { CLEANUP_DEFAULT_DAYS, CLEANUP_SETTING, type CleanupNotice } from '../../shared/archive';
import { readMeta, writeMeta } from '../db/store-gc-records';
import { claudeConfigDir } from '../snapshots/file-history';
import type { WorkspaceContext } from './workspace-context';

/** The store's meta key: when the user dismissed the notice. */
export const CLEANUP_NOTICE_DISMISSED_KEY = 'archive_cleanup_notice_dismissed_at';

/** What the settings say, as far as the notice cares. */
export type CleanupSetting =
  /** No settings file, or one that leaves the setting out: Claude Code's default applies. */
  | { readonly kind: 'default' }
  | { readonly kind: 'explicit' }
  /** A file that is not a JSON object: what Claude Code does with it is not known, so nothing is said. */
  | { readonly kind: 'unreadable' };

/** Reads `cleanupPeriodDays` out of a settings file's text (null: there is no file). */
export function cleanupSettingOf(settingsText: string | null): CleanupSetting {
  if (settingsText === null) return { kind: 'default' };
  let settings: unknown;
  try {
    settings = JSON.parse(settingsText);
  } catch {
    return { kind: 'unreadable' };
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return { kind: 'unreadable' };
  const value = (settings as Record<string, unknown>)[CLEANUP_SETTING];
  return value === undefined || value === null ? { kind: 'default' } : { kind: 'explicit' };
}

async function readCleanupSetting(settingsFile: string): Promise<CleanupSetting> {
  try {
    return cleanupSettingOf(await readFile(settingsFile, 'utf8'));
  } catch (error) {
    // No file: the default. One Arbor may not read (permissions): like a file it cannot parse, nothing is said.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? cleanupSettingOf(null) : { kind: 'unreadable' };
  }
}

/** The decision: a notice only for Claude Code's default, on a machine that has Claude Code, not yet dismissed. */
export function cleanupNotice(input: {
  readonly setting: CleanupSetting;
  readonly claudeCodeHere: boolean;
  readonly dismissed: boolean;
  readonly settingsFile: string;
}): CleanupNotice | null {
  if (!input.claudeCodeHere || input.dismissed || input.setting.kind !== 'default') return null;
  return { kind: 'cleanup-default', days: CLEANUP_DEFAULT_DAYS, settingsFile: input.settingsFile, setting: CLEANUP_SETTING, exampleDays: 365 };
}

export function createArchiveNoticeMethods(workspace: WorkspaceContext): Pick<ArborApi, 'archive.notice' | 'archive.dismissNotice'> {
  const configDir = claudeConfigDir(workspace.homeDir, workspace.env);
  const settingsFile = join(configDir, 'settings.json');
  const db = workspace.store.handles.write;
  return {
    'archive.notice': async () => {
      const dismissed = readMeta(db, CLEANUP_NOTICE_DISMISSED_KEY) !== null;
      if (dismissed) return { notice: null };
      const claudeCodeHere = await stat(configDir).then(
        (info) => info.isDirectory(),
        () => false,
      );
      return { notice: cleanupNotice({ setting: await readCleanupSetting(settingsFile), claudeCodeHere, dismissed, settingsFile }) };
    },
    'archive.dismissNotice': async () => {
      writeMeta(db, CLEANUP_NOTICE_DISMISSED_KEY, workspace.now().toISOString());
      return { notice: null };
    },
  };
}
