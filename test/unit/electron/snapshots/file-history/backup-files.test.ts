import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeConfigDir, openBackupReader, parseCheckpointRecord } from '../../../../../electron/snapshots/file-history';

const SESSION = '0b7e7f4e-3c1a-4d2b-9a55-6f1e2d3c4b5a';

describe('claudeConfigDir', () => {
  it('follows CLAUDE_CONFIG_DIR, expanding ~, else ~/.claude', () => {
    expect(claudeConfigDir('/home/u', {})).toBe('/home/u/.claude');
    expect(claudeConfigDir('/home/u', { CLAUDE_CONFIG_DIR: '  ' })).toBe('/home/u/.claude');
    expect(claudeConfigDir('/home/u', { CLAUDE_CONFIG_DIR: '~/conf' })).toBe('/home/u/conf');
    expect(claudeConfigDir('/home/u', { CLAUDE_CONFIG_DIR: '/etc/claude' })).toBe('/etc/claude');
  });
});

describe('parseCheckpointRecord', () => {
  it('reads an update line: its node, its checkpoint and its backups', () => {
    const line = JSON.stringify({
      type: 'file-history-snapshot',
      messageId: 'm2',
      snapshot: {
        messageId: 'p1',
        trackedFileBackups: {
          'hello.py': { backupFileName: null, version: 1, backupTime: '2025-12-10T19:37:52.995Z' },
          '/abs/x.md': { backupFileName: 'bdf9e93c7e5e5261@v1', version: 1, backupTime: '2025-12-10T19:37:53.082Z' },
          'broken.txt': { backupFileName: 7 },
        },
        timestamp: '2025-12-10T19:37:45.356Z',
      },
      isSnapshotUpdate: true,
    });
    expect(parseCheckpointRecord(line)).toEqual({
      messageId: 'm2',
      checkpointId: 'p1',
      isUpdate: true,
      backups: [
        { key: 'hello.py', backupFileName: null, version: 1, backupTime: '2025-12-10T19:37:52.995Z' },
        { key: '/abs/x.md', backupFileName: 'bdf9e93c7e5e5261@v1', version: 1, backupTime: '2025-12-10T19:37:53.082Z' },
      ],
    });
  });

  it('refuses lines that are not readable checkpoints', () => {
    expect(parseCheckpointRecord('{"type":"file-history-snapshot","snapshot":{"trackedFi')).toBeNull();
    expect(parseCheckpointRecord(JSON.stringify({ type: 'summary', summary: 'x' }))).toBeNull();
  });
});

describe('openBackupReader', () => {
  let config: string;
  beforeEach(() => {
    config = mkdtempSync(join(tmpdir(), 'arbor-file-history-'));
  });
  afterEach(() => rmSync(config, { recursive: true, force: true }));

  it('is null without a file-history folder', async () => {
    expect(await openBackupReader(config)).toBeNull();
  });

  it('reads backups byte for byte, and refuses missing, oversized, over-budget and unsafe names', async () => {
    const dir = join(config, 'file-history', SESSION);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'aaaaaaaaaaaaaaaa@v1'), Buffer.from('one\r\n\xff', 'latin1'));
    writeFileSync(join(dir, 'bbbbbbbbbbbbbbbb@v1'), 'x'.repeat(20));
    writeFileSync(join(dir, 'cccccccccccccccc@v1'), 'y'.repeat(8));
    writeFileSync(join(config, 'file-history', 'secret'), 'outside');
    const reader = (await openBackupReader(config, { maxFileBytes: 16, maxTotalBytes: 12 }))!;
    expect(await reader.read(SESSION, 'aaaaaaaaaaaaaaaa@v1')).toEqual(Buffer.from('one\r\n\xff', 'latin1'));
    expect(await reader.read(SESSION, 'bbbbbbbbbbbbbbbb@v1')).toBeNull(); // over the file limit
    expect(await reader.read(SESSION, 'cccccccccccccccc@v1')).toBeNull(); // 6 + 8 > the budget of 12
    expect(await reader.read(SESSION, 'dddddddddddddddd@v1')).toBeNull();
    expect(await reader.read(SESSION, '../secret')).toBeNull();
    expect(await reader.read('..', 'secret')).toBeNull();
    expect(await reader.read('.', 'secret')).toBeNull();
  });
});
