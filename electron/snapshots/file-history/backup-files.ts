/**
 * Reads Claude Code's file-history backups: `<config dir>/file-history/<session-id>/<backupFileName>`, the
 * content a tracked file had at a checkpoint. Reading is bounded: a backup over the size limit, or past the
 * budget of one reconstruction, is treated as missing (its state stays unknown rather than stalling).
 */
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** `$CLAUDE_CONFIG_DIR` (a leading `~` expanded), else `~/.claude`, as Claude Code itself resolves it. */
export function claudeConfigDir(homeDir: string, env: Env): string {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  if (configured === undefined || configured.length === 0) return join(homeDir, '.claude');
  return configured === '~' || configured.startsWith('~/') ? join(homeDir, configured.slice(1)) : configured;
}

export interface BackupLimits {
  /** Larger backups are not read (the capture limit of issue 3: 50 MB). */
  readonly maxFileBytes: number;
  /** What one reader reads in total; later backups count as missing. */
  readonly maxTotalBytes: number;
}

export const DEFAULT_BACKUP_LIMITS: BackupLimits = { maxFileBytes: 50 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 };

export interface BackupReader {
  /** The backup's bytes, or null when it is missing, unreadable, over a limit, or not a plain file name. */
  read(sessionId: string, backupFileName: string): Promise<Buffer | null>;
}

/** Both parts come from transcript lines: anything that could leave the session's folder is refused. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]*$/;
const isSafeName = (name: string): boolean => SAFE_NAME.test(name) && !name.includes('..');

/** Null when the config dir has no file-history folder: then nothing is ever read. */
export async function openBackupReader(configDir: string, limits: BackupLimits = DEFAULT_BACKUP_LIMITS): Promise<BackupReader | null> {
  const root = join(configDir, 'file-history');
  const folder = await stat(root).catch(() => null);
  if (folder === null || !folder.isDirectory()) return null;
  let budget = limits.maxTotalBytes;
  return {
    async read(sessionId, backupFileName) {
      if (!isSafeName(sessionId) || !isSafeName(backupFileName)) return null;
      const handle = await open(join(root, sessionId, backupFileName), 'r').catch(() => null);
      if (handle === null) return null;
      try {
        const info = await handle.stat();
        if (!info.isFile() || info.size > limits.maxFileBytes || info.size > budget) return null;
        budget -= info.size;
        const bytes = await handle.readFile();
        // The file grew between stat and read: keep the bound honest.
        return bytes.length > limits.maxFileBytes ? null : bytes;
      } catch {
        return null;
      } finally {
        await handle.close();
      }
    },
  };
}
