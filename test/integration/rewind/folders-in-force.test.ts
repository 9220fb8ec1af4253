/**
 * `relocated` and `worktree-state` (Claude Code 2026, issue 13): the session's folder changes mid-way, and
 * rewind, fork and reconstruction use the folder in force at each node. Written with Arbor's own generator.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProjectDir } from '../../../electron/demo/synthetic';
import { TranscriptBuilder, type Usage } from '../../../electron/demo/transcript-builder';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { Random } from '../../../shared/random';

const USAGE: Usage = { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 };
const SESSION = 'f01de200-0000-4000-8000-000000000001';

let root: string;
let service: ArborService;
let oldDir: string;
let newDir: string;
let worktree: string;
const at: Record<string, string> = {};

/** A Write of `path` (created, or updated from `before`); returns the result line's uuid. */
function write(b: TranscriptBuilder, path: string, content: string, before: string | null): string {
  const input = { file_path: path, content };
  const { calls } = b.assistant([{ type: 'tool_use', id: b.toolUseId(), name: 'Write', input }], 'claude-sonnet-4-5', USAGE, 'tool_use');
  const toolUseResult = { type: before === null ? 'create' : 'update', filePath: path, content, structuredPatch: [], originalFile: before };
  return b.toolResult(calls[0]!, 'ok', toolUseResult);
}

