import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { configDirOfTranscript, copyFileHistory, fileHistoryFolder, unsharedBytes } from '../../../../electron/forks/fork-file-history';

let config: string;
beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'arbor-fork-history-'));
});
afterEach(() => rmSync(config, { recursive: true, force: true }));

function backups(sessionId: string, files: Record<string, string>): void {
  const folder = fileHistoryFolder(config, sessionId);
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
}

it('links every source session’s backups under the new id, the first source winning a shared name', async () => {
  backups('s1', { 'aa@v1': 'one', 'bb@v1': 'two' });
  backups('s2', { 'aa@v1': 'other', 'cc@v3': 'three' });
  expect(await copyFileHistory(config, ['s1', 's2', 's1'], 'new')).toBe(3);
  const target = fileHistoryFolder(config, 'new');
  expect(readdirSync(target).sort()).toEqual(['aa@v1', 'bb@v1', 'cc@v3']);
  expect(readFileSync(join(target, 'aa@v1'), 'utf8')).toBe('one');
  // Every file is shared with its source: none of it is the fork's own room.
  expect(await unsharedBytes(target)).toBe(0);
  rmSync(fileHistoryFolder(config, 's1'), { recursive: true });
  expect(await unsharedBytes(target)).toBe('one'.length + 'two'.length);
});

it('makes nothing when there are no backups, and never follows a session id out of the folder', async () => {
  mkdirSync(join(config, 'secrets'));
  writeFileSync(join(config, 'secrets', 'key'), 'private');
  expect(await copyFileHistory(config, ['missing', '../secrets', '..', '.hidden', 'a/b'], 'new')).toBe(0);
  expect(existsSync(fileHistoryFolder(config, 'new'))).toBe(false);
});

it('finds the config dir a resumable transcript was written under', () => {
  expect(configDirOfTranscript(join(config, 'projects', '-work-fork', 'id.jsonl'))).toBe(config);
});
