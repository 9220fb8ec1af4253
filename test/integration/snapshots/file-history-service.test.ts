/**
 * Claude Code's file-history backups through the real service: a transcript imported from a fake home whose
 * `.claude/file-history/<session>/` holds the backups. The service finds them through its injected home
 * (never the real `~`), and without the folder answers exactly as before.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';

const SESSION = '5f0c2b9e-8d7a-4e61-b3f2-0a9c8e7d6b5a';
const CWD = '/work/app';
const FILE = `${CWD}/notes.txt`;
const BACKUP = '3f2a9c8e7d6b5a41@v1';

/** Prompt, a shell command that writes notes.txt, a second prompt (checkpointed), an Edit without originalFile. */
function transcript(): string {
  let n = 0;
  const line = (uuid: string, parentUuid: string | null, fields: object) =>
    JSON.stringify({ parentUuid, isSidechain: false, type: 'user', cwd: CWD, sessionId: SESSION, version: '2.0.64', uuid, timestamp: `2026-01-01T00:00:${String(n++).padStart(2, '0')}.000Z`, ...fields });
  const assistant = (id: string, name: string, input: object) => ({ type: 'assistant', message: { role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id, name, input }] } });
  const result = (id: string, toolUseResult: object) => ({ message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] }, toolUseResult });
  const checkpoint = (messageId: string, backups: object) =>
    JSON.stringify({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: backups, timestamp: '2026-01-01T00:00:00.000Z' }, isSnapshotUpdate: false });
  return [
    checkpoint('p1', {}),
    line('p1', null, { message: { role: 'user', content: 'write the notes' } }),
    line('c1', 'p1', assistant('toolu_1', 'Bash', { command: 'printf "draft\\n" > notes.txt' })),
    line('r1', 'c1', result('toolu_1', { stdout: '', stderr: '', interrupted: false })),
    checkpoint('p2', { 'notes.txt': { backupFileName: BACKUP, version: 1, backupTime: '2026-01-01T00:01:00.000Z' } }),
    line('p2', 'r1', { message: { role: 'user', content: 'polish them' } }),
    line('c2', 'p2', assistant('toolu_2', 'Edit', { file_path: FILE, old_string: 'draft', new_string: 'final' })),
    line('r2', 'c2', result('toolu_2', { filePath: FILE, oldString: 'draft', newString: 'final', replaceAll: false, userModified: false,
      structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-draft', '+final'] }] })),
  ].join('\n') + '\n';
}

describe('file-history backups in the service', () => {
  let root: string;
  let home: string;
  let service: ArborService | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'arbor-file-history-service-'));
    home = join(root, 'home');
    const projects = join(home, '.claude', 'projects', '-work-app');
    mkdirSync(projects, { recursive: true });
    writeFileSync(join(projects, `${SESSION}.jsonl`), transcript());
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function open(env: Record<string, string> = {}) {
    service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: home, env });
    const report = await service.api['import.run']({ paths: [join(home, '.claude', 'projects')] });
    return { api: service.api, sessionId: report.sessions[0]!.id };
  }

  function writeBackup(configDir: string) {
    const dir = join(configDir, 'file-history', SESSION);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, BACKUP), 'draft\n');
  }

  it('fills the pre-state of a file a shell command wrote from the backup', async () => {
    writeBackup(join(home, '.claude'));
    const { api, sessionId } = await open();
    expect(await api['nodes.file']({ nodeId: 'p2', path: FILE })).toMatchObject({ content: 'draft\n', exists: true, known: 'reconstructed' });
    expect(await api['nodes.file']({ nodeId: 'r2', path: FILE })).toMatchObject({ content: 'final\n', known: 'reconstructed' });
    expect((await api['nodes.files']({ nodeId: 'r2' })).changed).toEqual([{ path: FILE, status: 'modified' }]);
    expect((await api['sessions.states']({ sessionId })).known).toEqual({ p1: 'unknown', c1: 'unknown', r1: 'unknown', p2: 'reconstructed', c2: 'reconstructed', r2: 'reconstructed' });
  });

  it('looks in $CLAUDE_CONFIG_DIR when it is set', async () => {
    const elsewhere = join(root, 'claude-config');
    writeBackup(elsewhere);
    const { api } = await open({ CLAUDE_CONFIG_DIR: elsewhere });
    expect(await api['nodes.file']({ nodeId: 'r2', path: FILE })).toMatchObject({ content: 'final\n' });
  });

  it('answers as before without a file-history folder', async () => {
    const { api, sessionId } = await open();
    expect(await api['nodes.file']({ nodeId: 'r2', path: FILE })).toMatchObject({ content: null, known: 'unknown' });
    expect(Object.values((await api['sessions.states']({ sessionId })).known)).toEqual(Array(6).fill('unknown'));
  });
});
