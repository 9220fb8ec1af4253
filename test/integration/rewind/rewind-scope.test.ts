/**
 * What a reconstructed rewind may touch (DESIGN.md rule 2), on a small transcript written for the test: only
 * the files the session touched; a touched file outside the workspace, an ignored one, one under `.git`, one
 * behind a symlinked folder and one whose content is not known are listed as skipped and left alone. Side
 * effects after the node (git push, MCP call) are listed. The session's folder maps onto another workspace.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { NodeSummary } from '../../../shared/model';
import { prompt, toolCall, toolResult, writeTranscript } from '../service/claude-lines';
import { describeFiles, readAllFiles } from './workspace-files';

let root: string;
let workspace: string;
let outside: string;
let service: ArborService;
let nodes: readonly NodeSummary[];

type Line = Record<string, unknown>;
const inWorkspace = (line: Line): Line => ({ ...line, cwd: workspace, sessionId: 'scope-session' });
let at = 0;
/** A Write tool call and its result (null `before`: the file was created). */
function write(id: string, parent: string, path: string, content: string, before: string | null): Line[] {
  const toolUseResult = { type: before === null ? 'create' : 'update', filePath: path, content, structuredPatch: [], originalFile: before };
  return [
    inWorkspace(toolCall(`${id}-call`, parent, id, 'Write', { file_path: path, content }, 'scope-session', at++)),
    inWorkspace(toolResult(`${id}-result`, `${id}-call`, id, 'ok', { session: 'scope-session', at: at++, toolUseResult })),
  ];
}
/** An Edit whose result does not carry the file (older Claude Code versions): its content stays unknown. */
function editUnknown(id: string, parent: string, path: string): Line[] {
  const toolUseResult = { filePath: path, oldString: 'a', newString: 'b', structuredPatch: [] };
  return [
    inWorkspace(toolCall(`${id}-call`, parent, id, 'Edit', { file_path: path, old_string: 'a', new_string: 'b' }, 'scope-session', at++)),
    inWorkspace(toolResult(`${id}-result`, `${id}-call`, id, 'ok', { session: 'scope-session', at: at++, toolUseResult })),
  ];
}
function call(id: string, parent: string, name: string, input: unknown): Line[] {
  return [
    inWorkspace(toolCall(`${id}-call`, parent, id, name, input, 'scope-session', at++)),
    inWorkspace(toolResult(`${id}-result`, `${id}-call`, id, 'ok', { session: 'scope-session', at: at++ })),
  ];
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-rewind-scope-'));
  workspace = join(root, 'workspace');
  outside = join(root, 'outside');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, join(workspace, 'linked'));
  const lines: Line[] = [
    inWorkspace(prompt('p1', null, 'go', 'scope-session', at++)),
    ...write('w1', 'p1', join(workspace, 'a.txt'), 'one\n', null),
    ...write('w2', 'w1-result', join(outside, 'x.txt'), 'outside\n', null),
    ...write('w3', 'w2-result', join(workspace, 'debug.log'), 'log\n', null),
    ...editUnknown('w4', 'w3-result', join(workspace, 'b.txt')),
    ...write('w5', 'w4-result', join(workspace, '.git/config'), '[core]\n', null),
    ...write('w6', 'w5-result', join(workspace, 'linked/y.txt'), 'through a link\n', null),
    ...write('w7', 'w6-result', join(workspace, 'a.txt'), 'two\n', 'one\n'),
    ...call('c1', 'w7-result', 'Bash', { command: 'git add -A && git commit -m wip && git push origin main' }),
    ...call('c2', 'c1-result', 'mcp__tracker__close_issue', { id: 7 }),
  ];
  // The workspace as the session left it, plus files the session never touched.
  writeFileSync(join(workspace, '.gitignore'), '*.log\n');
  writeFileSync(join(workspace, 'a.txt'), 'two\n');
  writeFileSync(join(workspace, 'b.txt'), 'b edited by hand since\n');
  writeFileSync(join(workspace, 'debug.log'), 'log, and more since\n');
  writeFileSync(join(workspace, '.git/config'), '[core]\n\tbare = false\n');
  writeFileSync(join(workspace, 'untouched.txt'), 'never touched\n');
  writeFileSync(join(outside, 'x.txt'), 'outside\n');
  writeFileSync(join(outside, 'y.txt'), 'through a link\n');
  const transcript = join(root, 'transcripts', 'scope-session.jsonl');
  writeTranscript(transcript, lines);
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {}, now: () => new Date('2026-05-02T09:00:00.000Z') });
  await service.api['import.run']({ paths: [transcript] });
  nodes = (await service.api['sessions.graph']({ sessionId: 'scope-session' })).nodes;
});
afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const nodeId = (sourceId: string): string => nodes.find((node) => node.sourceId === sourceId)!.id;

