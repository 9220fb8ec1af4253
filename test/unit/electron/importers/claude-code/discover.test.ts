import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyTranscriptPath, defaultClaudeLocations, discoverClaudeTranscripts } from '../../../../../electron/importers/claude-code';
import { CancelledError } from '../../../../../shared/errors';
import { tempDir } from '../fixtures/claude-lines';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function put(relative: string, content = '{}\n'): Promise<string> {
  const path = join(dir, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  return path;
}

describe('defaultClaudeLocations', () => {
  it('uses ~/.claude/projects unless CLAUDE_CONFIG_DIR is set', () => {
    expect(defaultClaudeLocations('/home/ana', {})).toEqual(['/home/ana/.claude/projects']);
    expect(defaultClaudeLocations('/home/ana', { CLAUDE_CONFIG_DIR: '  ' })).toEqual(['/home/ana/.claude/projects']);
    expect(defaultClaudeLocations('/home/ana', { CLAUDE_CONFIG_DIR: '/opt/claude' })).toEqual(['/opt/claude/projects']);
    expect(defaultClaudeLocations('/home/ana', { CLAUDE_CONFIG_DIR: '~/alt' })).toEqual(['/home/ana/alt/projects']);
  });
});

describe('classifyTranscriptPath', () => {
  it.each([
    ['/p/-repo/5b97e2d4.jsonl', { role: 'main', sessionHint: '5b97e2d4', agentId: null }],
    ['/p/-repo/agent-ea02459f.jsonl', { role: 'subagent', sessionHint: null, agentId: 'ea02459f' }],
    ['/p/-repo/S1/subagents/agent-a485154.jsonl', { role: 'subagent', sessionHint: 'S1', agentId: 'a485154' }],
    ['/p/-repo/S1/subagents/agent-acompact-f46190.jsonl', { role: 'subagent', sessionHint: 'S1', agentId: 'acompact-f46190' }],
    ['/p/-repo/S1/subagents/workflows/wf_1/agent-ag01.jsonl', { role: 'subagent', sessionHint: 'S1', agentId: 'ag01' }],
  ])('%s', (path, expected) => {
    expect(classifyTranscriptPath(path)).toEqual(expected);
  });
});

describe('discoverClaudeTranscripts', () => {
  it('finds every layout, skips what is not a transcript and orders session files first', async () => {
    await put('proj/S1.jsonl', '{"a":1}\n');
    await put('proj/agent-ab12.jsonl');
    await put('proj/S1/subagents/agent-x1.jsonl');
    await put('proj/S1/subagents/agent-x1.meta.json');
    await put('proj/S1/subagents/workflows/wf/agent-y2.jsonl');
    await put('proj/S1/subagents/workflows/wf/journal.jsonl');
    await put('proj/S1/tool-results/out.jsonl');
    await put('proj/notes.txt');
    await put('other/A0.jsonl');

    const { files, problems } = await discoverClaudeTranscripts([join(dir, 'proj'), join(dir, 'other'), join(dir, 'proj')]);
    expect(problems).toEqual([]);
    expect(files.map((file) => [file.path.slice(dir.length + 1), file.role, file.sessionHint, file.agentId])).toEqual([
      ['other/A0.jsonl', 'main', 'A0', null],
      ['proj/S1.jsonl', 'main', 'S1', null],
      ['proj/S1/subagents/agent-x1.jsonl', 'subagent', 'S1', 'x1'],
      ['proj/S1/subagents/workflows/wf/agent-y2.jsonl', 'subagent', 'S1', 'y2'],
      ['proj/agent-ab12.jsonl', 'subagent', null, 'ab12'],
    ]);
    expect(files[1]).toMatchObject({ format: 'claude-code', size: 8 });
    expect(files[1]?.mtimeMs).toBeGreaterThan(0);
  });

  it('takes a file path as given and reports missing paths as problems', async () => {
    const file = await put('S.jsonl');
    const missing = join(dir, 'nope');
    const { files, problems } = await discoverClaudeTranscripts([file, missing]);
    expect(files.map((found) => found.path)).toEqual([file]);
    expect(problems).toEqual([{ file: missing, line: 0, reason: 'path not found', notImported: true }]);
  });

  it('follows symlinked folders once, without looping', async () => {
    await put('root/S.jsonl');
    await symlink(join(dir, 'root'), join(dir, 'root', 'loop'));
    const { files } = await discoverClaudeTranscripts([join(dir, 'root')]);
    expect(files).toHaveLength(1);
  });

  it('throws CancelledError when aborted', async () => {
    await put('p/S.jsonl');
    const controller = new AbortController();
    controller.abort();
    await expect(discoverClaudeTranscripts([join(dir, 'p')], { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  });
});
