/** Claude Code's file history (FORMATS.md §1.7): the checkpoint lines and the backup files behind them. */
export { parseCheckpointRecord, type CheckpointBackup, type CheckpointRecord } from './checkpoint-record';
export { claudeConfigDir, openBackupReader, DEFAULT_BACKUP_LIMITS, type BackupLimits, type BackupReader } from './backup-files';
export { parseDeltaRecord, type DeltaRecord } from './delta-record';