describe('reconstructed rewind scope', () => {
  it('writes only safe touched files and lists every other touched path as skipped, with its reason', async () => {
    // 'unknown': b.txt's content is not known at this node.
    const preview = await service.api['rewind.preview']({ nodeId: nodeId('w1-result') });
    expect(preview).toMatchObject({ workspace, known: 'unknown', written: ['a.txt'], created: [], deleted: [] });
    expect(preview.skipped).toEqual(
      expect.arrayContaining([
        { path: join(outside, 'x.txt'), reason: 'outside-workspace' },
        { path: 'debug.log', reason: 'ignored' },
        { path: 'b.txt', reason: 'unknown-content' },
        { path: '.git/config', reason: 'unsafe-path' },
        { path: 'linked/y.txt', reason: 'unsafe-path' },
      ]),
    );
    expect(preview.skipped).toHaveLength(5);
    expect(preview.sideEffects.map((effect) => [effect.tool, effect.kind])).toEqual([
      ['Bash', 'git-push'],
      ['mcp__tracker__close_issue', 'mcp'],
    ]);
    expect(preview.sideEffects[0]).toMatchObject({ nodeId: nodeId('c1-call'), toolUseId: 'c1' });

    const before = readAllFiles(workspace);
    const outsideBefore = readAllFiles(outside);
    const outcome = await service.api['rewind.apply']({ nodeId: nodeId('w1-result'), token: preview.token });
    expect(outcome).toMatchObject({ status: 'applied', written: ['a.txt'], created: [], deleted: [] });
    const after = readAllFiles(workspace);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
    for (const [path, file] of before) if (path !== 'a.txt') expect(after.get(path), path).toEqual(file);
    expect(readFileSync(join(workspace, '.git/config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(describeFiles(readAllFiles(outside))).toEqual(describeFiles(outsideBefore));
    if (outcome.status !== 'applied') return;
    await service.api['operations.undo']({ operationId: outcome.operation });
    expect(describeFiles(readAllFiles(workspace))).toEqual(describeFiles(before));
  });

  it('deletes a file the session created when rewinding to before it, and lists no side effects after the last step', async () => {
    const preview = await service.api['rewind.preview']({ nodeId: nodeId('p1') });
    expect(preview).toMatchObject({ written: [], created: [], deleted: ['a.txt'] });
    const last = await service.api['rewind.preview']({ nodeId: nodeId('c2-result') });
    expect(last.sideEffects).toEqual([]);
    expect([...last.written, ...last.created, ...last.deleted]).toEqual([]);
  });

  it('maps the session’s folder onto another workspace, with that workspace’s ignore rules', async () => {
    const copy = join(root, 'copy');
    mkdirSync(copy);
    writeFileSync(join(copy, '.gitignore'), '*.log\n');
    writeFileSync(join(copy, 'a.txt'), 'something else\n');
    writeFileSync(join(copy, 'other.txt'), 'stays\n');
    const preview = await service.api['rewind.preview']({ nodeId: nodeId('w7-result'), workspace: copy });
    // b.txt's content is unknown before the edit and still after it (the result did not carry the file).
    expect(preview).toMatchObject({ workspace: copy, written: ['a.txt'], created: ['linked/y.txt'], deleted: [] });
    expect(preview.skipped.map((skip) => skip.reason).sort()).toEqual(['ignored', 'outside-workspace', 'unknown-content', 'unsafe-path']);
    const outcome = await service.api['rewind.apply']({ nodeId: nodeId('w7-result'), workspace: copy, token: preview.token });
    expect(outcome.status).toBe('applied');
    expect(readFileSync(join(copy, 'a.txt'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(copy, 'linked/y.txt'), 'utf8')).toBe('through a link\n');
    expect(readFileSync(join(copy, 'other.txt'), 'utf8')).toBe('stays\n');
  });

  it('refuses a workspace that does not exist', async () => {
    await expect(service.api['rewind.preview']({ nodeId: nodeId('p1'), workspace: join(root, 'missing') })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