/** An Edit whose result carries no pre-state (older shapes): only a file-history backup tells the file. */
function editWithoutOriginal(b: TranscriptBuilder, path: string, oldString: string, newString: string): { call: string; result: string } {
  const input = { file_path: path, old_string: oldString, new_string: newString };
  const { calls } = b.assistant([{ type: 'tool_use', id: b.toolUseId(), name: 'Edit', input }], 'claude-sonnet-4-5', USAGE, 'tool_use');
  const result = b.toolResult(calls[0]!, 'ok', { filePath: path, oldString, newString, structuredPatch: [], userModified: false, replaceAll: false });
  return { call: calls[0]!.lineUuid, result };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-folders-'));
  oldDir = join(root, 'old');
  newDir = join(root, 'new');
  worktree = join(newDir, '.claude', 'worktrees', 'fix');
  const b = new TranscriptBuilder({ sessionId: SESSION, cwd: oldDir, version: '2.1.300', gitBranch: 'main', slug: 'amber-folded-river' }, new Random(3), new Date('2026-05-01T10:00:00Z'));
  b.userPrompt('write a');
  at.beforeMove = write(b, join(oldDir, 'a.txt'), 'a one\n', null);
  b.relocated(newDir);
  b.userPrompt('write b');
  at.afterMove = write(b, join(newDir, 'b.txt'), 'b one\n', null);
  // An edit with no recorded pre-state, backed up by a delta whose path is relative to the folder in force.
  const edit = editWithoutOriginal(b, join(newDir, 'c.txt'), 'c zero', 'c one');
  b.fileHistoryDelta(edit.call, 'c.txt', { backupFileName: '00000000000000cc@v1', version: 1, backupTime: b.timestamp() });
  at.afterEdit = edit.result;
  b.worktreeState({ originalCwd: newDir, worktreePath: worktree, worktreeName: 'fix', worktreeBranch: 'worktree-fix' });
  b.userPrompt('write w in the worktree');
  at.inWorktree = write(b, join(worktree, 'w.txt'), 'w one\n', null);
  b.worktreeState(null);
  b.userPrompt('back');
  at.afterWorktree = write(b, join(newDir, 'b.txt'), 'b two\n', 'b one\n');
  const project = join(root, 'home', '.claude', 'projects', encodeProjectDir(oldDir));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${SESSION}.jsonl`), b.take().join('\n') + '\n');
  const history = join(root, 'home', '.claude', 'file-history', SESSION);
  mkdirSync(history, { recursive: true });
  writeFileSync(join(history, '00000000000000cc@v1'), 'c zero\n');

  // The folders as they are now: each holds later contents.
  for (const [dir, files] of [[oldDir, { 'a.txt': 'a now\n' }], [newDir, { 'a.txt': 'a now\n', 'b.txt': 'b now\n', 'c.txt': 'c now\n' }], [worktree, { 'w.txt': 'w now\n' }]] as const) {
    mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  }
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  await service.api['import.run']({ paths: [join(root, 'home', '.claude', 'projects')] });
}, 60_000);

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('relocated', () => {
  it('relocated: a rewind at a node before the relocation targets the old folder, after it the new one', async () => {
    const before = await service.api['rewind.preview']({ nodeId: at.beforeMove! });
    expect(before.workspace).toBe(oldDir);
    expect(before.written).toEqual(['a.txt']);

    const after = await service.api['rewind.preview']({ nodeId: at.afterMove! });
    expect(after.workspace).toBe(newDir);
    // a.txt was written in the old folder before the move: the same file is now in the new one.
    expect(after.written).toEqual(['a.txt', 'b.txt']);
    expect(after.skipped.map((file) => file.path)).not.toContain(join(oldDir, 'a.txt'));
  });

  it('relocated: reconstruction maps a path written before the move into the folder in force', async () => {
    const files = await service.api['nodes.files']({ nodeId: at.afterMove! });
    expect(JSON.stringify(files)).toContain(join(oldDir, 'a.txt'));
    const outcome = await service.api['rewind.apply']({ nodeId: at.afterMove!, token: (await service.api['rewind.preview']({ nodeId: at.afterMove! })).token });
    if (outcome.status !== 'applied') throw new Error(`rewind stopped: ${JSON.stringify(outcome)}`);
    expect(readFileSync(join(newDir, 'a.txt'), 'utf8')).toBe('a one\n');
    expect(readFileSync(join(newDir, 'b.txt'), 'utf8')).toBe('b one\n');
    expect(readFileSync(join(oldDir, 'a.txt'), 'utf8')).toBe('a now\n'); // the old folder is not touched
    await service.api['operations.undo']({ operationId: outcome.operation });
    expect(readFileSync(join(newDir, 'a.txt'), 'utf8')).toBe('a now\n');
  });

  it('relocated: a fork at a node after the relocation copies the new folder, before it the old one', async () => {
    const after = await service.api['fork.create']({ nodeId: at.afterMove!, dir: join(root, 'fork-after') });
    expect(readFileSync(join(after.dir, 'b.txt'), 'utf8')).toBe('b one\n');
    expect(readFileSync(join(after.dir, 'a.txt'), 'utf8')).toBe('a one\n'); // written before the move, as it was then
    const before = await service.api['fork.create']({ nodeId: at.beforeMove!, dir: join(root, 'fork-before') });
    expect(readFileSync(join(before.dir, 'a.txt'), 'utf8')).toBe('a one\n');
    expect(existsSync(join(before.dir, 'b.txt'))).toBe(false);
  });

  it('relocated: reconstruction reads a backup whose relative path is relative to the folder in force', async () => {
    const preview = await service.api['rewind.preview']({ nodeId: at.afterEdit! });
    expect(preview.workspace).toBe(newDir);
    // c.txt's pre-edit content comes only from the delta's backup (the line's cwd field agrees here; the
    // folder in force is what the path is resolved against).
    expect(preview.written).toContain('c.txt');
    expect(preview.skipped.map((file) => file.path)).not.toContain('c.txt');
  });
});

describe('worktree-state', () => {
  it('worktree-state: a rewind in the worktree targets it; after worktreeSession null, the original folder again', async () => {
    const inside = await service.api['rewind.preview']({ nodeId: at.inWorktree! });
    expect(inside.workspace).toBe(worktree);
    expect(inside.written).toEqual(['w.txt']);
    const back = await service.api['rewind.preview']({ nodeId: at.afterWorktree! });
    expect(back.workspace).toBe(newDir);
    expect(back.written).toContain('b.txt');
  });

  it('worktree-state: a fork in the worktree copies the worktree', async () => {
    const fork = await service.api['fork.create']({ nodeId: at.inWorktree!, dir: join(root, 'fork-worktree') });
    expect(readFileSync(join(fork.dir, 'w.txt'), 'utf8')).toBe('w one\n');
    expect(existsSync(join(fork.dir, 'b.txt'))).toBe(false);
  });
});
